import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { createApiKey } from './db/keys.ts';
import { migrate } from './db/migrate.ts';
import { USAGE } from './cli-usage.ts';
import { isPlan, PLANS } from './domain/plans.ts';
import type { Archives } from './ingest/archives.ts';
// The HTTP service, the job queue, the bulk export, macro loading, ingestion and the corpus
// generator are imported by the command that runs them, not here: `fds ingest` would otherwise
// carry the whole service's module graph (~100 MB of resident memory, ingest's peak RSS over
// 512 MiB) for nothing, and every other command (an export build, a key) would start by loading
// the ingestion's.

/** The modules of ingestion, for the commands that ingest or load identity. */
async function ingestModules() {
  const [identity, bar, run, v8, access, archiveSource, archives, source] = await Promise.all([
    import('./ingest/load-identity.ts'),
    import('./ingest/progress-bar.ts'),
    import('./ingest/run-ingestion.ts'),
    import('./ingest/v8-tuning.ts'),
    import('./ingest/sec-access.ts'),
    import('./ingest/archive-source.ts'),
    import('./ingest/archives.ts'),
    import('./ingest/source.ts'),
  ]);
  return { ...identity, ...bar, ...run, ...v8, ...access, ...archiveSource, ...archives, ...source };
}


const log = (m: string) => console.error(m);

/** The checkout this file is in. */
const REPO_ROOT = path.dirname(fileURLToPath(import.meta.url));

async function main(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  const config = loadConfig();
  switch (command) {
    case 'serve':
    case undefined: {
      // V8's allocation-site pretenuring comes to place short-lived request objects (parsed inputs,
      // header maps) straight in the old generation under a steady read load, which then fills and
      // needs a full mark-compact every few seconds, with marking steps of several milliseconds
      // landing on requests. Serving needs none of it (its long-lived data are caches, promoted the
      // ordinary way), so the serving process turns it off before it handles anything.
      setFlagsFromString('--no-allocation-site-pretenuring');
      const [{ startService }, { isDatabaseUnavailable }] = await Promise.all([import('./service.ts'), import('./domain/service-error.ts')]);
      // A connection the database closed can surface as a rejection no request is waiting for
      // (a query the client library had queued on it); the database going away is a fault the
      // service answers 503 for and recovers from, not a reason to exit. Anything else still is.
      process.on('unhandledRejection', (reason) => {
        if (isDatabaseUnavailable(reason)) {
          console.error(`database connection lost: ${(reason as Error).message}`);
          return;
        }
        console.error(reason);
        process.exit(1);
      });
      const svc = await startService(config, { log: (m) => console.log(m) });
      const stop = async (signal: string) => {
        console.log(`${signal}: draining (readiness 503, in-flight requests finish within ${config.shutdownTimeoutMs / 1000} s), then closing the database`);
        const { forced } = await svc.close();
        console.log(forced ? 'stopped; some requests were cut at the shutdown timeout' : 'stopped');
        process.exit(0);
      };
      process.once('SIGINT', () => void stop('SIGINT'));
      process.once('SIGTERM', () => void stop('SIGTERM'));
      return new Promise(() => {}); // serve until signalled
    }
    case 'mcp': {
      // the assistant starts us from wherever it likes: relative settings (DATA_DIR, SEC_SOURCE,
      // MACRO_SOURCE) mean what they mean for `npm start` in this checkout
      process.chdir(REPO_ROOT);
      // stdout is the protocol's before anything else loads (a module could print as it loads)
      const output = (await import('./api/stdio.ts')).claimStdout();
      const { startStdioService, StartRefused } = await import('./stdio-service.ts');
      try {
        const svc = await startStdioService(loadConfig(), { apiKey: process.env.FDS_API_KEY, input: process.stdin, output, log });
        process.once('SIGINT', () => svc.stop());
        process.once('SIGTERM', () => svc.stop());
        await svc.done;
        return 0;
      } catch (err) {
        if (err instanceof StartRefused) {
          log(err.message);
          return err.exitCode;
        }
        throw err;
      }
    }
    case 'worker': {
      const [{ installQueue, startJobWorker }, { openBlobStore }, { feedJobOptions, feedWatchEnabled }, { useFleetBudget }] = await Promise.all([
        import('./jobs/runner.ts'),
        import('./export/stores.ts'),
        import('./jobs/feed-watch.ts'),
        import('./ingest/sec-access.ts'),
      ]);
      const db = await openDatabase(config, log);
      await migrate(db.sql);
      await installQueue(db.url, log);
      useFleetBudget(db.sql, config.secOrigins);
      const store = await openBlobStore(config, () => config.publicBaseUrl ?? `http://127.0.0.1:${config.port}`);
      const worker = await startJobWorker({
        databaseUrl: db.url,
        sql: db.sql,
        bulkStore: store,
        bulkDir: config.bulkDir,
        concurrency: config.jobConcurrency,
        buildStaleSeconds: config.buildStaleSeconds,
        exportSchedule: config.exportSchedule,
        now: () => new Date(),
        log: (m) => console.log(m),
        feed: feedWatchEnabled(config) ? feedJobOptions(config, () => new Date(), (m) => console.log(m), (m) => console.error(m), db.sql) : null,
      });
      console.log(`job worker running (concurrency ${config.jobConcurrency})`);
      const stop = async () => {
        await worker.stop();
        await db.close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return new Promise(() => {}); // work until signalled
    }
    case 'migrate': {
      const db = await openDatabase(config, log);
      try {
        const { applied, total } = await migrate(db.sql);
        console.log(applied.length ? `applied ${applied.join(', ')}` : `up to date (${total} migrations)`);
      } finally {
        await db.close();
      }
      return 0;
    }
    case 'backup':
    case 'restore': {
      if (!sub) {
        console.error(`${command} needs a file: npm run fds -- ${command} <file>`);
        return 2;
      }
      const { backupTo, nonEmptyBackupTables, restoreFrom } = await import('./db/backup.ts');
      const file = path.resolve(sub);
      const db = await openDatabase(config, log);
      try {
        if (command === 'backup') {
          await backupTo(db.url, file);
          console.log(`backed up to ${file}`);
          return 0;
        }
        await migrate(db.sql);
        const holding = await nonEmptyBackupTables(db.sql);
        if (holding.length > 0) {
          console.error(`restore goes into a database without keys or records of its own; this one has rows in ${holding.join(', ')}`);
          return 3;
        }
        await restoreFrom(db.url, file);
        console.log(`restored ${file}; run \`npm run fds -- ingest\` (or start the service on it) to rebuild the statements`);
        return 0;
      } finally {
        await db.close();
      }
    }
    case 'keys': {
      if (sub !== 'create') break;
      const { values } = parseArgs({ args: rest, options: { plan: { type: 'string' }, org: { type: 'string' }, label: { type: 'string' } } });
      if (!values.plan || !isPlan(values.plan)) {
        console.error(`--plan must be one of ${PLANS.join(', ')}`);
        return 2;
      }
      if (!values.org?.trim()) {
        console.error('--org <name> is required');
        return 2;
      }
      const db = await openDatabase(config, log);
      try {
        await migrate(db.sql);
        const k = await createApiKey(db.sql, values.org.trim(), values.plan, values.label ?? null);
        console.log(`created ${k.plan} key ${k.key_prefix}… for org "${k.org_name}" (key id ${k.key_id}); it is shown once and stored hashed:`);
        console.log(k.key);
      } finally {
        await db.close();
      }
      return 0;
    }
    case 'identity': {
      if (sub !== 'load') break;
      const { values } = parseArgs({ args: rest, options: { source: { type: 'string' } } });
      const [{ loadIdentity }, { useFleetBudget }] = await Promise.all([import('./ingest/load-identity.ts'), import('./ingest/sec-access.ts')]);
      const db = await openDatabase(config, log);
      try {
        await migrate(db.sql);
        useFleetBudget(db.sql, config.secOrigins);
        const s = await loadIdentity(db.sql, { ...config, secSource: values.source ?? config.secSource }, { log, onProgress: (p) => log(p) });
        console.table([s]);
      } finally {
        await db.close();
      }
      return 0;
    }
    case 'macro': {
      if (sub !== 'load') break;
      const { values } = parseArgs({ args: rest, options: { source: { type: 'string' } } });
      const db = await openDatabase(config, log);
      try {
        await migrate(db.sql);
        const { loadMacro } = await import('./ingest/macro/load-macro.ts');
        const s = await loadMacro(db.sql, values.source ?? config.macroSource, { log });
        console.table(s.series);
        console.log(`macro load from ${s.source}: ${s.rows_added} observation rows added`);
      } finally {
        await db.close();
      }
      return 0;
    }
    case 'ingest': {
      const { values } = parseArgs({
        args: argv.slice(1),
        options: {
          cik: { type: 'string', multiple: true },
          ticker: { type: 'string', multiple: true },
          source: { type: 'string' },
          workers: { type: 'string', default: String(config.ingestWorkers) },
          archives: { type: 'string' },
          queue: { type: 'boolean', default: false },
          batch: { type: 'string' },
        },
      });
      const bad = (values.cik ?? []).find((c) => !/^\d{1,10}$/.test(c));
      if (bad) {
        console.error(`--cik takes 1 to 10 digits, got ${JSON.stringify(bad)}`);
        return 2;
      }
      if (!/^[1-9]\d{0,2}$/.test(values.workers)) {
        console.error(`--workers takes a positive number of processes, got ${JSON.stringify(values.workers)}`);
        return 2;
      }
      if (values.queue) return enqueueArchives(config, values.archives, values.batch, values.source);
      const { tuneV8ForIngestion, useFleetBudget, openArchives, identityIsEmpty, withArchives, openSecSource, loadIdentity, progressPrinter, runIngestion, summaryRows, summaryLine, IngestRequestError, ArchiveError } =
        await ingestModules();
      tuneV8ForIngestion();
      const db = await openDatabase(config, log);
      let archives: Archives | null = null;
      try {
        await migrate(db.sql);
        useFleetBudget(db.sql, config.secOrigins);
        const withSource = { ...config, secSource: values.source ?? config.secSource };
        if (values.archives) archives = await openArchives(values.archives, { userAgent: config.secUserAgent, maxMemberBytes: config.archiveMemberMaxBytes, log });
        if (await identityIsEmpty(db.sql)) {
          log('identity is empty: loading tickers and submissions first');
          const source = archives ? withArchives(openSecSource(withSource.secSource, { userAgent: config.secUserAgent }), archives) : undefined;
          await loadIdentity(db.sql, withSource, { log, ...(source ? { source } : {}) });
        }
        const bar = progressPrinter(process.stderr);
        const summary = await runIngestion(db.sql, withSource, {
          ciks: values.cik ?? [],
          tickers: values.ticker ?? [],
          workers: Number(values.workers),
          databaseUrl: db.url,
          ...(archives ? { archives } : {}),
          onProgress: (p) => bar.update(p),
        }).finally(() => bar.done());
        console.table(summaryRows(summary.companies));
        for (const e of summary.errors) console.error(`failed ${e.cik}: ${e.message}`);
        for (const c of summary.companies) for (const f of c.skipped_folders) console.error(`skipped ${f.folder}: ${f.reason}`);
        console.log(summaryLine(summary));
        if (archives && /^https:\/\//i.test(withSource.secSource) && config.packageWindowQuarters > 0) {
          const [{ installQueue }, { enqueuePackagesAfterLoad }] = await Promise.all([import('./jobs/runner.ts'), import('./ingest/bootstrap.ts')]);
          await installQueue(db.url, log);
          await enqueuePackagesAfterLoad(db.sql, withSource, log);
        }
        return summary.status === 'succeeded' ? 0 : 1;
      } catch (err) {
        if (err instanceof IngestRequestError || err instanceof ArchiveError) {
          console.error(err.message);
          return 2;
        }
        throw err;
      } finally {
        await archives?.close();
        await db.close();
      }
    }
    case 'export': {
      if (sub !== 'build') break;
      const { values } = parseArgs({ args: rest, options: { full: { type: 'boolean', default: false } } });
      const [{ BuildBusyError, buildSnapshot }, { openBlobStore }] = await Promise.all([import('./export/build.ts'), import('./export/stores.ts')]);
      const db = await openDatabase(config, log);
      try {
        await migrate(db.sql);
        const store = await openBlobStore(config, () => config.publicBaseUrl ?? `http://127.0.0.1:${config.port}`);
        log(`building a bulk snapshot into the ${store.kind} store${values.full ? ' (full rebuild)' : ''}`);
        const r = await buildSnapshot(
          { sql: db.sql, store, stagingDir: path.join(config.bulkDir, 'staging'), now: () => new Date() },
          { full: values.full, onProgress: (p) => log(`  [${p.datasets_done + 1}/6] ${p.dataset}: ${p.rows} rows, ${p.files} files (${p.carried_forward} carried forward so far)`) },
        );
        const m = r.manifest;
        console.table(m.datasets);
        console.log(`published ${m.snapshot_id} (${m.build_kind}): ${m.rows} rows, ${m.bytes} bytes in ${m.files.length} files, ${r.carried_forward} carried forward, in ${(r.ms / 1000).toFixed(1)} s`);
        if (r.expired.length) console.log(`expired: ${r.expired.join(', ')}`);
        return 0;
      } catch (err) {
        if (err instanceof BuildBusyError) {
          console.error(err.message);
          return 3;
        }
        throw err;
      } finally {
        await db.close();
      }
    }
    case 'corpus': {
      if (sub !== 'synth') break;
      const { values } = parseArgs({ args: rest, options: { factor: { type: 'string' }, out: { type: 'string' }, source: { type: 'string' } } });
      if (!values.factor || !values.out) break;
      const { synthesizeCorpus } = await import('./bench/lib/synth-corpus.ts');
      const r = await synthesizeCorpus({ source: path.resolve(values.source ?? config.secSource), out: path.resolve(values.out), factor: Number(values.factor), log });
      const { writeArchives } = await import('./bench/lib/archive-zips.ts');
      const zips = await writeArchives(r.out, r.out);
      console.log(`wrote ${r.companies_total} companies (${r.companies} x ${r.factor}), ${(r.companyfacts_bytes_total / 1e6).toFixed(1)} MB of company facts, to ${r.out}`);
      console.log(`and as bulk archives: ${zips.companyfacts.file} (${zips.companyfacts.members} members), ${zips.submissions.file} (${zips.submissions.members} members); ingest them with ingest --archives ${r.out}`);
      return 0;
    }
    case 'screens': {
      if (sub !== 'rebuild') break;
      const { values } = parseArgs({ args: rest, options: { all: { type: 'boolean' } } });
      const db = await openDatabase(config, log);
      try {
        const { companiesForScreenRows, rebuildScreenRows } = await import('./db/screen-rows.ts');
        const ciks = await companiesForScreenRows(db.sql, values.all === true);
        let rows = 0;
        for (const cik of ciks) rows += await rebuildScreenRows(db.sql, cik);
        console.log(`wrote ${rows} screen rows for ${ciks.length} companies`);
      } finally {
        await db.close();
      }
      return 0;
    }
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return 0;
  }
  console.error(USAGE);
  return 2;
}

/** `ingest --archives ... --queue`: the run's batches go on the job queue; workers anywhere on the database take them. */
async function enqueueArchives(config: ReturnType<typeof loadConfig>, location: string | undefined, batch: string | undefined, source: string | undefined): Promise<number> {
  if (!location) {
    console.error('--queue needs --archives DIR|URL (a directory every worker reaches, or https://www.sec.gov)');
    return 2;
  }
  if (batch !== undefined && !/^[1-9]\d{0,4}$/.test(batch)) {
    console.error(`--batch takes a positive number of companies, got ${JSON.stringify(batch)}`);
    return 2;
  }
  const [{ installQueue }, { enqueueArchiveRun }, { ArchiveError }] = await Promise.all([import('./jobs/runner.ts'), import('./ingest/archive-queue.ts'), import('./ingest/archives.ts')]);
  const db = await openDatabase(config, log);
  try {
    await migrate(db.sql);
    await installQueue(db.url, log);
    const where = /^https:/i.test(location) ? location : path.resolve(location);
    const r = await enqueueArchiveRun(db.sql, { ...config, secSource: source ?? config.secSource }, { archives: where, ...(batch ? { batchSize: Number(batch) } : {}) });
    console.log(`run ${r.run_id}: ${r.companies} companies in ${r.batches} jobs on the queue; job workers on this database take them (progress: /v1/system/ingestion/status)`);
    return 0;
  } catch (err) {
    if (err instanceof ArchiveError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
