import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The bin an assistant runs (`npx fds mcp`), so the tests start the tool server the way clients do. */
export const FDS_BIN = fileURLToPath(new URL('../../bin/fds.js', import.meta.url));

/** Settings for a stdio tool server in tests: the test database, no job worker or export schedule of its own. */
export function stdioEnv(databaseUrl: string, apiKey: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'FDS_API_KEY') env[k] = v;
  Object.assign(env, { DATABASE_URL: databaseUrl, JOBS: 'off', EXPORT_SCHEDULE: 'off', CHECK_OUTPUTS: '1' }, extra);
  if (apiKey !== undefined) env.FDS_API_KEY = apiKey;
  return env;
}

/**
 * `fds mcp` as a child with raw pipes: every byte of its stdout is kept, so a test can hold the
 * output to "JSON-RPC lines and nothing else".
 */
export interface RawStdio {
  child: ChildProcessWithoutNullStreams;
  /** everything written to stdout so far */
  stdout(): string;
  stderr(): string;
  send(text: string): void;
  /** the parsed stdout line answering `id`, once it arrives */
  answer(id: string | number | null, index?: number): Promise<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnStdio(env: Record<string, string>): RawStdio {
  const child = spawn(process.execPath, [FDS_BIN, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: (() => void)[] = [];
  child.stdout.on('data', (b: Buffer) => {
    out += b.toString('utf8');
    for (const w of waiters.splice(0)) w();
  });
  child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      for (const w of waiters.splice(0)) w();
      resolve({ code, signal });
    }),
  );
  // complete lines only: a chunk may end inside one
  const lines = () =>
    out
      .slice(0, out.lastIndexOf('\n') + 1)
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    send: (text) => child.stdin.write(text),
    exited,
    answer: async (id, index = 0) => {
      for (;;) {
        const found = lines().filter((m) => m.id === id)[index];
        if (found) return found;
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`fds mcp exited before answering ${id}; stderr: ${err}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}
