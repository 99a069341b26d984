/**
 * The fixed-seed random mix of reads of the `mix` suite: what a population of agents asks of the
 * mirror's 23 companies over fiscal years 2010-2024, eight common metrics and the three statement
 * types. 35% normalized statements, 30% metric time series, 20% three-company panels, 15% as-of
 * financials; each read exists over HTTP and as the same tools/call over /mcp. The mix includes
 * periods a company never filed (a statement answers 404, a series or panel an empty page, an
 * as-of date before the first filing no statements).
 */

export type Family = 'statement' | 'series' | 'panel' | 'as_of';

export const FAMILY_SHARES: Record<Family, number> = { statement: 0.35, series: 0.3, panel: 0.2, as_of: 0.15 };

/** One read of the mix, on both surfaces. */
export interface MixRead {
  family: Family;
  /** HTTP GET path with its query */
  path: string;
  /** the same read as a tool call */
  tool: { name: string; arguments: Record<string, unknown> };
}

/** The CIKs of the mirror's companies (../shared/sec company facts). */
export const MIX_CIKS = [
  '0000022701', '0000063908', '0000097476', '0000104169', '0000320187', '0000320193', '0000354950', '0000789019',
  '0000865941', '0000909832', '0000945436', '0001045810', '0001046179', '0001336917', '0001364479', '0001376339',
  '0001637459', '0001640147', '0001652044', '0001657853', '0001731289', '0001744489', '0001835632',
];

const METRICS = ['REVENUE', 'NET_INCOME', 'OPERATING_INCOME', 'EPS_DILUTED', 'TOTAL_ASSETS', 'STOCKHOLDERS_EQUITY', 'OPERATING_CASH_FLOW', 'CAPITAL_EXPENDITURES'];
const TYPES = ['INCOME_STATEMENT', 'BALANCE_SHEET', 'CASH_FLOW_STATEMENT'];
const PERIODS = ['FY', 'FY', 'Q1', 'Q2', 'Q3'];
const YEAR_FROM = 2010;
const YEAR_TO = 2024;

/** mulberry32: a small deterministic generator, so every run asks the same reads in the same order */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function query(params: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) parts.push(`${k}=${encodeURIComponent(String(one))}`);
  }
  return parts.join('&');
}

function read(family: Family, path: string, params: Record<string, unknown>, tool: string, args: Record<string, unknown>): MixRead {
  const q = query(params);
  return { family, path: q ? `${path}?${q}` : path, tool: { name: tool, arguments: args } };
}

/** One read of a family, drawn from `rnd`. */
export function drawRead(family: Family, rnd: () => number): MixRead {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const year = () => YEAR_FROM + Math.floor(rnd() * (YEAR_TO - YEAR_FROM + 1));
  const cik = pick(MIX_CIKS);
  switch (family) {
    case 'statement': {
      const args = { cik, statement_type: pick(TYPES), fiscal_year: year(), fiscal_period: pick(PERIODS) };
      return read(family, '/v1/fundamentals/normalized-statements', args, 'statements_normalized', args);
    }
    case 'series': {
      const metric = pick(METRICS);
      const r = rnd();
      const period_type = r < 0.4 ? 'annual' : r < 0.8 ? 'quarterly' : undefined;
      const a = year();
      const b = year();
      const ranged = rnd() < 0.6;
      const args = { period_type, fiscal_year_from: ranged ? Math.min(a, b) : undefined, fiscal_year_to: ranged ? Math.max(a, b) : undefined };
      const defined = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
      return read(family, `/v1/edgar/companies/${cik}/metrics/${metric}/time-series`, defined, 'edgar_metric_time_series', { cik, metric, ...defined });
    }
    case 'panel': {
      const ciks = new Set<string>([cik]);
      while (ciks.size < 3) ciks.add(pick(MIX_CIKS));
      const a = year();
      const b = year();
      const args = {
        statement_type: pick(TYPES),
        ciks: [...ciks],
        frequency: rnd() < 0.6 ? 'annual' : 'quarterly',
        from: `${Math.min(a, b)}-01-01`,
        to: `${Math.max(a, b)}-12-31`,
        page_size: 50,
      };
      return read(family, '/v1/fundamentals/time-series', args, 'fundamentals_time_series', args);
    }
    case 'as_of': {
      const y = year();
      const date = `${y + 1}-${String(1 + Math.floor(rnd() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rnd() * 28)).padStart(2, '0')}`;
      const pinned = rnd() < 0.25 ? y : undefined;
      const params = pinned === undefined ? {} : { fiscal_year: pinned };
      return read(family, `/v1/edgar/as-of/${date}/financials/${cik}`, params, 'provenance_as_of', { date, cik, ...params });
    }
  }
}

/** `count` reads drawn with the family shares (or of one family only), from a fixed seed. */
export function mixReads(count: number, seed: number, only?: Family): MixRead[] {
  const rnd = seeded(seed);
  const families = Object.entries(FAMILY_SHARES) as [Family, number][];
  const out: MixRead[] = [];
  for (let i = 0; i < count; i++) {
    let family = only;
    if (family === undefined) {
      let r = rnd();
      family = families[families.length - 1]![0];
      for (const [f, share] of families) {
        if (r < share) {
          family = f;
          break;
        }
        r -= share;
      }
    }
    out.push(drawRead(family, rnd));
  }
  return out;
}

/** The JSON-RPC body of a read's tool call. */
export function toolCallBody(r: MixRead, id = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: r.tool.name, arguments: r.tool.arguments } });
}
