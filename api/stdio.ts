import { randomBytes } from 'node:crypto';
import { Writable, type Readable } from 'node:stream';
import { MAX_MESSAGE_BYTES, oversizedMessageError, RPC, truncatedMessageError, type JsonRpcDispatcher, type RpcCallMeta, type RpcResponse } from './jsonrpc.ts';
import { jsonBytesOf } from './prepared-json.ts';

/**
 * MCP's stdio transport over the same JSON-RPC router as POST /mcp: one message per line on the
 * input, one answer per line on the output, nothing else ever written there. Messages are answered
 * as they complete (a client matches answers by id), at most MAX_IN_FLIGHT at once; reading pauses
 * beyond that.
 *
 * Bad input gets the answer HTTP gives it, on the output, and the next line is read as usual: a
 * line that is not JSON -32700, a line over 1 MiB -32600 (its bytes are dropped as they arrive,
 * never held), and bytes after the last newline at end of input -32700. Blank lines are skipped.
 */
export const MAX_IN_FLIGHT = 16;

export interface StdioServer {
  /** resolves once the input has ended (or stop() was called) and every answer has been written */
  done: Promise<void>;
  /** stop reading (SIGTERM): messages already read are still answered */
  stop(): void;
}

export interface StdioOptions {
  input: Readable;
  output: Writable;
  /** who is calling: the key of this process, the same for every message */
  apiKey: string;
  /** diagnostics (stderr); never the output */
  log: (message: string) => void;
  onToolCall?: RpcCallMeta['onToolCall'];
  maxMessageBytes?: number;
}

const NEWLINE = 0x0a;

export function serveStdio(rpc: JsonRpcDispatcher, o: StdioOptions): StdioServer {
  const limit = o.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** the current line went over the limit: its remaining bytes are dropped up to the next newline */
  let discarding = false;
  let inFlight = 0;
  let inputDone = false;
  let writing: Promise<void> = Promise.resolve();
  let outputBroken = false;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));

  const settleIfDone = () => {
    if (inputDone && inFlight === 0) void writing.then(finish);
  };

  const write = (body: RpcResponse | RpcResponse[]) => {
    const bytes = Buffer.concat([jsonBytesOf(body), Buffer.from('\n')]);
    writing = writing.then(
      () =>
        new Promise<void>((resolve) => {
          if (outputBroken) return resolve();
          // resolves once handed to the OS, so a burst of answers cannot grow the buffer without bound
          o.output.write(bytes, () => resolve());
        }),
    );
  };

  const dispatch = (text: string) => {
    inFlight++;
    if (inFlight >= MAX_IN_FLIGHT) o.input.pause();
    const meta: RpcCallMeta = { apiKey: o.apiKey, traceId: newId(), requestId: newId(), headers: null, onToolCall: o.onToolCall };
    rpc
      .handle(text, meta)
      .then(
        (reply) => {
          if (reply.body !== null) write(reply.body);
        },
        (err: unknown) => {
          o.log(`stdio: message failed (trace ${meta.traceId}): ${(err as Error)?.stack ?? err}`);
          write({ jsonrpc: '2.0', id: idOf(text), error: { code: RPC.INTERNAL_ERROR, message: `Internal error; quote trace id ${meta.traceId}` } });
        },
      )
      .finally(() => {
        inFlight--;
        if (inFlight < MAX_IN_FLIGHT && !inputDone) o.input.resume();
        settleIfDone();
      });
  };

  /** the bytes of the current line so far; over the limit, the line is answered once and dropped */
  const keep = (part: Buffer) => {
    if (discarding || part.length === 0) return;
    if (pendingBytes + part.length > limit) {
      pending = [];
      pendingBytes = 0;
      discarding = true;
      write(oversizedMessageError('Line'));
      return;
    }
    pending.push(part);
    pendingBytes += part.length;
  };

  const endLine = () => {
    const dropped = discarding;
    const line = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
    pending = [];
    pendingBytes = 0;
    discarding = false;
    if (dropped) return;
    let text = line.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') return;
    dispatch(text);
  };

  const onData = (chunk: Buffer | string) => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (let nl = buf.indexOf(NEWLINE); nl !== -1; nl = buf.indexOf(NEWLINE)) {
      keep(buf.subarray(0, nl));
      endLine();
      buf = buf.subarray(nl + 1);
    }
    keep(buf);
  };

  const endInput = () => {
    if (inputDone) return;
    inputDone = true;
    o.input.off('data', onData);
    o.input.off('end', onEnd);
    o.input.pause();
    settleIfDone();
  };

  const onEnd = () => {
    if (!discarding && pending.some((b) => b.toString('utf8').trim() !== '')) write(truncatedMessageError());
    pending = [];
    endInput();
  };

  o.output.on('error', (err: NodeJS.ErrnoException) => {
    // the client closed its end (EPIPE): nobody is left to answer
    outputBroken = true;
    o.log(`stdio: output closed (${err.code ?? err.message}); stopping`);
    endInput();
  });
  o.input.on('data', onData);
  o.input.on('end', onEnd);
  o.input.on('error', (err) => {
    o.log(`stdio: input failed (${err.message}); stopping`);
    endInput();
  });
  o.input.resume();

  return { done, stop: endInput };
}

/**
 * Keeps stdout for the protocol: returns a writable over the real stdout, and sends everything
 * else that writes to process.stdout (console.log, a library's banner) to stderr from here on.
 */
export function claimStdout(): Writable {
  const stdout = process.stdout;
  const write = stdout.write.bind(stdout);
  const protocol = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      write(chunk, (err) => callback(err ?? null));
    },
  });
  stdout.on('error', (err) => protocol.destroy(err));
  const toStderr: typeof process.stdout.write = (chunk: string | Uint8Array, encodingOrDone?: BufferEncoding | ((err?: Error | null) => void), done?: (err?: Error | null) => void) =>
    typeof encodingOrDone === 'function' ? process.stderr.write(chunk, encodingOrDone) : process.stderr.write(chunk, encodingOrDone, done);
  process.stdout.write = toStderr;
  return protocol;
}

function newId(): string {
  return randomBytes(16).toString('hex');
}

/** The id of a message that failed unexpectedly, when its text says one; null otherwise. */
function idOf(text: string): string | number | null {
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v === 'object' && v !== null && 'id' in v) {
      const id = (v as { id: unknown }).id;
      if (typeof id === 'string' || typeof id === 'number') return id;
    }
  } catch {
    // not JSON: no id to echo
  }
  return null;
}
