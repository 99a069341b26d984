import { add } from '../decimal.ts';
import type { StatementFigure } from '../statement-types.ts';
import { derivedFigure, stepOf } from './figures.ts';

/**
 * Imputed total: revenue = gross profit + cost of revenue, when the filing tags no revenue
 * candidate at all for the period (Nikola tags its revenue with an extension of its own) but
 * tags both terms. Served as DERIVED (`DERIVED_IDENTITY`) with calculation_steps; never when the
 * filing reports a revenue total itself (`revenueReported`), and only from figures it tagged.
 */
export function imputeRevenue(figures: Map<string, StatementFigure>, revenueReported: boolean, accession: string): void {
  if (revenueReported || figures.has('REVENUE')) return;
  const gross = figures.get('GROSS_PROFIT');
  const cost = figures.get('COST_OF_REVENUE');
  if (!gross || !cost || gross.value_origin !== 'SOURCE' || cost.value_origin !== 'SOURCE') return;
  if (gross.source_accession !== accession || cost.source_accession !== accession) return;
  if (gross.period_start !== cost.period_start || gross.period_end !== cost.period_end) return;
  figures.set(
    'REVENUE',
    derivedFigure('REVENUE', add(gross.value, cost.value), gross.unit, { start: gross.period_start, end: gross.period_end }, accession, 'DERIVED_IDENTITY', [
      stepOf('base', gross),
      stepOf('add', cost),
    ]),
  );
}
