import { createHash, type Hash } from 'node:crypto';

/** One part file of a dataset, as planned while its rows stream out of PostgreSQL. */
export interface PlannedFile {
  partition: string;
  part: number;
  rows: number;
  /** sha256 over the file's rows in order (their CSV text, column values only): equal means the same rows */
  input_hash: string;
  /** the file's rows are those with rid from first_rid to last_rid (contiguous in rid order) */
  first_rid: number;
  last_rid: number;
}

const NL = 0x0a;
const QUOTE = 0x22;
const COMMA = 0x2c;

/**
 * Splits PostgreSQL's CSV (export/dataset-queries.ts: `rid, part, <columns>` per record, in rid order,
 * each partition's rows together) into part files of `rowsPerFile` rows per partition while it
 * streams, and hashes each file's rows on the way: the rows never make a second pass, and DuckDB
 * only ever casts and writes (a part is a rid range). A record ends at a newline outside
 * quotes (PostgreSQL quotes any value holding a newline, a quote or a comma, and doubles inner
 * quotes, so counting quotes is enough). Only the column values are hashed, never rid, so a row
 * added in one partition leaves the hashes of the others alone.
 */
export class CsvPartPlanner {
  private rest: Buffer | null = null;
  private files: PlannedFile[] = [];
  private current: { partition: string; part: number; rows: number; first: number; last: number; hash: Hash } | null = null;
  private readonly seen = new Set<string>();

  constructor(private readonly rowsPerFile: number) {
    if (!Number.isInteger(rowsPerFile) || rowsPerFile < 1) throw new Error(`rows per file must be a positive integer, got ${rowsPerFile}`);
  }

  push(chunk: Buffer): void {
    const buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    let start = 0;
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
    this.rest = start < buf.length ? buf.subarray(start) : null;
  }

  private record(buf: Buffer, start: number, end: number): void {
    const c1 = buf.indexOf(COMMA, start);
    const c2 = buf.indexOf(COMMA, c1 + 1);
    if (c1 < 0 || c2 < 0 || c2 > end) throw new Error('export CSV record without rid and part');
    const rid = Number(buf.toString('latin1', start, c1));
    // the partition is an integer year, or '' (written "") for the unpartitioned dataset; NULL is empty
    const partition = buf.toString('latin1', c1 + 1, c2).replace(/^"(.*)"$/, '$1');
    let c = this.current;
    if (c === null || c.partition !== partition || c.rows === this.rowsPerFile) {
      const part = c !== null && c.partition === partition ? c.part + 1 : 0;
      this.finish();
      if (part === 0) {
        if (this.seen.has(partition)) throw new Error(`export rows of partition ${partition} are not contiguous`);
        this.seen.add(partition);
      }
      c = this.current = { partition, part, rows: 0, first: rid, last: rid, hash: createHash('sha256') };
    }
    c.rows++;
    c.last = rid;
    c.hash.update(buf.subarray(c2 + 1, end + 1));
  }

  private finish(): void {
    const c = this.current;
    if (!c) return;
    this.files.push({ partition: c.partition, part: c.part, rows: c.rows, input_hash: c.hash.digest('hex'), first_rid: c.first, last_rid: c.last });
    this.current = null;
  }

  /** The part files in file order; throws on a truncated last record. */
  end(): PlannedFile[] {
    if (this.rest && this.rest.length > 0) throw new Error('export CSV ends inside a record');
    this.finish();
    return this.files;
  }
}
