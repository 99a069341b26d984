import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../../config.ts';
import { connect } from '../../db/client.ts';
import { companyMembers } from '../../ingest/archive-source.ts';
import { openArchives } from '../../ingest/archives.ts';
import { runIngestion } from '../../ingest/run-ingestion.ts';
import { writeZip } from './archive-zips.ts';
import { REPO_ROOT } from './paths.ts';

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
 * annual report moved by `delta` (one; another to run it again over the same database), re-ingested from a one-company archive as a nightly archive would
 * bring it) and an incremental build, each `fds export build` in its own process, timed.
 */
export async function exportAtScale(databaseUrl: string, archivesDir: string, mirror: string, workDir: string, delta = 1): Promise<ScaleExport> {
  const env = { DATABASE_URL: databaseUrl, BULK_DIR: path.join(workDir, 'bulk'), SEC_SOURCE: mirror, BULK_STORE: 'local' };
  const full = await exportBuild(['--full'], env);
  const changed = path.join(workDir, 'changed');
  await mkdir(changed, { recursive: true });
  const cik = await writeChangedCompany(archivesDir, changed, delta);
  const sql = connect(databaseUrl);
  let added = 0;
  try {
    const re = await runIngestion(sql, { ...loadConfig({}), databaseUrl, secSource: mirror }, { archives: changed, ciks: [cik] });
    if (re.status !== 'succeeded') throw new Error(`re-ingesting the changed company failed: ${JSON.stringify(re.errors)}`);
    added = re.counters.versions_added;
  } finally {
    await sql.end({ timeout: 5 });
  }
  // snapshot ids are build-start seconds
  await new Promise((r) => setTimeout(r, 1100));
  const inc = await exportBuild([], env);
  return {
    full_s: full.s,
    files: full.files,
    bytes: full.bytes,
    rows: full.rows,
    changed_cik: cik,
    changed_versions_added: added,
    incremental_s: inc.s,
    incremental_files_written: inc.files - inc.carried,
    carried_forward: inc.carried,
  };
}

/** `fds export build [args]` in a child process: wall time and the published snapshot's figures from its last line. */
async function exportBuild(args: string[], env: Record<string, string>): Promise<{ s: number; rows: number; bytes: number; files: number; carried: number }> {
  const t = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli.ts', 'export', 'build', ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  // a build that stops making progress is reported as such rather than holding the suite forever
  const limitS = Number(process.env.BENCH_EXPORT_TIMEOUT_S || 900);
  const late = setTimeout(() => child.kill('SIGKILL'), limitS * 1000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(late);
  const s = (performance.now() - t) / 1000;
  if (code === null) throw new Error(`export build ${args.join(' ')} made no end within ${limitS} s (BENCH_EXPORT_TIMEOUT_S) and was stopped`);
  const m = /published \S+ \((?:full|incremental)\): (\d+) rows, (\d+) bytes in (\d+) files, (\d+) carried forward/.exec(out);
  if (code !== 0 || !m) throw new Error(`export build ${args.join(' ')} exited ${code}: ${out.slice(-500)}`);
  return { s, rows: Number(m[1]), bytes: Number(m[2]), files: Number(m[3]), carried: Number(m[4]) };
}

type Json = Record<string, any>;

/** The last company of the archives with one USD figure of its latest annual report moved by `delta`, as a one-company archive pair. */
async function writeChangedCompany(archivesDir: string, out: string, delta: number): Promise<string> {
  const archives = await openArchives(archivesDir);
  try {
    const names = archives.companyfacts!.names().filter((n) => /^CIK\d{10}\.json$/.test(n));
    for (const name of names.reverse()) {
      const cik = name.slice(3, 13);
      const doc = JSON.parse((await archives.companyfacts!.read(name))!.toString('utf8')) as Json;
      // total assets at the end of the latest annual report: a balance-sheet line every company tags
      let latest: Json | null = null;
      for (const row of (doc.facts?.['us-gaap']?.Assets?.units?.USD ?? []) as Json[]) {
        if (row.form !== '10-K' || !Number.isSafeInteger(row.val)) continue;
        if (!latest || row.filed > latest.filed || (row.filed === latest.filed && row.end > latest.end)) latest = row;
      }
      if (!latest) continue;
      latest.val += delta;
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

/**
 * `node --import tsx bench/lib/scale-export.ts <database-url> <archives-dir> [delta]`: the same over
 * a database already loaded from those archives (e.g. `fds corpus synth --factor 10` then `fds
 * ingest --archives`), printing the figures and the incremental share; a new `delta` each run makes
 * a change again. BULK_DIR goes under a temporary directory; SEC_SOURCE is the mirror.
 */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [databaseUrl, archivesDir, delta = '1'] = process.argv.slice(2);
  if (!databaseUrl || !archivesDir) throw new Error('usage: scale-export.ts <database-url> <archives-dir> [delta]');
  const work = await mkdtemp(path.join(tmpdir(), 'fds-scale-export-'));
  try {
    const r = await exportAtScale(databaseUrl, archivesDir, loadConfig().secSource, work, Number(delta));
    console.log(JSON.stringify(r));
    console.log(`full ${r.full_s.toFixed(2)} s, incremental ${r.incremental_s.toFixed(2)} s = ${(r.incremental_s / r.full_s).toFixed(3)} of full`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
