/**
 * The financial-profile embedding: one documented vector per company and snapshot, built from the
 * company's latest fiscal year in the snapshot (its FY income statement, the balance sheet at that
 * year end and the year's cash-flow statement). Not a learned model: each dimension is a named
 * financial feature, standardized with a fixed, published center and spread, so any component can
 * be recomputed by hand and two snapshots of the same figures give the same vector.
 *
 * Scaling: z = (x - center) / spread, clipped to [-3, 3], six fraction digits (half-up). The
 * centers and spreads are reference values for listed US filers (a typical level and a typical
 * spread of each feature), fixed in FEATURES, not estimated from the universe, so a company's
 * vector does not move when other companies enter or leave a snapshot. A feature whose inputs are
 * missing (or whose divisor is zero) is left out: its component is 0 and it is listed in
 * `missing_features`, and similarity only uses the features both companies have.
 */
import { Decimal } from 'decimal.js';
import { dec } from '../decimal.ts';
import { CompanyView, priorYearOf, type StatementView } from './snapshot-view.ts';

export const EMBEDDING_MODEL = { model_id: 'fds-financial-profile', model_version: '1' } as const;

export type FeatureGroup = 'PROFITABILITY' | 'RETURNS' | 'LEVERAGE_LIQUIDITY' | 'EFFICIENCY' | 'CASH_FLOW' | 'GROWTH' | 'SIZE' | 'MIX';

export interface FeatureDefinition {
  name: string;
  group: FeatureGroup;
  /** how the raw value is computed (catalog derived metric, or a formula over canonical metrics) */
  formula: string;
  center: string;
  spread: string;
}

const f = (name: string, group: FeatureGroup, formula: string, center: string, spread: string): FeatureDefinition => ({ name, group, formula, center, spread });

/** The dimensions, in vector order. Derived metrics use the catalog's definitions (domain/catalog/derived.ts). */
export const FEATURES: readonly FeatureDefinition[] = [
  f('GROSS_MARGIN', 'PROFITABILITY', 'catalog GROSS_MARGIN = GROSS_PROFIT / REVENUE', '0.40', '0.20'),
  f('OPERATING_MARGIN', 'PROFITABILITY', 'catalog OPERATING_MARGIN = OPERATING_INCOME / REVENUE', '0.10', '0.15'),
  f('NET_MARGIN', 'PROFITABILITY', 'catalog NET_MARGIN = NET_INCOME / REVENUE', '0.07', '0.15'),
  f('ROA', 'RETURNS', 'catalog ROA = NET_INCOME / average TOTAL_ASSETS', '0.05', '0.08'),
  f('DEBT_TO_ASSETS', 'LEVERAGE_LIQUIDITY', 'catalog DEBT_TO_ASSETS = (CURRENT_PORTION_LONG_TERM_DEBT + LONG_TERM_DEBT) / TOTAL_ASSETS', '0.25', '0.20'),
  f('CURRENT_RATIO', 'LEVERAGE_LIQUIDITY', 'catalog CURRENT_RATIO = TOTAL_CURRENT_ASSETS / TOTAL_CURRENT_LIABILITIES', '1.5', '1.0'),
  f('ASSET_TURNOVER', 'EFFICIENCY', 'catalog ASSET_TURNOVER = REVENUE / average TOTAL_ASSETS', '0.8', '0.6'),
  f('FCF_MARGIN', 'CASH_FLOW', 'catalog FCF_MARGIN = (OPERATING_CASH_FLOW - CAPITAL_EXPENDITURES) / REVENUE', '0.08', '0.12'),
  f('CAPEX_TO_REVENUE', 'CASH_FLOW', 'catalog CAPEX_TO_REVENUE = CAPITAL_EXPENDITURES / REVENUE', '0.06', '0.08'),
  f('REVENUE_GROWTH_YOY', 'GROWTH', 'REVENUE / REVENUE of the prior fiscal year - 1', '0.06', '0.20'),
  f('LOG10_REVENUE', 'SIZE', 'log10(REVENUE), revenue in the reporting currency', '10', '1'),
  f('LOG10_TOTAL_ASSETS', 'SIZE', 'log10(TOTAL_ASSETS)', '10.3', '1'),
  f('RD_TO_REVENUE', 'MIX', 'RESEARCH_AND_DEVELOPMENT / REVENUE (0 when revenue is reported and R&D is not)', '0.05', '0.08'),
  f('SGA_TO_REVENUE', 'MIX', 'SELLING_GENERAL_AND_ADMINISTRATIVE / REVENUE', '0.15', '0.12'),
  f('CASH_TO_ASSETS', 'MIX', 'CASH_AND_EQUIVALENTS / TOTAL_ASSETS', '0.10', '0.10'),
  f('PPE_TO_ASSETS', 'MIX', 'PROPERTY_PLANT_EQUIPMENT_NET / TOTAL_ASSETS', '0.20', '0.20'),
  f('INVENTORY_TO_ASSETS', 'MIX', 'INVENTORY / TOTAL_ASSETS (0 when assets are reported and inventory is not)', '0.08', '0.10'),
  f('INTANGIBLES_TO_ASSETS', 'MIX', '(GOODWILL + INTANGIBLE_ASSETS_NET) / TOTAL_ASSETS (an unreported part counts as 0)', '0.15', '0.15'),
];

export const EMBEDDING_DIMENSIONS = FEATURES.length;
export const CLIP = '3';
export const COMPONENT_DIGITS = 6;

export interface FeatureValue {
  name: string;
  /** the raw feature (12 fraction digits), null when missing */
  raw: string | null;
  /** the standardized component, six fraction digits ("0.000000" when missing) */
  z: string;
}

export interface CompanyEmbedding {
  cik: string;
  fiscal_year: number;
  fiscal_period: 'FY';
  /** statement versions the features were read from, sorted */
  statement_version_ids: string[];
  /** the components in FEATURES order, decimal strings */
  vector: string[];
  features: FeatureValue[];
  missing_features: string[];
}

const RAW_DIGITS = 12;

function ratio(a: string | undefined, b: string | undefined): Decimal | null {
  if (a === undefined || b === undefined || dec(b).isZero()) return null;
  return dec(a).dividedBy(b);
}

function log10(a: string | undefined): Decimal | null {
  return a === undefined || !dec(a).isPositive() ? null : dec(a).log(10);
}

type Values = Readonly<Record<string, string>>;

/** Features that are not catalog metrics: which statements each reads and how. */
const CUSTOM: Record<string, { reads: readonly ('is' | 'bs' | 'prior')[]; compute: (is: Values, bs: Values, prior: Values) => Decimal | null }> = {
  REVENUE_GROWTH_YOY: {
    reads: ['is', 'prior'],
    compute: (is, _bs, prior) => (prior.REVENUE === undefined || !dec(prior.REVENUE).isPositive() ? null : ratio(is.REVENUE, prior.REVENUE)?.minus(1) ?? null),
  },
  LOG10_REVENUE: { reads: ['is'], compute: (is) => log10(is.REVENUE) },
  LOG10_TOTAL_ASSETS: { reads: ['bs'], compute: (_is, bs) => log10(bs.TOTAL_ASSETS) },
  RD_TO_REVENUE: { reads: ['is'], compute: (is) => (is.REVENUE === undefined ? null : ratio(is.RESEARCH_AND_DEVELOPMENT ?? '0', is.REVENUE)) },
  SGA_TO_REVENUE: { reads: ['is'], compute: (is) => ratio(is.SELLING_GENERAL_AND_ADMINISTRATIVE, is.REVENUE) },
  CASH_TO_ASSETS: { reads: ['bs'], compute: (_is, bs) => ratio(bs.CASH_AND_EQUIVALENTS, bs.TOTAL_ASSETS) },
  PPE_TO_ASSETS: { reads: ['bs'], compute: (_is, bs) => ratio(bs.PROPERTY_PLANT_EQUIPMENT_NET, bs.TOTAL_ASSETS) },
  INVENTORY_TO_ASSETS: { reads: ['bs'], compute: (_is, bs) => (bs.TOTAL_ASSETS === undefined ? null : ratio(bs.INVENTORY ?? '0', bs.TOTAL_ASSETS)) },
  INTANGIBLES_TO_ASSETS: {
    reads: ['bs'],
    compute: (_is, bs) => (bs.TOTAL_ASSETS === undefined ? null : ratio(dec(bs.GOODWILL ?? '0').plus(bs.INTANGIBLE_ASSETS_NET ?? '0').toFixed(), bs.TOTAL_ASSETS)),
  },
};

/** The raw features of a company at one fiscal year, and the versions they read. */
function rawFeatures(view: CompanyView, is: StatementView): { raw: Map<string, Decimal | null>; ids: Set<string> } {
  const year = { fiscal_year: is.fiscal_year, fiscal_period: 'FY' };
  const statements = { is, bs: view.statement('BALANCE_SHEET', year), prior: view.statement('INCOME_STATEMENT', priorYearOf(year)) };
  const ids = new Set<string>();
  const raw = new Map<string, Decimal | null>();
  for (const def of FEATURES) {
    let value: Decimal | null;
    const custom = CUSTOM[def.name];
    if (custom) {
      value = custom.compute(is.values, statements.bs?.values ?? {}, statements.prior?.values ?? {});
      if (value !== null) for (const r of custom.reads) if (statements[r]) ids.add(statements[r]!.statement_version_id);
    } else {
      const g = view.derived(def.name, year);
      value = g.value === null ? null : dec(g.value);
      for (const id of g.statement_version_ids) ids.add(id);
    }
    raw.set(def.name, value);
  }
  return { raw, ids };
}

/** z = (x - center) / spread clipped to [-CLIP, CLIP], COMPONENT_DIGITS digits half-up. */
export function standardize(def: FeatureDefinition, raw: Decimal): string {
  const z = raw.minus(def.center).dividedBy(def.spread);
  const clipped = Decimal.min(Decimal.max(z, dec(CLIP).negated()), dec(CLIP));
  const s = clipped.toDecimalPlaces(COMPONENT_DIGITS, Decimal.ROUND_HALF_UP).toFixed(COMPONENT_DIGITS);
  return /^-0\.0+$/.test(s) ? s.slice(1) : s;
}

/**
 * The company's embedding at its latest fiscal year in the snapshot; null when the snapshot holds
 * no FY income statement for it.
 */
export function embedCompany(cik: string, view: CompanyView): CompanyEmbedding | null {
  const is = view.list('INCOME_STATEMENT').find((s) => s.fiscal_period === 'FY');
  if (!is) return null;
  const { raw, ids } = rawFeatures(view, is);
  const features: FeatureValue[] = FEATURES.map((def) => {
    const r = raw.get(def.name) ?? null;
    return { name: def.name, raw: r === null ? null : r.toDecimalPlaces(RAW_DIGITS, Decimal.ROUND_HALF_UP).toFixed(), z: r === null ? (0).toFixed(COMPONENT_DIGITS) : standardize(def, r) };
  });
  return {
    cik,
    fiscal_year: is.fiscal_year,
    fiscal_period: 'FY',
    statement_version_ids: [...ids].sort(),
    vector: features.map((x) => x.z),
    features,
    missing_features: features.filter((x) => x.raw === null).map((x) => x.name),
  };
}
