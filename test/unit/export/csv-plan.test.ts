import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { CsvPartPlanner, type PartSink, type PlannedFile } from '../../../export/csv-plan.ts';

/** Feeds `text` to a planner in chunks of `size` bytes (1 cuts inside every record, quote and character). */
function plan(text: string, rowsPerFile: number, size: number, sink: PartSink | null = null): PlannedFile[] {
  const p = new CsvPartPlanner(rowsPerFile, sink);
  const buf = Buffer.from(text, 'utf8');
  for (let i = 0; i < buf.length; i += size) p.push(buf.subarray(i, i + size));
  return p.end();
}

/** A sink that keeps what it is given, as the calls it saw. */
function recordingSink() {
  const calls: string[] = [];
  const parts: { name: string; text: string; closed: PlannedFile | null }[] = [];
  const sink: PartSink = {
    open: (partition, part) => {
      assert.ok(parts.every((p) => p.closed), 'the previous part is closed before the next opens');
      calls.push(`open ${partition}/${part}`);
      parts.push({ name: `${partition}/${part}`, text: '', closed: null });
    },
    write: (records) => {
      parts.at(-1)!.text += records.toString('utf8');
    },
    close: (file) => {
      calls.push(`close ${file.partition}/${file.part}`);
      parts.at(-1)!.closed = file;
    },
  };
  return { sink, calls, parts };
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

// part, then the columns; a quoted value may hold commas, doubled quotes and newlines
const RECORDS = ['2021,a,"x, ""y""\nz",é\n', '2021,b,,\n', '2021,c,"",1\n', '2022,d,"multi\n\nline",2\n', ',e,f,g\n'];
const CSV = RECORDS.join('');

describe('export CSV planner (part files and their hashes while the rows stream)', () => {
  const expected = [
    { partition: '2021', part: 0, rows: 2, input_hash: sha(RECORDS[0]! + RECORDS[1]!) },
    { partition: '2021', part: 1, rows: 1, input_hash: sha(RECORDS[2]!) },
    { partition: '2022', part: 0, rows: 1, input_hash: sha(RECORDS[3]!) },
    { partition: '', part: 0, rows: 1, input_hash: sha(RECORDS[4]!) },
  ];

  test('splits by partition and rows per file, whatever the chunk size', () => {
    for (const size of [1, 2, 3, 7, 64, 1 << 16]) assert.deepEqual(plan(CSV, 2, size), expected, `chunks of ${size}`);
  });

  test("hands the sink each part's records exactly as they streamed, one part at a time, closed with its row count and hash", () => {
    for (const size of [1, 2, 3, 7, 64, 1 << 16]) {
      const { sink, calls, parts } = recordingSink();
      plan(CSV, 2, size, sink);
      assert.deepEqual(calls, ['open 2021/0', 'close 2021/0', 'open 2021/1', 'close 2021/1', 'open 2022/0', 'close 2022/0', 'open /0', 'close /0'], `chunks of ${size}`);
      assert.deepEqual(
        parts.map((p) => [p.name, p.text, p.closed]),
        [
          ['2021/0', RECORDS[0]! + RECORDS[1]!, expected[0]],
          ['2021/1', RECORDS[2], expected[1]],
          ['2022/0', RECORDS[3], expected[2]],
          ['/0', RECORDS[4], expected[3]],
        ],
        `chunks of ${size}`,
      );
    }
  });

  test('hashes the records as they streamed: the same rows give the same hash, a changed value or NULL-vs-empty does not', () => {
    const a = plan('2021,a,b\n2021,c,d\n', 10, 64)[0]!;
    assert.equal(plan('2021,a,b\n2021,c,d\n', 10, 1)[0]!.input_hash, a.input_hash);
    assert.notEqual(plan('2021,a,b\n2021,c,e\n', 10, 64)[0]!.input_hash, a.input_hash);
    assert.notEqual(plan('2021,a,\n', 10, 1)[0]!.input_hash, plan('2021,a,""\n', 10, 1)[0]!.input_hash);
  });

  test('reads the unpartitioned dataset\'s "" partition, and a NULL one, as the empty partition', () => {
    assert.deepEqual(plan('"",x\n"",y\n', 10, 3).map((f) => [f.partition, f.rows]), [['', 2]]);
    assert.deepEqual(plan('"",x\n,y\n"",z\n', 2, 1).map((f) => [f.partition, f.part, f.rows]), [['', 0, 2], ['', 1, 1]]);
  });

  test('refuses rows of a partition that come back after another, and a stream cut inside a record', () => {
    assert.throws(() => plan('2021,a\n2022,b\n2021,c\n', 10, 64), /not contiguous/);
    assert.throws(() => plan('2021,"open\n', 10, 64), /ends inside a record/);
    assert.throws(() => new CsvPartPlanner(0), /positive integer/);
  });
});
