import { createHash, type Hash } from 'node:crypto';

/** One part file of a dataset, as planned while its rows stream out of PostgreSQL. */
export interface PlannedFile {
  partition: string;
  part: number;
  rows: number;
  /** sha256 over the file's records in order, as PostgreSQL sent them: equal means the same rows */
  input_hash: string;
}

/**
 * Where a part's records go while they stream: `open` when its first record arrives, `write` with
 * runs of whole records (`part,<columns>` each, exactly as PostgreSQL sent them), `close` once the
 * part is complete, with its row count and hash. A part is closed before the next one opens.
 */
export interface PartSink {
  open(partition: string, part: number): void;
  write(records: Buffer): void;
  close(file: PlannedFile): void;
}

const NL = 0x0a;
const QUOTE = 0x22;
const COMMA = 0x2c;

/**
 * Splits PostgreSQL's CSV (export/dataset-queries.ts: `part, <columns>` per record, in file order,
 * each partition's rows together) into part files of `rowsPerFile` rows per partition while it
 * streams, and hashes each file's records on the way, in runs as large as the chunks: the rows never
 * make a second pass. Each part's records go to the sink as they arrive, so a part can be written as
 * Parquet while the next ones still stream. A record ends at a newline outside quotes (PostgreSQL
 * quotes any value holding a newline, a quote or a comma, and doubles inner quotes, so counting
 * quotes is enough). Feed it large chunks: the work per record is finding its end and checking
 * that it starts with the current partition.
 */
export class CsvPartPlanner {
  private rest: Buffer | null = null;
  private files: PlannedFile[] = [];
  private current: { partition: string; prefix: Buffer; part: number; rows: number; hash: Hash } | null = null;
  private readonly seen = new Set<string>();
  /** start, in the buffer being scanned, of the current part's records not yet given to the sink */
  private run = 0;

  constructor(
    private readonly rowsPerFile: number,
    private readonly sink: PartSink | null = null,
  ) {
    if (!Number.isInteger(rowsPerFile) || rowsPerFile < 1) throw new Error(`rows per file must be a positive integer, got ${rowsPerFile}`);
  }

  push(chunk: Buffer): void {
    const buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    let start = 0;
    this.run = 0;
    let quote = buf.indexOf(QUOTE, 0);
    for (;;) {
      // find the newline that ends the record starting at `start`
      let from = start;
      let inQuotes = false;
      let end = -1;
      for (;;) {
        const nl = buf.indexOf(NL, from);
        if (nl < 0) break;
        while (quote !== -1 && quote < nl) {
          inQuotes = !inQuotes;
          quote = buf.indexOf(QUOTE, quote + 1);
        }
        if (!inQuotes) {
          end = nl;
          break;
        }
        from = nl + 1;
      }
      if (end < 0) break;
      this.record(buf, start, end);
      start = end + 1;
      if (quote !== -1 && quote < start) quote = buf.indexOf(QUOTE, start);
    }
    this.flush(buf, start);
    this.rest = start < buf.length ? buf.subarray(start) : null;
  }

  /** Hashes the current part's whole records in buf[run, upTo) and gives them to the sink. */
  private flush(buf: Buffer, upTo: number): void {
    if (this.current && upTo > this.run) {
      const records = buf.subarray(this.run, upTo);
      this.current.hash.update(records);
      this.sink?.write(records);
    }
    this.run = upTo;
  }

  private record(buf: Buffer, start: number, end: number): void {
    let c = this.current;
    // the usual case: one more record of the current part, whose partition prefix (`2021,`) it repeats
    if (c !== null && c.rows < this.rowsPerFile && startsWith(buf, start, end, c.prefix)) {
      c.rows++;
      return;
    }
    const c1 = buf.indexOf(COMMA, start);
    if (c1 < 0 || c1 > end) throw new Error('export CSV record without its partition');
    // the partition is an integer year, or '' (written "") for the unpartitioned dataset; NULL is empty
    const partition = buf.toString('latin1', start, c1).replace(/^"(.*)"$/, '$1');
    if (c !== null && c.partition === partition && c.rows < this.rowsPerFile) {
      // the same partition written another way (NULL and "" both read as the empty partition)
      c.rows++;
      return;
    }
    const part = c !== null && c.partition === partition ? c.part + 1 : 0;
    this.flush(buf, start);
    this.finish();
    if (part === 0) {
      if (this.seen.has(partition)) throw new Error(`export rows of partition ${partition} are not contiguous`);
      this.seen.add(partition);
    }
    c = this.current = { partition, prefix: Buffer.from(buf.subarray(start, c1 + 1)), part, rows: 1, hash: createHash('sha256') };
    this.sink?.open(partition, part);
  }

  private finish(): void {
    const c = this.current;
    if (!c) return;
    const file = { partition: c.partition, part: c.part, rows: c.rows, input_hash: c.hash.digest('hex') };
    this.files.push(file);
    this.current = null;
    this.sink?.close(file);
  }

  /** The part files in file order; throws on a truncated last record. */
  end(): PlannedFile[] {
    if (this.rest && this.rest.length > 0) throw new Error('export CSV ends inside a record');
    this.finish();
    return this.files;
  }
}

/** Whether buf[start, end) begins with `prefix`. */
function startsWith(buf: Buffer, start: number, end: number, prefix: Buffer): boolean {
  const n = prefix.length;
  if (end - start < n) return false;
  for (let i = 0; i < n; i++) if (buf[start + i] !== prefix[i]) return false;
  return true;
}
