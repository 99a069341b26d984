import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Decimal } from 'decimal.js';
import { CLIP, embedCompany, EMBEDDING_DIMENSIONS, FEATURES, type CompanyEmbedding } from '../domain/ai/embedding.ts';
import { compare, findPeers, MIN_SHARED_FEATURES, type PeerCandidate } from '../domain/ai/peers.ts';
import { CompanyView } from '../domain/ai/snapshot-view.ts';
import { corpusCiks, corpusSnapshotRows, type CorpusCompany } from './helpers/corpus-snapshot-rows.ts';

/**
 * The financial-profile embedding and peers over the ../shared/sec corpus (snapshot-shaped rows
 * built by the real normalization pipeline, no database): every component recomputed from its
 * documented formula, center and spread; peers stable, ordered, never the company itself.
 */
const AS_OF = '2024-12-31';
const APPLE = '0000320193';
const WALMART = '0000104169';
const COSTCO = '0000909832';

let companies: CorpusCompany[] = [];
let universe: PeerCandidate[] = [];
before(async () => {
  companies = await Promise.all(corpusCiks().map((cik) => corpusSnapshotRows(cik, AS_OF)));
  universe = companies.flatMap((c) => {
    const e = embedCompany(c.cik, new CompanyView(c.rows));
    return e ? [{ embedding: e, sic: c.sic }] : [];
  });
});

const embeddingOf = (cik: string): CompanyEmbedding => universe.find((u) => u.embedding.cik === cik)!.embedding;
const value = (c: CorpusCompany, type: string, year: number, metric: string) =>
  c.rows.find((r) => r.statement_type === type && r.fiscal_year === year && r.fiscal_period === 'FY' && r.metric_name === metric)?.metric_value;

describe('the embedding', () => {
  it('embeds nearly every company of the corpus, each component the standardized raw feature', () => {
    assert.ok(universe.length >= companies.length - 1, `${universe.length} of ${companies.length}`);
    for (const { embedding: e } of universe) {
      assert.equal(e.vector.length, EMBEDDING_DIMENSIONS);
      FEATURES.forEach((f, i) => {
        const raw = e.features[i]!.raw;
        if (raw === null) {
          assert.equal(e.vector[i], '0.000000');
          assert.ok(e.missing_features.includes(f.name));
          return;
        }
        const z = Decimal.min(Decimal.max(new Decimal(raw).minus(f.center).dividedBy(f.spread), -CLIP), CLIP);
        assert.ok(z.minus(e.vector[i]!).abs().lte('0.0000005'), `${e.cik} ${f.name}: ${raw} -> ${e.vector[i]}`);
      });
    }
  });

  it("reads Apple's FY2024 figures: gross margin, revenue growth, size and intangibles share from the statements of the year", () => {
    const apple = companies.find((c) => c.cik === APPLE)!;
    const e = embeddingOf(APPLE);
    assert.equal(e.fiscal_year, 2024);
    const raw = (name: string) => new Decimal(e.features.find((f) => f.name === name)!.raw!);
    const rev = new Decimal(value(apple, 'INCOME_STATEMENT', 2024, 'REVENUE')!);
    assert.ok(raw('GROSS_MARGIN').minus(new Decimal(value(apple, 'INCOME_STATEMENT', 2024, 'GROSS_PROFIT')!).dividedBy(rev)).abs().lte('1e-12'));
    assert.ok(raw('REVENUE_GROWTH_YOY').minus(rev.dividedBy(value(apple, 'INCOME_STATEMENT', 2023, 'REVENUE')!).minus(1)).abs().lte('1e-12'));
    assert.ok(raw('LOG10_REVENUE').minus(Decimal.log10(rev)).abs().lte('1e-12'));
    // Apple reports neither goodwill nor intangibles on its balance sheet: the share counts them as 0
    assert.equal(raw('INTANGIBLES_TO_ASSETS').toFixed(), '0');
    assert.deepEqual(e.missing_features, []);
  });

  it("does not move when other companies leave the snapshot (fixed centers, not the universe's)", () => {
    const apple = companies.find((c) => c.cik === APPLE)!;
    assert.equal(JSON.stringify(embedCompany(APPLE, new CompanyView([...apple.rows].reverse()))), JSON.stringify(embeddingOf(APPLE)));
  });
});

describe('peers', () => {
  it('never include the company, are ordered by similarity then CIK, and compare at least half the features', () => {
    for (const { embedding } of universe) {
      const peers = findPeers(embedding, universe);
      assert.ok(peers.every((p) => p.cik !== embedding.cik));
      for (let i = 1; i < peers.length; i++) {
        const [a, b] = [new Decimal(peers[i - 1]!.similarity), new Decimal(peers[i]!.similarity)];
        assert.ok(a.gt(b) || (a.eq(b) && peers[i - 1]!.cik < peers[i]!.cik));
      }
      for (const p of peers) {
        assert.ok(p.shared_features >= MIN_SHARED_FEATURES);
        assert.ok(new Decimal(p.similarity).abs().lte(1));
        assert.ok(p.drivers.every((d) => new Decimal(d.contribution).isPositive()));
      }
    }
  });

  it('similarity is symmetric and the contributions add up to it', () => {
    const a = embeddingOf(APPLE);
    for (const { embedding: b } of universe.filter((u) => u.embedding.cik !== APPLE)) {
      const ab = compare(a, b);
      const ba = compare(b, a);
      if (!ab) continue;
      assert.ok(ab.similarity.minus(ba!.similarity).abs().lte('1e-15'));
      const sum = [...ab.contributions.values()].reduce((s, x) => s.plus(x), new Decimal(0));
      assert.ok(sum.minus(ab.similarity).abs().lte('1e-15'));
    }
  });

  it('are the same for a universe given in another order', () => {
    const reversed = [...universe].reverse();
    for (const { embedding } of universe) assert.deepEqual(findPeers(embedding, reversed), findPeers(embedding, universe));
  });

  it("pair the warehouse retailers: Walmart's nearest company is Costco, driven by asset turnover and inventory", () => {
    const [first] = findPeers(embeddingOf(WALMART), universe);
    assert.equal(first!.cik, COSTCO);
    assert.deepEqual(first!.drivers.slice(0, 2).map((d) => d.feature), ['ASSET_TURNOVER', 'INVENTORY_TO_ASSETS']);
  });

  it('keep only companies of a SIC code prefix when asked', () => {
    const withSic = universe.filter((u) => u.sic !== null);
    assert.ok(withSic.length >= 3, 'the mirror names a SIC code for some companies');
    const sic = withSic.find((u) => u.embedding.cik !== APPLE)!.sic!;
    const peers = findPeers(embeddingOf(APPLE), universe, sic.slice(0, 2));
    assert.ok(peers.length > 0);
    for (const p of peers) assert.ok(universe.find((u) => u.embedding.cik === p.cik)!.sic!.startsWith(sic.slice(0, 2)));
  });
});
