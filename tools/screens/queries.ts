/**
 * Reads behind screens and comparisons. They read screen_rows only (db/migrations/000046: each
 * company's metrics per period as known over a span of dates, written at ingestion), never the
 * statement versions: a read as of a date takes, per company, the one row of its slot whose span
 * holds the date, through the span's GiST index.
 */
import type { Sql } from '../../db/client.ts';
import type { Fragment } from '../../db/statement-versions.ts';
import { screenPosition, type ScreenBasis, type ScreenSource } from '../../domain/screens/rows.ts';
import type { Op } from './shapes.ts';

/** Which row of a company a read takes: the latest period of a basis, or one fiscal year. */
export type Slot = { kind: 'latest'; basis: ScreenBasis } | { kind: 'period'; fiscal_year: number };

export interface Universe {
  /** 4-digit SIC codes and 2-digit prefixes; null: every industry */
  sic: string[] | null;
  exchange: string[] | null;
  accounting_standard: string | null;
  /** only these companies (a Free-plan key's); null: every company */
  ciks: string[] | null;
}

export interface ScreenCondition {
  metric: string;
  op: Op;
  low: string;
  /** between only */
  high: string | null;
  /** an amount in the filer's currency: compared only in the screen's currency */
  amount: boolean;
}

export interface ScreenQuery {
  slot: Slot;
  as_of: string;
  universe: Universe;
  currency: string;
  conditions: ScreenCondition[];
  sort: { metric: string; direction: 'asc' | 'desc' } | null;
  /** metrics each row answers with */
  columns: string[];
  page: { limit: number; offset: number };
}

export interface ScreenHit {
  cik: string;
  company_id: string;
  ticker: string | null;
  company_name: string;
  sic: string | null;
  fiscal_year: number;
  fiscal_period: string;
  period_start: string | null;
  period_end: string;
  filing_date: string;
  currency: string | null;
  accounting_standard: string;
  sources: ScreenSource[];
  metrics: Record<string, string>;
  unavailable: Record<string, string>;
}

// the slot as literal SQL, so the planner matches each partial index
function slotWhere(sql: Sql, slot: Slot): Fragment {
  if (slot.kind === 'period') return sql`s.kind = 'period' AND s.basis = 'FY' AND s.fiscal_year = ${slot.fiscal_year}`;
  if (slot.basis === 'FY') return sql`s.kind = 'latest' AND s.basis = 'FY'`;
  if (slot.basis === 'Q') return sql`s.kind = 'latest' AND s.basis = 'Q'`;
  return sql`s.kind = 'latest' AND s.basis = 'TTM'`;
}

/** the knowable-at rule over a row's span: the row held at the end of `asOf` */
function heldOn(sql: Sql, asOf: string): Fragment {
  return sql`daterange(s.known_from, s.known_until, '[)') @> ${asOf}::date`;
}

function companyWhere(sql: Sql, u: Universe): Fragment {
  const codes = (u.sic ?? []).filter((s) => s.length === 4);
  const prefixes = (u.sic ?? []).filter((s) => s.length === 2);
  return sql`TRUE
    ${u.sic ? sql`AND (${codes.length > 0 ? sql`c.sic IN ${sql(codes)}` : sql`FALSE`} OR ${prefixes.length > 0 ? sql`left(c.sic, 2) IN ${sql(prefixes)}` : sql`FALSE`})` : sql``}
    ${u.exchange ? sql`AND EXISTS (SELECT 1 FROM unnest(c.exchanges) x WHERE upper(x) IN ${sql(u.exchange)})` : sql``}
    ${u.ciks ? (u.ciks.length > 0 ? sql`AND c.cik IN ${sql(u.ciks)}` : sql`AND FALSE`) : sql``}`;
}

/** A metric's value in a row: its place in the row's value array (no unpacking of the metrics document). */
function val(sql: Sql, alias: 's' | 'u', metric: string): Fragment {
  const pos = screenPosition(metric);
  if (pos === undefined) throw new Error(`not a screen metric: ${metric}`);
  // `u` rows carry each value they need as its own column, m<position> (see screen)
  return alias === 's' ? sql`s.vals[${pos}::int]` : sql`u.${sql(`m${pos}`)}`;
}

/** The first condition a row cannot be judged on, as an exclusion reason; NULL when every one can be. */
function exclusion(sql: Sql, conditions: readonly ScreenCondition[], currency: string): Fragment {
  if (conditions.length === 0) return sql`NULL::text`;
  const whens = conditions.reduce<Fragment>(
    (acc, c) => sql`${acc}
      WHEN ${val(sql, 's', c.metric)} IS NULL THEN CASE coalesce(s.unavailable ->> ${c.metric}, 'NOT_REPORTED')
        WHEN 'NOT_REPORTED' THEN 'METRIC_NOT_REPORTED' WHEN 'MISSING_INPUT' THEN 'INPUT_MISSING' ELSE 'NOT_COMPUTABLE' END
      ${c.amount ? sql`WHEN s.currency IS DISTINCT FROM ${currency} THEN 'OTHER_CURRENCY'` : sql``}`,
    sql``,
  );
  return sql`CASE ${whens} ELSE NULL END`;
}

function test(sql: Sql, c: ScreenCondition): Fragment {
  const v = val(sql, 'u', c.metric);
  switch (c.op) {
    case 'gt':
      return sql`${v} > ${c.low}::numeric`;
    case 'gte':
      return sql`${v} >= ${c.low}::numeric`;
    case 'lt':
      return sql`${v} < ${c.low}::numeric`;
    case 'lte':
      return sql`${v} <= ${c.low}::numeric`;
    case 'eq':
      return sql`${v} = ${c.low}::numeric`;
    case 'between':
      return sql`${v} BETWEEN ${c.low}::numeric AND ${c.high}::numeric`;
  }
}

function allTests(sql: Sql, conditions: readonly ScreenCondition[]): Fragment {
  return conditions.reduce<Fragment>((acc, c) => sql`${acc} AND ${test(sql, c)}`, sql`u.excluded IS NULL`);
}

/** metric -> value (text) of the named metrics only, from the row's value array; a metric without a value is left out */
function projected(sql: Sql, alias: 's' | 'u', names: readonly string[]): Fragment {
  if (names.length === 0) return sql`'{}'::jsonb`;
  const pairs = names.reduce<Fragment | null>((acc, m) => (acc ? sql`${acc}, ${m}::text, ${val(sql, alias, m)}::text` : sql`${m}::text, ${val(sql, alias, m)}::text`), null);
  return sql`jsonb_strip_nulls(jsonb_build_object(${pairs}))`;
}

/** reason of each named metric the row has no value of */
function reasons(sql: Sql, names: readonly string[]): Fragment {
  if (names.length === 0) return sql`'{}'::jsonb`;
  return sql`coalesce((SELECT jsonb_object_agg(e.key, e.value) FROM jsonb_each(s.unavailable) e WHERE e.key IN ${sql([...names])}), '{}'::jsonb)`;
}

/**
 * A whole screen in one statement, reading each held row once: the rows of the slot held on the
 * date (`u`, only the value array and the exclusion reason), those meeting every condition, their
 * count, the exclusion counts, and one page of them with their company and provenance.
 * NO_PERIOD_AT_DATE is the companies of the universe whose first period of the slot became known
 * only after the date (the first row of a slot `opens` it).
 */
export async function screen(sql: Sql, q: ScreenQuery): Promise<{ total: number; excluded: Record<string, number>; items: ScreenHit[] }> {
  const byCompany = q.universe.sic !== null || q.universe.exchange !== null || q.universe.ciks !== null;
  const order = q.sort
    ? q.sort.direction === 'asc'
      ? sql`${val(sql, 'u', q.sort.metric)} ASC NULLS LAST, u.cik`
      : sql`${val(sql, 'u', q.sort.metric)} DESC NULLS LAST, u.cik`
    : sql`u.cik`;
  const needed = [...new Set([...q.conditions.map((c) => c.metric), ...(q.sort ? [q.sort.metric] : []), ...q.columns])];
  const values = needed.reduce<Fragment>((acc, m, i) => sql`${acc}${i > 0 ? sql`, ` : sql``}${val(sql, 's', m)} AS ${sql(`m${screenPosition(m)}`)}`, sql``);
  const [r] = await sql<{ total: number; not_yet: number; excluded: Record<string, number>; items: ScreenHit[] }[]>`
    WITH u AS MATERIALIZED (
      SELECT s.cik, s.kind, s.basis, s.fiscal_year, s.fiscal_period, s.known_from, ${values}, ${exclusion(sql, q.conditions, q.currency)} AS excluded
      FROM screen_rows s ${byCompany ? sql`JOIN companies c ON c.cik = s.cik` : sql``}
      WHERE ${slotWhere(sql, q.slot)} AND ${heldOn(sql, q.as_of)}
        ${byCompany ? sql`AND ${companyWhere(sql, q.universe)}` : sql``}
        ${q.universe.accounting_standard ? sql`AND s.accounting_standard = ${q.universe.accounting_standard}` : sql``}
    ),
    hit AS MATERIALIZED (SELECT * FROM u WHERE ${allTests(sql, q.conditions)}),
    page AS (SELECT * FROM hit u ORDER BY ${order} LIMIT ${q.page.limit} OFFSET ${q.page.offset})
    SELECT
      (SELECT count(*)::int FROM hit) AS total,
      (SELECT count(*)::int FROM screen_rows s ${byCompany ? sql`JOIN companies c ON c.cik = s.cik` : sql``}
        WHERE ${slotWhere(sql, q.slot)} AND s.opens AND s.known_from > ${q.as_of}::date
          ${byCompany ? sql`AND ${companyWhere(sql, q.universe)}` : sql``}
          ${q.universe.accounting_standard ? sql`AND s.accounting_standard = ${q.universe.accounting_standard}` : sql``}) AS not_yet,
      (SELECT coalesce(jsonb_object_agg(e.excluded, e.n), '{}'::jsonb) FROM (SELECT excluded, count(*)::int AS n FROM u WHERE excluded IS NOT NULL GROUP BY 1) e) AS excluded,
      (SELECT coalesce(jsonb_agg(p ORDER BY p.ord), '[]'::jsonb) FROM (
        SELECT row_number() OVER (ORDER BY ${order}) AS ord, u.cik, c.company_id, c.tickers[1] AS ticker, c.name AS company_name, c.sic,
          s.fiscal_year, s.fiscal_period, s.period_start::text AS period_start, s.period_end::text AS period_end, s.filing_date::text AS filing_date,
          s.currency, s.accounting_standard, s.sources, ${projected(sql, 'u', q.columns)} AS metrics, '{}'::jsonb AS unavailable
        FROM page u
        JOIN screen_rows s ON (s.cik, s.kind, s.basis, s.fiscal_year, s.fiscal_period, s.known_from) = (u.cik, u.kind, u.basis, u.fiscal_year, u.fiscal_period, u.known_from)
        JOIN companies c ON c.cik = u.cik
      ) p) AS items`;
  const excluded: Record<string, number> = { ...r!.excluded, NO_PERIOD_AT_DATE: r!.not_yet };
  return { total: r!.total, excluded, items: r!.items };
}

export interface CompanyHead {
  cik: string;
  company_id: string;
  ticker: string | null;
  company_name: string;
  sic: string | null;
}

/**
 * A comparison in one statement: the named companies, their rows of the slot held on the date (the
 * named metrics and the reasons of those without a value), and the named metrics of every company
 * of their industries (SIC 2-digit prefix; within `visible`, when given) for the medians.
 */
export async function comparison(
  sql: Sql,
  ciks: readonly string[],
  slot: Slot,
  asOf: string,
  names: readonly string[],
  visible: string[] | null,
): Promise<{ heads: CompanyHead[]; rows: ScreenHit[]; peers: PeerValues[] }> {
  const [r] = await sql<{ heads: CompanyHead[]; rows: ScreenHit[]; peers: PeerValues[] }[]>`
    WITH named AS (
      SELECT c.cik, c.company_id, c.tickers[1] AS ticker, c.name AS company_name, c.sic FROM companies c WHERE c.cik IN ${sql([...ciks])}
    ),
    own AS (
      SELECT s.cik, c.company_id, c.ticker, c.company_name, c.sic, s.fiscal_year, s.fiscal_period,
        s.period_start::text AS period_start, s.period_end::text AS period_end, s.filing_date::text AS filing_date,
        s.currency, s.accounting_standard, s.sources, ${projected(sql, 's', names)} AS metrics, ${reasons(sql, names)} AS unavailable
      FROM screen_rows s JOIN named c ON c.cik = s.cik
      WHERE ${slotWhere(sql, slot)} AND ${heldOn(sql, asOf)}
    ),
    peers AS (
      SELECT left(c.sic, 2) AS prefix, s.currency, ${projected(sql, 's', names)} AS metrics
      FROM screen_rows s JOIN companies c ON c.cik = s.cik
      WHERE ${slotWhere(sql, slot)} AND ${heldOn(sql, asOf)}
        AND left(c.sic, 2) IN (SELECT left(n.sic, 2) FROM named n WHERE n.sic IS NOT NULL)
        ${visible ? (visible.length > 0 ? sql`AND s.cik IN ${sql(visible)}` : sql`AND FALSE`) : sql``}
    )
    SELECT (SELECT coalesce(jsonb_agg(n), '[]'::jsonb) FROM named n) AS heads,
      (SELECT coalesce(jsonb_agg(o), '[]'::jsonb) FROM own o) AS rows,
      (SELECT coalesce(jsonb_agg(p), '[]'::jsonb) FROM peers p) AS peers`;
  return r!;
}

export interface PeerValues {
  prefix: string;
  currency: string | null;
  metrics: Record<string, string>;
}
