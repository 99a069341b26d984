import { closeSync, constants, ftruncateSync, openSync, writeSync } from 'node:fs';
import { readdir, truncate } from 'node:fs/promises';
import path from 'node:path';
import type { PartSink, PlannedFile } from './csv-plan.ts';

/**
 * Scratch CSV files in the staging directory's scratch space, each used again once DuckDB has read
 * it, in this build and the next ones: a build writes as many parts as it has files, and creating,
 * truncating and deleting that many files costs the file system far more than overwriting a few in
 * place. A file's length from an earlier build is not known, so its first use in a build cuts it
 * to what was written; at the end of the build every file used is cut to nothing.
 */
export class CsvSlots {
  private readonly free: { csv: string; size: number }[] = [];
  private made = 0;

  constructor(private readonly dir: string) {}

  take(): { csv: string; size: number } {
    return this.free.pop() ?? { csv: path.join(this.dir, `rows-${this.made++}.csv`), size: Number.POSITIVE_INFINITY };
  }

  give(slot: { csv: string; size: number }): void {
    this.free.push(slot);
  }

  /** Cuts every scratch CSV to nothing, also those a killed build left: they keep no rows between builds. */
  async empty(): Promise<void> {
    const names = (await readdir(this.dir)).filter((name) => /^rows-\d+\.csv$/.test(name));
    // side by side on the thread pool: a build ends once they are cut
    await Promise.all(names.map((name) => truncate(path.join(this.dir, name), 0)));
  }
}

/** Each part file's rows into a scratch CSV of its own (export/csv-plan.ts), then handed on. */
export class PartCsvFiles implements PartSink {
  private fd: number | null = null;
  private slot: { csv: string; size: number } | null = null;
  private written = 0;

  constructor(
    private readonly slots: CsvSlots,
    private readonly done: (file: PlannedFile, slot: { csv: string; size: number }) => void,
  ) {}

  open(): void {
    this.slot = this.slots.take();
    // overwritten from the start and cut to length at close: no truncation on open
    this.fd = openSync(this.slot.csv, constants.O_WRONLY | constants.O_CREAT);
    this.written = 0;
  }

  write(records: Buffer): void {
    writeSync(this.fd!, records, 0, records.length, this.written);
    this.written += records.length;
  }

  close(file: PlannedFile): void {
    const slot = this.slot!;
    if (slot.size > this.written) ftruncateSync(this.fd!, this.written);
    slot.size = this.written;
    closeSync(this.fd!);
    this.fd = null;
    this.slot = null;
    this.done(file, slot);
  }

  /** Closes a part left open by a stream that failed midway (the staging directory goes with the build). */
  release(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
