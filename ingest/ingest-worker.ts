/**
 * Entry point of one ingestion worker process (`runIngestion` with `workers` > 1 forks these
 * through ingest/worker-pool.ts; its settings arrive as JSON in the environment). A worker holds its own
 * database pool and SEC source and ingests whole companies on request, each in its own
 * transaction exactly as in-process ingestion does; the parent keeps the run record, the counters
 * and the progress. When the parent goes away (its IPC channel closes: killed, crashed) the worker
 * exits at once and PostgreSQL rolls back the company transactions it had open, so a crash leaves
 * whole companies behind as it always did.
 */
import { connect } from '../db/client.ts';
import { sameDatabaseOverLocalSocket } from '../db/local-socket.ts';
import { catalogView } from '../domain/normalize/catalog-view.ts';
import { ingestCompany } from './ingest-company.ts';
import { loadConfig } from '../config.ts';
import { useFleetBudget } from './sec-access.ts';
import { withArchives } from './archive-source.ts';
import { openArchiveFiles } from './archives.ts';
import { openSecSource } from './source.ts';
import { tuneV8ForIngestion } from './v8-tuning.ts';
import { WORKER_ENV, type ParentMessage, type WorkerMessage, type WorkerSettings } from './worker-pool.ts';

tuneV8ForIngestion();

if (!process.send) {
  console.error('ingest/ingest-worker.ts runs as a child process of runIngestion (workers > 1), not on its own');
  process.exit(2);
}
const send = (m: WorkerMessage, then?: () => void) => process.send!(m, undefined, {}, then);

const settings = JSON.parse(process.env[WORKER_ENV] ?? '{}') as WorkerSettings;
process.on('disconnect', () => process.exit(1));
const tcp = connect(settings.databaseUrl, { max: settings.connections });
// the server's Unix socket when it is this machine's and the same database (as in-process ingestion)
const local = await sameDatabaseOverLocalSocket(tcp, settings.databaseUrl, { max: settings.connections });
if (local) await tcp.end({ timeout: 5 });
const sql = local ?? tcp;
// this process's requests count against the fleet's one budget, like its parent's
useFleetBudget(sql, loadConfig().secOrigins);
const base = openSecSource(settings.source, { userAgent: settings.userAgent, ...(settings.maxRps ? { maxRps: settings.maxRps } : {}) });
const archives = settings.archives ? await openArchiveFiles(settings.archives, settings.maxMemberBytes ? { maxMemberBytes: settings.maxMemberBytes } : {}) : null;
const source = archives ? withArchives(base, archives) : base;
const strict = { requireFacts: archives !== null, ...(archives && base.kind === 'live' ? { packageAccessions: [] } : {}) };
const catalog = catalogView();

process.on('message', (m: ParentMessage) => {
  if (m.type === 'company') {
    ingestCompany(sql, source, m.cik, m.runId, catalog, () => new Date(), strict).then(
      (result) => send({ type: 'done', id: m.id, result }),
      (err: unknown) => send({ type: 'failed', id: m.id, message: err instanceof Error ? err.message : String(err) }),
    );
  } else if (m.type === 'close') {
    void sql.end({ timeout: 5 }).finally(() => {
      // exit once the last message is out: the parent reads this process's peak memory from it
      const usage = process.resourceUsage();
      send({ type: 'closed', max_rss_kib: usage.maxRSS, cpu_ms: (usage.userCPUTime + usage.systemCPUTime) / 1000 }, () => process.exit(0));
    });
  }
});
send({ type: 'ready' });
