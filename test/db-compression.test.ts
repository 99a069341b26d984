import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { replaceDisclosures } from '../db/package-write.ts';
import { createTestDatabase } from './helpers/database.ts';

/** Whether the server was built with lz4 (the Debian and Docker builds are; the embedded binaries are not). */
async function serverHasLz4(db: Database): Promise<boolean> {
  try {
    await db.sql`CREATE TEMP TABLE lz4_probe (x text COMPRESSION lz4)`;
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === '0A000') return false; // feature_not_supported
    throw err;
  }
}

describe('compression of the large text the ingestion writes (migrations 000032, 000034)', () => {
  let db: Database;
  let lz4: boolean;
  before(async () => {
    db = await createTestDatabase();
    await migrate(db.sql);
    lz4 = await serverHasLz4(db);
  });
  after(async () => {
    await db?.close();
  });

  it('declares lz4 for statement figures and disclosure text where the server has it, the default where it does not', async () => {
    const rows = await db.sql<{ column: string; compression: string }[]>`
      SELECT attrelid::regclass::text || '.' || attname AS column, attcompression::text AS compression
      FROM pg_attribute
      WHERE (attrelid, attname) IN (('statement_versions'::regclass, 'figures'), ('disclosures'::regclass, 'disclosure_text'))
      ORDER BY 1`;
    const expected = lz4 ? 'l' : '';
    assert.deepEqual(
      rows.map((r) => ({ ...r })),
      [
        { column: 'disclosures.disclosure_text', compression: expected },
        { column: 'statement_versions.figures', compression: expected },
      ],
    );
  });

  it('stores a long disclosure compressed with lz4 (pglz without it) and reads its text back unchanged', async () => {
    const cik = '0000000042';
    const accession = '0000000042-24-000001';
    await db.sql`
      INSERT INTO filings (accession, cik, form, filing_date, is_periodic, source)
      VALUES (${accession}, ${cik}, '10-K', '2024-03-01', true, 'submissions')`;
    const text = Array.from({ length: 400 }, (_, i) => `Note ${i % 7}: income taxes of the period, deferred and current, as restated.`).join(' ');
    const disclosure = {
      disclosure_id: randomUUID(), accession, period_of_report: '2023-12-31', concept: 'us-gaap:IncomeTaxDisclosureTextBlock',
      title: 'Income Taxes', disclosure_text: text, char_count: text.length, context_start: '2023-01-01', context_end: '2023-12-31',
      filing_date: '2024-03-01',
    };
    await db.sql.begin((tx) => replaceDisclosures(tx as unknown as Database['sql'], cik, [disclosure], new Date('2024-03-02T00:00:00Z')));
    const [row] = await db.sql<{ compression: string | null; disclosure_text: string }[]>`
      SELECT pg_column_compression(disclosure_text) AS compression, disclosure_text FROM disclosures WHERE cik = ${cik}`;
    assert.equal(row!.compression, lz4 ? 'lz4' : 'pglz');
    assert.equal(row!.disclosure_text, text);
  });
});
