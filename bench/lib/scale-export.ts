import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../../config.ts';
import { connect } from '../../db/client.ts';
import { buildSnapshot } from '../../export/build.ts';
import { LocalStore } from '../../export/local-store.ts';
import { companyMembers } from '../../ingest/archive-source.ts';
import { openArchives } from '../../ingest/archives.ts';
import { runIngestion } from '../../ingest/run-ingestion.ts';
import { writeZip } from './archive-zips.ts';

export interface ScaleExport {
  full_s: number;
  files: number;
  bytes: number;
  rows: number;
  /** the company whose facts changed between the builds, and the versions its re-ingestion added */
  changed_cik: string;
  changed_versions_added: number;
  incremental_s: number;
  incremental_files_written: number;
  carried_forward: number;
}

/**
 * A full bulk build over the database, then one company changed (one of its figures in its latest
 * annual report moved by one, re-ingested from a one-company archive as a nightly archive would
 * bring it) and an incremental build, each timed.
 */
export async function exportAtScale(databaseUrl: string, archivesDir: string, mirror: string, workDir: string): Promise<ScaleExport> {
  const sql = connect(databaseUrl);
  try {
    const store = new LocalStore({ root: path.join(workDir, 'store'), secret: Buffer.from('bench'), baseUrl: () => 'http://127.0.0.1' });
    let clock = Date.UTC(2026, 0, 5, 4, 30);
    const deps = { sql, store, stagingDir: path.join(workDir, 'staging'), now: () => new Date(clock) };
    let t = performance.now();
    const full = await buildSnapshot(deps, { full: true });
    const fullS = (performance.now() - t) / 1000;

    const changed = path.join(workDir, 'changed');
    await mkdir(changed, { recursive: true });
    const cik = await writeChangedCompany(archivesDir, changed);
    const config = { ...loadConfig({}), databaseUrl, secSource: mirror };
    const re = await runIngestion(sql, config, { archives: changed, ciks: [cik] });
    if (re.status !== 'succeeded') throw new Error(`re-ingesting the changed company failed: ${JSON.stringify(re.errors)}`);

    clock += 60_000;
    t = performance.now();
    const inc = await buildSnapshot(deps, { full: false });
    const incS = (performance.now() - t) / 1000;
    return {
      full_s: fullS,
      files: full.manifest.files.length,
      bytes: full.manifest.bytes,
      rows: full.manifest.rows,
      changed_cik: cik,
      changed_versions_added: re.counters.versions_added,
      incremental_s: incS,
      incremental_files_written: inc.manifest.files.length - inc.carried_forward,
      carried_forward: inc.carried_forward,
    };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

type Json = Record<string, any>;

/** The last company of the archives with one USD figure of its latest annual report moved by one, as a one-company archive pair. */
async function writeChangedCompany(archivesDir: string, out: string): Promise<string> {
  const archives = await openArchives(archivesDir);
  try {
    const names = archives.companyfacts!.names().filter((n) => /^CIK\d{10}\.json$/.test(n));
    for (const name of names.reverse()) {
      const cik = name.slice(3, 13);
      const doc = JSON.parse((await archives.companyfacts!.read(name))!.toString('utf8')) as Json;
      let latest: Json | null = null;
      for (const concepts of Object.values<Json>(doc.facts ?? {}))
        for (const body of Object.values<Json>(concepts))
          for (const row of (body.units?.USD ?? []) as Json[])
            if (row.form === '10-K' && Number.isSafeInteger(row.val) && (!latest || row.filed > latest.filed)) latest = row;
      if (!latest) continue;
      latest.val += 1;
      await writeZip(path.join(out, 'companyfacts.zip'), [{ name, data: JSON.stringify(doc) }]);
      const subs = companyMembers(archives, cik).filter((m) => m.archive.kind === 'submissions');
      await writeZip(path.join(out, 'submissions.zip'), await Promise.all(subs.map(async (m) => ({ name: m.member, data: (await m.archive.read(m.member))! }))));
      return cik;
    }
    throw new Error('no company with a 10-K figure in USD to change');
  } finally {
    await archives.close();
  }
}
