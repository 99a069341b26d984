import { fork, type ChildProcess } from 'node:child_process';
import type { ArchiveFiles } from './archives.ts';
import type { CompanyResult } from './ingest-company.ts';

/**
 * Child processes that ingest whole companies for runIngestion (`workers` > 1). Processes, not
 * threads: each has its own heap and garbage collector, and they compete for the cores with
 * PostgreSQL alone. The parent hands out one company at a time to the worker with the fewest in
 * flight and keeps everything else (run record, counters, progress), so a run's records are the
 * same whatever the number of workers. A worker that dies fails only the companies it had in
 * flight (their transactions roll back) and is replaced while companies remain.
 */

/**
 * What the parent tells a worker (ingest/ingest-worker.ts). Its settings travel in the environment
 * (WORKER_ENV), not in argv, where the database URL would show in every process listing.
 */
export type ParentMessage = { type: 'company'; id: number; cik: string; runId: number } | { type: 'close' };

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'done'; id: number; result: CompanyResult }
  | { type: 'failed'; id: number; message: string }
  | { type: 'closed'; max_rss_kib: number; cpu_ms: number };

export interface WorkerSettings {
  databaseUrl: string;
  source: string;
  userAgent: string | null;
  /** live SEC only: this worker's share of the request rate, so all of them together keep SEC's limit */
  maxRps: number | null;
  /** database connections of each worker */
  connections: number;
  /** company facts and submissions from these bulk archives (local files), as in the parent */
  archives?: ArchiveFiles | null;
  maxMemberBytes?: number | null;
}

export interface WorkerStats {
  pid: number;
  /** peak RSS of the worker process (KiB), reported as it closes; null when it died instead */
  max_rss_kib: number | null;
  /** CPU time (user and system) the worker process used, reported as it closes; null when it died */
  cpu_ms: number | null;
  companies: number;
}

export interface WorkerPool {
  readonly size: number;
  /** process ids of the workers now running */
  processes(): number[];
  /** one company, ingested whole by one worker for run `runId` */
  ingest(cik: string, runId: number): Promise<CompanyResult>;
  /** closes every worker (their pools end) and reports each one's peak memory; again, the same answer */
  close(): Promise<WorkerStats[]>;
}

interface Pending {
  cik: string;
  resolve: (r: CompanyResult) => void;
  reject: (e: Error) => void;
}

interface Worker {
  child: ChildProcess;
  ready: Promise<void>;
  inFlight: Map<number, Pending>;
  alive: boolean;
  companies: number;
  maxRssKib: number | null;
  cpuMs: number | null;
  exited: Promise<void>;
}

const ENTRY = new URL('./ingest-worker.ts', import.meta.url);
export const WORKER_ENV = 'FDS_INGEST_WORKER';

/** Under tsx (the repository runs its .ts sources directly) each worker needs the same loader. */
function loaderArgs(): string[] {
  return import.meta.url.endsWith('.ts') ? ['--import', import.meta.resolve('tsx')] : [];
}

export function startWorkerPool(size: number, settings: WorkerSettings): WorkerPool {
  if (!Number.isInteger(size) || size < 1) throw new Error(`workers must be a positive integer, got ${size}`);
  const workers: Worker[] = [];
  const retired: Worker[] = [];
  // a worker that dies is replaced, but a worker that cannot start must not be restarted forever
  let replacements = size * 2;
  let nextId = 1;
  let closing = false;
  let closed: Promise<WorkerStats[]> | null = null;

  const spawnWorker = (): Worker => {
    const child = fork(ENTRY, [], {
      execArgv: loaderArgs(),
      env: { ...process.env, [WORKER_ENV]: JSON.stringify(settings) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let markReady: () => void = () => {};
    let failStart: (e: Error) => void = () => {};
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      failStart = reject;
    });
    ready.catch(() => {}); // observed through the companies waiting on it
    const w: Worker = { child, ready, inFlight: new Map(), alive: true, companies: 0, maxRssKib: null, cpuMs: null, exited: Promise.resolve() };
    w.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        w.alive = false;
        const why = new Error(`ingestion worker process ${child.pid} exited (${signal ?? `code ${code}`})`);
        failStart(why);
        for (const p of w.inFlight.values()) p.reject(why);
        w.inFlight.clear();
        resolve();
      });
    });
    child.on('error', () => {}); // 'exit' follows and reports it
    child.on('message', (m: WorkerMessage) => {
      if (m.type === 'ready') markReady();
      else if (m.type === 'closed') {
        w.maxRssKib = m.max_rss_kib;
        w.cpuMs = m.cpu_ms;
      }
      else {
        const p = w.inFlight.get(m.id);
        if (!p) return;
        w.inFlight.delete(m.id);
        if (m.type === 'done') p.resolve(m.result);
        else p.reject(new Error(m.message));
      }
    });
    return w;
  };

  for (let i = 0; i < size; i++) workers.push(spawnWorker());

  const pick = (): Worker => {
    for (let i = 0; i < workers.length; i++) {
      if (!workers[i]!.alive && replacements > 0 && !closing) {
        replacements--;
        retired.push(workers[i]!);
        workers[i] = spawnWorker();
      }
    }
    const alive = workers.filter((w) => w.alive);
    if (alive.length === 0) throw new Error('no ingestion worker process left (they kept exiting)');
    return alive.reduce((a, b) => (b.inFlight.size < a.inFlight.size ? b : a));
  };

  return {
    size,
    processes: () => workers.filter((w) => w.alive).map((w) => w.child.pid!),
    async ingest(cik, runId) {
      const w = pick();
      const id = nextId++;
      const done = new Promise<CompanyResult>((resolve, reject) => w.inFlight.set(id, { cik, resolve, reject }));
      await w.ready.catch(() => {});
      if (!w.alive) return done; // rejected by its exit
      w.companies++;
      w.child.send({ type: 'company', id, cik, runId } satisfies ParentMessage);
      return done;
    },
    close() {
      closed ??= closeAll();
      return closed;
    },
  };

  async function closeAll(): Promise<WorkerStats[]> {
    closing = true;
    await Promise.all(
      workers.map(async (w) => {
        await w.ready.catch(() => {});
        if (!w.alive) return;
        w.child.send({ type: 'close' } satisfies ParentMessage, (err) => err && w.child.kill('SIGKILL'));
        const late = setTimeout(() => w.child.kill('SIGKILL'), 30_000);
        await w.exited;
        clearTimeout(late);
      }),
    );
    return [...retired, ...workers].map((w) => ({ pid: w.child.pid ?? 0, max_rss_kib: w.maxRssKib, cpu_ms: w.cpuMs, companies: w.companies }));
  }
}
