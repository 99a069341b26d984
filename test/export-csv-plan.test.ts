import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { CsvPartPlanner, type PlannedFile } from '../export/csv-plan.ts';

/** Feeds `text` to a planner in chunks of `size` bytes (1 cuts inside every record, quote and character). */
function plan(text: string, rowsPerFile: number, size: number): PlannedFile[] {
  const p = new CsvPartPlanner(rowsPerFile);
  const buf = Buffer.from(text, 'utf8');
  for (let i = 0; i < buf.length; i += size) p.push(buf.subarray(i, i + size));
  return p.end();
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

// rid, part, then the columns; a quoted value may hold commas, doubled quotes and newlines
const CSV = [
  '1,2021,a,"x, ""y""\nz",é',
  '2,2021,b,,',
  '3,2021,c,"",1',
  '4,2022,d,"multi\n\nline",2',
  '5,,e,f,g',
].join('\n') + '\n';

describe('export CSV planner (part files and their hashes while the rows stream)', () => {
  test('splits by partition and rows per file, with rid ranges, whatever the chunk size', () => {
    const expected = [
      { partition: '2021', part: 0, rows: 2, first_rid: 1, last_rid: 2, input_hash: sha('a,"x, ""y""\nz",é\nb,,\n') },
      { partition: '2021', part: 1, rows: 1, first_rid: 3, last_rid: 3, input_hash: sha('c,"",1\n') },
      { partition: '2022', part: 0, rows: 1, first_rid: 4, last_rid: 4, input_hash: sha('d,"multi\n\nline",2\n') },
      { partition: '', part: 0, rows: 1, first_rid: 5, last_rid: 5, input_hash: sha('e,f,g\n') },
    ];
    for (const size of [1, 2, 3, 7, 64, 1 << 16]) assert.deepEqual(plan(CSV, 2, size), expected, `chunks of ${size}`);
  });

  test('hashes column values only: renumbered rows keep their hash, a changed value or NULL-vs-empty does not', () => {
    const a = plan('1,2021,a,b\n', 10, 64)[0]!;
    assert.equal(plan('7,2021,a,b\n', 10, 64)[0]!.input_hash, a.input_hash);
    assert.notEqual(plan('1,2021,a,c\n', 10, 64)[0]!.input_hash, a.input_hash);
    assert.notEqual(plan('1,2021,a,\n', 10, 1)[0]!.input_hash, plan('1,2021,a,""\n', 10, 1)[0]!.input_hash);
  });

  test('reads the unpartitioned dataset\'s "" partition as the empty partition', () => {
    assert.deepEqual(plan('1,"",x\n2,"",y\n', 10, 3).map((f) => [f.partition, f.rows]), [['', 2]]);
  });

  test('refuses rows of a partition that come back after another, and a stream cut inside a record', () => {
    assert.throws(() => plan('1,2021,a\n2,2022,b\n3,2021,c\n', 10, 64), /not contiguous/);
    assert.throws(() => plan('1,2021,"open\n', 10, 64), /ends inside a record/);
    assert.throws(() => new CsvPartPlanner(0), /positive integer/);
  });
});
