import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { packFigure, unpackFigure, type FigureContext } from '../../../db/figure-storage.ts';
import type { StatementFigure } from '../../../domain/statement-types.ts';

const ctx: FigureContext = { period_start: '2023-10-01', period_end: '2024-09-28', accession: '0000320193-24-000123', currency: 'USD' };

const tagged: StatementFigure = {
  metric: 'REVENUE',
  value: '391035000000',
  unit: 'USD',
  period_start: '2023-10-01',
  period_end: '2024-09-28',
  source_accession: '0000320193-24-000123',
  source_xbrl_concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
  mapping_type: 'FALLBACK_CONCEPT',
  selection_rule: 'CANDIDATE_ORDER',
  value_origin: 'SOURCE',
  correction_rule: null,
  as_filed_value: null,
  as_filed_concept: null,
  calculation_steps: null,
};

describe('figure storage', () => {
  it('stores a tagged figure of the version\'s own filing and period as little more than value and tag', () => {
    // what is stored is the JSON text: the packed object's left-out fields are undefined
    assert.deepEqual(JSON.parse(JSON.stringify(packFigure(tagged, ctx))), {
      value: '391035000000',
      source_xbrl_concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
      mapping_type: 'FALLBACK_CONCEPT',
    });
  });

  it('round-trips figures that differ from their row in every field that can be left out', () => {
    const { metric: _m, ...plain } = tagged;
    const carried = { ...plain, unit: 'USD/shares', value: '6.11', source_accession: '0000320193-23-000106', period_start: null, mapping_type: null };
    const derived = {
      ...plain,
      period_start: '2024-06-30',
      value_origin: 'DERIVED' as const,
      mapping_type: 'DERIVED_Q4',
      selection_rule: null,
      source_xbrl_concept: null,
      calculation_steps: [
        { operation: 'base' as const, metric: 'REVENUE', value: '391035000000', period_start: '2023-10-01', period_end: '2024-09-28', source_accession: 'a', source_xbrl_concept: null },
      ],
    };
    const corrected = { ...plain, correction_rule: 'COST_OF_REVENUE_CREDIT_SIGN' as const, as_filed_value: '-5', as_filed_concept: 'us-gaap:X' };
    const presented = { ...plain, selection_rule: 'PRESENTATION_LINKBASE' as const };
    for (const f of [plain, carried, derived, corrected, presented]) {
      assert.deepEqual(unpackFigure(packFigure({ metric: 'REVENUE', ...f }, ctx), ctx), f);
    }
    const balance = { ...plain, period_start: null };
    const bsCtx = { ...ctx, period_start: null, currency: null };
    assert.deepEqual(unpackFigure(packFigure({ metric: 'TOTAL_ASSETS', ...balance }, bsCtx), bsCtx), balance);
  });
});
