import assert from 'node:assert/strict';
import { readdir, readFile, rm, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Decimal } from 'decimal.js';
import { perturbFactor, synthCik, synthesizeCorpus, type SynthResult } from '../bench/lib/synth-corpus.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { runIngestion } from '../ingest/run-ingestion.ts';
import { createTestDatabase } from './helpers/database.ts';
import { openArchives } from '../ingest/archives.ts';
import { spawnSync } from 'node:child_process';

const MIRROR = path.resolve(import.meta.dirname, '../../shared/sec');
const FACTS = 'data.sec.gov/api/xbrl/companyfacts';
// a company with submissions (and a history page) but no filing packages, so its clone sees all it sees
const ORIGINAL = '0001046179';

describe('synthetic corpus (bench scale suite)', () => {
  let dir: string;
  let result: SynthResult;
  let db: Database;
  let clone: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fds-synth-test-'));
    result = await synthesizeCorpus({ source: MIRROR, out: path.join(dir, 'mirror'), factor: 3 });
    const names = (await readdir(path.join(MIRROR, FACTS))).filter((n) => /^CIK\d{10}\.json$/.test(n)).sort();
    clone = synthCik(1, names.indexOf(`CIK${ORIGINAL}.json`));
    db = await createTestDatabase();
    await migrate(db.sql);
  });
  after(async () => {
    await db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('writes the mirror plus factor-1 clones of every company with company facts, under CIKs outside EDGAR', async () => {
    const names = (await readdir(path.join(result.out, FACTS))).filter((n) => /^CIK\d{10}\.json$/.test(n));
    assert.equal(result.companies_total, result.companies * 3);
    assert.equal(names.length, result.companies * 3);
    assert.equal(names.filter((n) => n.startsWith('CIK9')).length, result.companies * 2);
    // the originals are the source's own bytes
    const a = await readFile(path.join(MIRROR, FACTS, `CIK${ORIGINAL}.json`));
    assert.ok(a.equals(await readFile(path.join(result.out, FACTS, `CIK${ORIGINAL}.json`))));
    assert.ok(result.companyfacts_bytes_total > result.companyfacts_bytes_source * 2.5);
  });

  test('a clone ingests into the same statement versions and restatements as its original, every amount times its factor', async () => {
    const config = { ...loadConfig(), secSource: result.out };
    const run = await runIngestion(db.sql, config, { ciks: [ORIGINAL, clone] });
    assert.equal(run.status, 'succeeded', JSON.stringify(run.errors));
    const [orig, copy] = [ORIGINAL, clone].map((cik) => run.companies.find((c) => c.cik === cik)!);
    assert.ok(orig!.versions_added > 20, `expected a long history, got ${orig!.versions_added} versions`);
    assert.equal(copy!.versions_added, orig!.versions_added);
    assert.equal(copy!.restatements_added, orig!.restatements_added);
    assert.equal(copy!.filings, orig!.filings);

    const rows = await db.sql<{ cik: string; key: string; figures: Record<string, { value?: string }> }[]>`
      SELECT cik, statement_type || '|' || fiscal_year || '|' || fiscal_period || '|' || version_sequence AS key, figures
      FROM statement_versions WHERE cik IN (${ORIGINAL}, ${clone})`;
    const of = (cik: string) => new Map(rows.filter((r) => r.cik === cik).map((r) => [r.key, r.figures]));
    const [a, b] = [of(ORIGINAL), of(clone)];
    assert.deepEqual([...b.keys()].sort(), [...a.keys()].sort());
    const m = Number(perturbFactor(1));
    let compared = 0;
    for (const [key, figs] of a) {
      for (const [metric, fig] of Object.entries(figs)) {
        const other = b.get(key)![metric];
        if (fig.value === undefined) continue;
        const ratioUnit = /^EPS|PER_SHARE/.test(metric);
        const expected = ratioUnit ? new Decimal(fig.value) : new Decimal(fig.value).times(m);
        assert.ok(new Decimal(other!.value!).equals(expected), `${key} ${metric}: ${other?.value} vs ${fig.value} x ${m}`);
        compared++;
      }
    }
    assert.ok(compared > 300, `compared ${compared} figures`);
  });
});

describe('corpus synth on the command line', () => {
  test('writes the synthetic corpus as companyfacts.zip and submissions.zip beside the mirror form', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fds-synth-cli-'));
    try {
      const out = path.join(dir, 'corpus');
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'cli.ts', 'corpus', 'synth', '--factor', '2', '--out', out, '--source', MIRROR], {
        cwd: path.resolve(import.meta.dirname, '..'),
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
      const archives = await openArchives(out);
      try {
        const facts = (await readdir(path.join(out, FACTS))).filter((n) => /^CIK\d{10}\.json$/.test(n)).sort();
        assert.deepEqual(archives.companyfacts!.names(), facts);
        const clone = facts.find((n) => n.startsWith('CIK9'))!;
        assert.ok((await archives.companyfacts!.read(clone))!.equals(await readFile(path.join(out, FACTS, clone))), 'a member holds the same bytes as the file');
        const submissions = (await readdir(path.join(out, 'data.sec.gov/submissions'))).filter((n) => /^CIK\d{10}(-submissions-\d{3})?\.json$/.test(n)).sort();
        assert.deepEqual(archives.submissions!.names(), submissions, 'main files and history pages, clones included');
        assert.ok(submissions.some((n) => n.startsWith('CIK9')));
      } finally {
        await archives.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
