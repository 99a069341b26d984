import { rename } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { Column, Dataset } from '../domain/bulk/datasets.ts';

/**
 * A batch of part files written by one statement holds at most this many rows and files, and a part
 * larger than that is written alone. DuckDB's partitioned writer keeps each part's rows in one
 * buffer until the statement ends (it flushes a thread's buffers early only past
 * `partitioned_write_flush_threshold`, 524,288 rows, or `partitioned_write_max_open_files`, 100
 * files), so below both every part is written in one go, byte for byte what a COPY of that part
 * alone writes (tested); a part past a row group (122,880 rows) goes alone so its row groups are
 * always cut the same way.
 */
export const BATCH_ROWS = 100_000;
export const BATCH_FILES = 64;
/**
 * While rows still stream, a batch stops at about this many rows (whole parts): the one connection
 * is behind PostgreSQL then, and a batch taking everything queued (~90k financials rows, ~250 ms)
 * could still be running long after the last row came in, alone, the tail connection idle. Smaller
 * batches leave that work queued, for both connections to share. A statement costs ~2 ms.
 */
export const STREAMING_BATCH_ROWS = 25_000;
/** A batch is not split below about this many rows between connections (whole parts). */
export const MIN_SHARE_ROWS = 10_000;

interface Job {
  dataset: Dataset;
  csv: string;
  out: string;
  rows: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Parquet through DuckDB. Each part file's rows arrive as their own CSV (export/csv-plan.ts splits
 * and hashes PostgreSQL's stream, export/dataset-queries.ts), and DuckDB turns CSVs into Parquet
 * with `COPY (SELECT <casts> FROM read_csv(...)) TO ... (FORMAT parquet, COMPRESSION zstd)`: every
 * value is read as text, and the casts are where types happen: DECIMAL(38,12) exact from the
 * decimal string, TIMESTAMPTZ (Parquet TIMESTAMP, isAdjustedToUTC), DATE, lists. A part is queued
 * the moment its rows are complete, while PostgreSQL streams the next ones.
 *
 * Parts queued together are written together: one statement reads the CSVs of the parts of one
 * dataset waiting when a connection comes free (its share of their rows: what is queued is split
 * over the connections, those still writing included) and writes one file per part with
 * PARTITION_BY on the part's place in the list, then each file is renamed to its part's path. A statement costs
 * about 2 ms whatever it writes (binding read_csv and the casts, starting the writer) and a build
 * writes ~90 small files, so batching the parts that a megabyte of streamed rows completes at once
 * saves most of that; the bytes of each file are the same either way.
 *
 * One DuckDB thread per connection, and one connection while rows still stream: part files are
 * small, so handing a COPY between threads costs more than it saves, and while PostgreSQL's two
 * streams and the planner keep the cores busy a second connection mostly splits batches in two
 * (each statement paying its fixed cost) without finishing sooner: a build took ~20% less CPU with
 * one than with two. Once the streams are done (`streamsDone`), PostgreSQL's cores are free while
 * the parts queued behind the one connection are still to be written (on the corpus, half of
 * DuckDB's work was still queued when the last row arrived): the writer's tail connections, opened
 * with the others and idle until then, take a share of that queue each. A file's rows are read and
 * written by one thread, in order, whichever connection writes it.
 *
 * Why DuckDB and not parquetjs-lite (the design card's first pick): parquetjs-lite writes neither
 * zstd nor decimal(38,12). hyparquet-writer can with a zstd compressor, but every cell would pass
 * through JS; here no cell does (docs/bulk-export.md).
 */
interface Lane {
  conn: DuckDBConnection;
  /** statements this connection has run */
  statements: number;
  /** where this connection's batches go: <dir>/k=<i>/data_0.parquet, each renamed away at once */
  dir: string;
}

export class ParquetWriter {
  private readonly idle: Lane[];
  /** tail connections, idle until `streamsDone` */
  private readonly held: Lane[];
  private readonly busy = new Set<Lane>();
  private readonly queue: Job[] = [];
  private scheduled = false;
  /** until streamsDone: batches stop at STREAMING_BATCH_ROWS */
  private streaming = true;

  /** every connection, in the order they were opened */
  private readonly lanes: readonly Lane[];

  private constructor(
    private readonly instance: DuckDBInstance,
    lanes: Lane[],
    connections: number,
    private readonly batchRows: number,
  ) {
    this.lanes = lanes;
    this.idle = lanes.slice(0, connections);
    this.held = lanes.slice(connections);
  }

  /**
   * An in-memory database that spills to `tempDir` if a batch's rows outgrow memory: nothing needs
   * to reach a database file. Batches are written into new directories under `scratchDir` (the
   * build's staging directory, on the file system of the part files' paths). `batchRows` below
   * BATCH_ROWS writes more parts alone (tests compare both ways). `connections` write from the
   * start, `tailConnections` (at least as many) once `streamsDone` says no more rows are coming.
   */
  static async open(
    tempDir: string,
    scratchDir: string,
    options: { connections?: number; tailConnections?: number; batchRows?: number } = {},
  ): Promise<ParquetWriter> {
    const { connections = 1, batchRows = BATCH_ROWS } = options;
    const tail = Math.max(connections, options.tailConnections ?? connections);
    // loaded here, by the build that writes a file, not by every build
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const instance = await DuckDBInstance.create(':memory:', { temp_directory: tempDir, threads: '1' });
    const lanes: Lane[] = [];
    for (let i = 0; i < tail; i++) {
      const conn = await instance.connect();
      await conn.run(`SET TimeZone = 'UTC'`);
      lanes.push({ conn, statements: 0, dir: path.join(scratchDir, `batches-${i}`) });
    }
    return new ParquetWriter(instance, lanes, connections, batchRows);
  }

  /**
   * No more parts are coming from PostgreSQL: the tail connections join in on what is queued. A
   * write queued after this is still written; only the number of connections changes.
   */
  streamsDone(): void {
    if (this.held.length === 0) return;
    this.streaming = false;
    this.idle.push(...this.held.splice(0));
    this.schedule();
  }

  /**
   * Writes one part file of `dataset` (`rows` rows) from its CSV (`part`, then the dataset's
   * columns, no header, NULL as an unquoted empty field) as Parquet at `outPath`. Parts are queued
   * and written in batches as connections come free; the promise settles once this part's file
   * is at `outPath` (or its batch failed). The CSV must stay as it is until then.
   */
  write(dataset: Dataset, csvPath: string, outPath: string, rows: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ dataset, csv: csvPath, out: outPath, rows, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Dispatches on the next turn of the event loop, so that the parts one streamed batch of rows
   * completes (they are queued synchronously, one after another) go out together.
   */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    // a connection still writing will come free for its share too: what is queued is split over
    // the idle ones and those, so one connection does not take all of it while the other is busy
    const writing = this.busy.size;
    while (this.idle.length > 0 && this.queue.length > 0) {
      const batch = this.take(this.idle.length + writing);
      const lane = this.idle.pop()!;
      this.busy.add(lane);
      void this.run(lane, batch).finally(() => {
        this.busy.delete(lane);
        this.idle.push(lane);
        if (this.queue.length > 0) this.schedule();
      });
    }
  }

  /**
   * The next batch: the oldest waiting part, and with it later parts of the same dataset (their
   * share of the rows when `lanes` connections are to write them, at least MIN_SHARE_ROWS; at most
   * STREAMING_BATCH_ROWS while rows stream and tail connections wait), within BATCH_ROWS and
   * BATCH_FILES. A part past BATCH_ROWS goes alone.
   */
  private take(lanes: number): Job[] {
    const head = this.queue[0]!;
    if (head.rows > this.batchRows) return this.queue.splice(0, 1);
    const same = this.queue.filter((j) => j.dataset === head.dataset && j.rows <= this.batchRows);
    const queued = same.reduce((n, j) => n + j.rows, 0);
    let share = Math.max(Math.ceil(queued / lanes), MIN_SHARE_ROWS);
    if (this.streaming && this.held.length > 0) share = Math.min(share, STREAMING_BATCH_ROWS);
    const batch: Job[] = [];
    let rows = 0;
    for (const j of same) {
      if (batch.length > 0 && (batch.length === BATCH_FILES || rows >= share || rows + j.rows > this.batchRows)) break;
      batch.push(j);
      rows += j.rows;
    }
    for (const j of batch) this.queue.splice(this.queue.indexOf(j), 1);
    return batch;
  }

  private async run(lane: Lane, batch: Job[]): Promise<void> {
    const { conn, dir } = lane;
    lane.statements++;
    try {
      const { dataset } = batch[0]!;
      const casts = dataset.columns.map((c) => `${castOf(c)} AS "${c.name}"`).join(', ');
      if (batch.length === 1) {
        const job = batch[0]!;
        await conn.run(`COPY (SELECT ${casts} FROM ${readCsv(dataset, [job.csv])}) TO '${sqlString(job.out)}' (FORMAT parquet, COMPRESSION zstd)`);
      } else {
        // one file per CSV, its place in the list the partition (DuckDB's file_index, the position
        // in the list as given; no path is compared per row): <dir>/k=<i>/data_0.parquet. The
        // lane's directories are used again by its next batches (each file is renamed away at
        // once), since creating directories costs the file system more than the writes.
        await conn.run(`
          COPY (SELECT ${casts}, file_index AS k FROM ${readCsv(dataset, batch.map((j) => j.csv))})
          TO '${sqlString(dir)}' (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (k), FILENAME_PATTERN 'data_{i}', OVERWRITE_OR_IGNORE)`);
        // a part whose file is missing (its rows went elsewhere) fails here, never silently
        await Promise.all(batch.map((j, i) => rename(path.join(dir, `k=${i}`, 'data_0.parquet'), j.out)));
      }
      for (const j of batch) j.resolve();
    } catch (err) {
      for (const j of batch) j.reject(err);
    }
  }

  /** Statements run so far by each connection, in the order they were opened. */
  statementsPerConnection(): number[] {
    return this.lanes.map((l) => l.statements);
  }

  /** Closes the database; every write must have settled. */
  close(): void {
    for (const { conn } of this.lanes) conn.closeSync();
    this.instance.closeSync();
  }
}

function readCsv(dataset: Dataset, csvs: string[]): string {
  const cols = [`'part': 'VARCHAR'`, ...dataset.columns.map((c) => `'${c.name}': 'VARCHAR'`)];
  const files = csvs.length === 1 ? `'${sqlString(csvs[0]!)}'` : `[${csvs.map((c) => `'${sqlString(c)}'`).join(', ')}]`;
  return `read_csv(${files}, auto_detect = false, header = false, delim = ',', quote = '"', escape = '"',
    allow_quoted_nulls = false, columns = {${cols.join(', ')}})`;
}

function castOf(c: Column): string {
  const n = `"${c.name}"`;
  if (c.type === 'VARCHAR') return n;
  if (c.type === 'VARCHAR[]') return `CASE WHEN ${n} IS NULL THEN NULL WHEN ${n} = '' THEN []::VARCHAR[] ELSE string_split(${n}, ',') END`;
  if (c.type === 'DECIMAL(38,12)') return exactDecimal(n);
  return `CAST(${n} AS ${c.type})`;
}

/**
 * Text to DECIMAL(38,12), equal to `CAST(x AS DECIMAL(38,12))` but some hundred times faster: DuckDB
 * parses text into a 38-digit decimal slowly (about 19 us a value here, most of a build), while
 * the integer part as HUGEINT and the fraction as DECIMAL(18,12) parse fast and add exactly. The
 * fraction rounds at the twelfth digit the way the direct cast does (tested on every value of the
 * corpus and on edge cases). Most values are whole numbers (96% of the corpus's figures): those skip
 * the splitting and take one HUGEINT parse, exact as it is (a third of the time of the split path).
 * PostgreSQL writes NUMERIC without exponents, so the text is always [-]digits[.digits].
 */
export function exactDecimal(n: string): string {
  const whole = `CAST(CAST(split_part(ltrim(${n}, '-'), '.', 1) AS HUGEINT) AS DECIMAL(38,12))`;
  const fraction = `CAST('0.' || coalesce(nullif(split_part(${n}, '.', 2), ''), '0') AS DECIMAL(18,12))`;
  const split = `CAST((CASE WHEN starts_with(${n}, '-') THEN -1 ELSE 1 END) * (${whole} + ${fraction}) AS DECIMAL(38,12))`;
  return `CASE WHEN contains(${n}, '.') THEN ${split} ELSE CAST(CAST(${n} AS HUGEINT) AS DECIMAL(38,12)) END`;
}

function sqlString(s: string): string {
  return s.replace(/'/g, "''");
}
