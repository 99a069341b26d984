import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Decimal } from 'decimal.js';
import { explainAnomalies, LIKELY_CAUSES, type AnomalyExplanation, type ExplainContext, type FigureFacts, type LedgerFailureRow, type QualityFindingRow } from '../domain/ai/anomalies.ts';
import { completeEvidence, detectQualityIssues, readable, severityRank, type QualityVersion } from '../domain/data-quality.ts';
import { reconcileVersions, type StatementSnapshot } from '../domain/reconciliation/index.ts';
import { stableUuid } from '../domain/stable-id.ts';
import { corpusCiks, corpusSnapshotRows, type CorpusCompany } from './helpers/corpus-snapshot-rows.ts';

/**
 * Anomaly explanations over the ../shared/sec corpus without a database: each company's statement
 * history is rebuilt by the real normalization pipeline, checked by the real data-quality rules
 * and reconciliation engine (as ingestion does), and every finding and failure explained. Known
 * failing identities of the corpus get the cause their figures show.
 */
const AS_OF = '2025-12-31';
const APPLE = '0000320193';
const MCDONALDS = '0000063908';
const SUNEDISON = '0000945436';
const SUNATION = '0000022701';

interface Replayed {
  company: CorpusCompany;
  findings: QualityFindingRow[];
  failures: LedgerFailureRow[];
  ctx: ExplainContext;
  explanations: AnomalyExplanation[];
}

function replay(company: CorpusCompany): Replayed {
  const figures = new Map<string, Record<string, FigureFacts & { period_start: string | null; period_end: string; mapping_type: string | null }>>();
  const snapshots: StatementSnapshot[] = [];
  const quality: QualityVersion[] = [];
  const latest = new Map<string, { statement_version_id: string; version_sequence: number }>();
  for (const { statement_version_id, version: v } of company.versions) {
    const figs: Record<string, FigureFacts & { period_start: string | null; period_end: string; mapping_type: string | null }> = {};
    for (const [m, f] of v.figures) figs[m] = { value: f.value, source_accession: f.source_accession, source_xbrl_concept: f.source_xbrl_concept, value_origin: f.value_origin, calculation_steps: f.calculation_steps, period_start: f.period_start, period_end: f.period_end, mapping_type: f.mapping_type };
    figures.set(statement_version_id, figs);
    snapshots.push({
      statement_version_id, statement_type: v.statement_type, fiscal_year: v.fiscal_year, fiscal_period: v.fiscal_period, version_sequence: v.version_sequence,
      period_start: v.period_start, period_end: v.period_end, filing_date: v.filing.filing_date, figures: figs,
    });
    quality.push({
      statement_version_id, cik: company.cik, statement_type: v.statement_type, fiscal_year: v.fiscal_year, fiscal_period: v.fiscal_period,
      version_sequence: v.version_sequence, filing_date: v.filing.filing_date, values: Object.fromEntries([...v.figures].map(([m, f]) => [m, f.value])),
    });
    const key = `${v.statement_type}|${v.fiscal_year}|${v.fiscal_period}`;
    if ((latest.get(key)?.version_sequence ?? 0) < v.version_sequence) latest.set(key, { statement_version_id, version_sequence: v.version_sequence });
  }
  const failures: LedgerFailureRow[] = reconcileVersions(snapshots, snapshots).flatMap(({ subject, entries }) =>
    entries.filter((e) => e.status === 'FAIL').map((e) => ({
      statement_version_id: subject.statement_version_id, rule_id: e.rule_id, statement_type: subject.statement_type, fiscal_year: subject.fiscal_year,
      fiscal_period: subject.fiscal_period, version_sequence: subject.version_sequence, severity: e.severity, expected_value: e.expected_value,
      actual_value: e.actual_value, delta: e.delta, notes: e.notes,
    })));
  const detected = detectQualityIssues(quality, new Set(quality.map((q) => q.statement_version_id)));
  const findings: QualityFindingRow[] = completeEvidence(detected, (id, m) => figures.get(id)?.[m] as never).map((f) => ({
    ...f, issue_id: stableUuid('test-issue', [f.statement_version_id, f.rule_code, f.metric]), dq_run_id: '00000000-0000-4000-8000-000000000001', evidence: f.evidence as Record<string, unknown>,
  }));
  const ctx: ExplainContext = { figures: (id) => figures.get(id), served: (t, y, p) => latest.get(`${t}|${y}|${p}`) ?? null };
  return { company, findings, failures, ctx, explanations: explainAnomalies(findings, failures, ctx) };
}

let corpus: Replayed[] = [];
const of = (cik: string) => corpus.find((r) => r.company.cik === cik)!;
before(async () => {
  corpus = (await Promise.all(corpusCiks().map((cik) => corpusSnapshotRows(cik, AS_OF)))).map(replay);
});

function find(r: Replayed, rule: string, type: string, year: number, period: string, seq?: number): AnomalyExplanation {
  const x = r.explanations.find((e) => e.rule === rule && e.statement_type === type && e.fiscal_year === year && e.fiscal_period === period && (seq === undefined || e.version_sequence === seq));
  assert.ok(x, `${rule} ${type} ${year} ${period}: ${r.explanations.filter((e) => e.fiscal_year === year).map((e) => `${e.rule} ${e.statement_type} ${e.fiscal_period} v${e.version_sequence}`).join(', ')}`);
  return x;
}

describe('known failing identities of the corpus', () => {
  it("SunAtion FY2021 re-told: the net change in cash leaves out the exchange-rate effect carried beside it (18,966 reported, 73,352 expected, the gap is the 54,386 effect)", () => {
    const x = find(of(SUNATION), 'CF_NET_CHANGE_IN_CASH', 'CASH_FLOW_STATEMENT', 2021, 'FY', 2);
    assert.deepEqual([x.amount?.actual_value, x.amount?.expected_value, x.amount?.delta], ['18966', '73352', '-54386']);
    assert.equal(x.likely_cause, 'UNREPORTED_COMPONENT');
    assert.equal(x.evidence[0]!.test, 'TERM_LEFT_OUT');
    assert.equal(x.evidence[0]!.metric, 'EFFECT_OF_EXCHANGE_RATE_ON_CASH');
    assert.deepEqual(x.sources.map((s) => s.kind), ['DATA_QUALITY', 'RECONCILIATION'], 'the finding and the ledger failure are one anomaly');
    assert.match(x.text, /^CF_NET_CHANGE_IN_CASH fails on CASH_FLOW_STATEMENT 2021 FY v2: NET_CHANGE_IN_CASH is 18,966 where the rule expects 73,352 \(delta -54,386, 21754\.4 times its tolerance of 2\.5\)\. Likely cause: an unreported component\./);
  });

  it("McDonald's FY2021: restricted-cash-inclusive cash tagged 4.7 against 4,709.2M of cash, a scale slip", () => {
    const x = find(of(MCDONALDS), 'RF_CF_ENDING_CASH_EQUALS_BS_CASH', 'CASH_FLOW_STATEMENT', 2021, 'FY');
    assert.equal(x.amount?.expected_value, '4.7');
    assert.equal(x.likely_cause, 'SCALE_SLIP');
    assert.match(x.evidence[0]!.detail, /about 1,000,000,000 times apart/);
  });

  it('SunEdison 2014 Q1: net income attributable tagged +613.6M where -613.6M closes the attribution identity, a sign error', () => {
    const x = find(of(SUNEDISON), 'IS_NET_INCOME_ATTRIBUTION', 'INCOME_STATEMENT', 2014, 'Q1', 1);
    assert.equal(x.likely_cause, 'SIGN');
    assert.equal(x.evidence[0]!.metric, 'NET_INCOME');
    assert.equal(x.evidence[0]!.value, '613600000');
  });

  it('Apple FY2012: retained earnings fall 3,285M short of the roll-forward, and no dividends were presented with it', () => {
    const x = find(of(APPLE), 'RF_RETAINED_EARNINGS_ROLLFORWARD', 'BALANCE_SHEET', 2012, 'FY', 1);
    assert.equal(x.amount?.delta, '-3285000000');
    assert.equal(x.likely_cause, 'UNREPORTED_COMPONENT');
    assert.deepEqual(x.evidence.map((e) => [e.test, e.metric]), [['INPUT_NOT_REPORTED', 'DIVIDENDS_PAID']]);
    assert.equal(x.metric, 'RETAINED_EARNINGS');
  });

  it("Apple's fiscal 2014 Q2 shares outstanding keyed in thousands: a scale slip on the version the snapshot serves", () => {
    // (the same slip in its comparative of fiscal 2013 makes no version: a DQ_SCALE_SLIP_FILED finding)
    const x = find(of(APPLE), 'DQ_SCALE_BREAK', 'BALANCE_SHEET', 2014, 'Q2', 1);
    assert.equal(x.likely_cause, 'SCALE_SLIP');
    assert.equal(x.served.this_version, true);
  });

  it('SUNation fiscal 2021 Q1 v2: total assets from the restating filing against liabilities and equity carried from the 10-Q, a restated comparative', () => {
    const x = find(of(SUNATION), 'BS_ASSETS_EQUAL_LIABILITIES_AND_EQUITY', 'BALANCE_SHEET', 2021, 'Q1', 2);
    assert.equal(x.likely_cause, 'RESTATED_COMPARATIVE');
    assert.deepEqual(x.compared.map((c) => [c.metric, c.value, c.source_accession]), [
      ['TOTAL_ASSETS', '4163000', '0000022701-22-000009'],
      ['LIABILITIES_AND_EQUITY', '53108238', '0000897101-21-000381'],
    ]);
  });
});

describe('every finding and failure of the corpus', () => {
  it('is explained once; identity findings and ledger failures of the same rule and version merge', () => {
    let total = 0;
    for (const r of corpus) {
      const keys = new Set<string>();
      for (const f of r.findings) keys.add(`${f.statement_version_id}|${f.rule_code.replace(/^DQ_IDENTITY_/, '')}`);
      for (const f of r.failures) keys.add(`${f.statement_version_id}|${f.rule_id}`);
      const explained = new Set(r.explanations.map((e) => `${e.statement_version_id}|${e.rule}`));
      assert.deepEqual([...explained].sort(), [...keys].sort(), r.company.cik);
      assert.equal(new Set(r.explanations.map((e) => e.explanation_id)).size, r.explanations.length);
      total += r.explanations.length;
    }
    assert.ok(total > 500, `explanations: ${total}`);
  });

  it('states the amounts of its rows, and its text prints them', () => {
    for (const r of corpus) {
      for (const f of r.failures) {
        const x = r.explanations.find((e) => e.statement_version_id === f.statement_version_id && e.rule === f.rule_id)!;
        assert.ok(new Decimal(x.amount!.delta).equals(f.delta!), `${f.rule_id}`);
        assert.ok(new Decimal(x.amount!.expected_value).equals(f.expected_value!));
        assert.equal(x.amount!.tolerance, String(f.notes.details.tolerance));
        assert.ok(x.text.includes(`delta ${readable(x.amount!.delta)}`), x.text);
        assert.ok(x.text.includes(x.served.text));
      }
    }
  });

  it('each arithmetic cause, applied to the figures, closes the gap to within two tolerances', () => {
    let checked = 0;
    for (const r of corpus) {
      for (const x of r.explanations.filter((e) => e.amount && ['TERM_LEFT_OUT', 'TERM_SIGN', 'GAP_EQUALS_FIGURE'].includes(e.evidence[0]!.test))) {
        const a = x.amount!;
        const ev = x.evidence[0]!;
        const term = x.compared.find((c) => c.metric === ev.metric && c.sign !== null);
        const t = new Decimal(ev.value!);
        const fixedGap =
          ev.test === 'TERM_LEFT_OUT' ? new Decimal(a.delta).plus(t.times(term!.sign!))
            : ev.test === 'TERM_SIGN' ? new Decimal(a.delta).plus(t.times(2 * term!.sign!))
              : new Decimal(a.delta).abs().minus(t.abs());
        assert.ok(fixedGap.abs().lte(new Decimal(a.tolerance).times(2)), `${x.text}`);
        checked++;
      }
    }
    assert.ok(checked > 50, `checked: ${checked}`);
  });

  it('reaches every likely cause somewhere in the corpus', () => {
    const seen = new Set(corpus.flatMap((r) => r.explanations.map((e) => e.likely_cause)));
    assert.deepEqual([...seen].sort(), [...LIKELY_CAUSES].sort());
  });

  it('keeps severities at or above min_severity, most severe first', () => {
    const r = of(SUNATION);
    const high = explainAnomalies(r.findings, r.failures, r.ctx, 'HIGH');
    assert.ok(high.length > 0 && high.length < r.explanations.length);
    assert.ok(high.every((e) => severityRank(e.severity) >= severityRank('HIGH')));
    const ranks = r.explanations.map((e) => severityRank(e.severity));
    assert.deepEqual(ranks, [...ranks].sort((a, b) => b - a));
  });

  it('is byte-identical when generated again from rows in another order', () => {
    const r = of(SUNATION);
    const again = explainAnomalies([...r.findings].reverse(), [...r.failures].reverse(), r.ctx);
    assert.equal(JSON.stringify(again), JSON.stringify(r.explanations));
  });
});
