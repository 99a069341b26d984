/**
 * The one performance table of docs/performance.md, made from the results files the suites write
 * (`.bench/<suite>-<time>.json`). `npm run bench -- --docs [suite ...]` runs the suites, turns each
 * run's results into rows here, and replaces those suites' rows in the table between the markers
 * (`<!-- BEGIN GENERATED bench-table -->`); rows of suites not run this time are kept as they were,
 * each with the date and machine load of its own run. Nothing in the table is typed by hand.
 */
import { cell, markdownTable, readBlock, replaceBlock } from '../../manifest/doc-blocks.ts';

export const BLOCK = 'bench-table';
export const HEADER = ['suite', 'measure', 'value', 'goal', 'result', 'run'];

export interface PerfRow {
  suite: string;
  measure: string;
  value: string;
  goal: string;
  result: string;
  run: string;
}

/** Where and when a suite ran: put in the `run` column of each of its rows. */
export interface RunInfo {
  date: string;
  cpus: number;
  load1: number;
}

const f = (n: number | null | undefined, d: number) => (typeof n === 'number' && Number.isFinite(n) ? n.toFixed(d) : 'n/a');
/** a whole number with thousands separators: 13,926 */
const n0 = (n: number | null | undefined) => (typeof n === 'number' && Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const verdict = (ok: boolean) => (ok ? 'met' : 'missed');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

type Json = any;
type Partial = Omit<PerfRow, 'suite' | 'run'>;
const row = (measure: string, value: string, goal = '', result = ''): Partial => ({ measure, value, goal, result });

/** Rows of one suite's results file. Each suite's JSON shape is the one its file under bench/suites/ writes. */
export const SUMMARIES: Record<string, (r: Json) => Partial[]> = {
  reads: (r) => {
    const out: Partial[] = [];
    const goals = r.goals ?? {};
    const healthRps = r.health?.throughput?.rps_mean;
    for (const x of r.reads ?? []) {
      if (x.status !== 'measured') {
        out.push(row(x.name, 'not measured', '', x.status));
        continue;
      }
      const g = goals[x.name] ?? {};
      const l = x.latency.latency_ms;
      out.push(row(`${x.name}: p50 / p99 at 4 connections`, `${f(l.p50, 2)} / ${f(l.p99, 2)} ms`, `<= ${g.p50_ms} / <= ${g.p99_ms} ms`, verdict(x.goals.p50_ms && x.goals.p99_ms)));
      out.push(
        row(`${x.name}: req/s at 50 connections / \`/health/z\` req/s`, `${f(x.rps_share_of_health, 3)} (${n0(x.throughput.rps_mean)} / ${n0(healthRps)})`, `>= ${g.rps_share_of_health}`, verdict(x.goals.rps_share_of_health)),
      );
    }
    if (r.mcp?.mean_ratio != null) {
      out.push(
        row('`statements_normalized` over MCP / the same HTTP read, mean at 4', `${f(r.mcp.mean_ratio, 3)} (${f(r.mcp.mcp.latency_ms.mean, 2)} / ${f(r.mcp.http.latency_ms.mean, 2)} ms)`, `<= ${r.mcp.goal}`, verdict(r.mcp.mean_ratio <= r.mcp.goal)),
      );
    }
    return out;
  },
  mix: (r) => [
    ...(r.goal_rows ?? []).map((g: Json) => row(g.measure, g.value, g.goal, verdict(g.met))),
    ...(r.runs ?? []).flatMap((run: Json) =>
      Object.entries(run.families ?? {}).map(([family, x]: [string, Json]) =>
        row(`${family.replace('_', '-')} alone, caches ${run.caches}: p50 / p99 at 4; req/s at 50 / \`/health/z\``, `${f(x.at4.latency_ms.p50, 2)} / ${f(x.at4.latency_ms.p99, 2)} ms; ${f(x.share_at50, 3)} (${n0(x.at50.rps_mean)})`),
      ),
    ),
  ],
  ingest: (r) => {
    const out: Partial[] = [];
    const ratio = r.ratio;
    const counts: Json[] = r.per_worker_count ?? [];
    for (const c of counts) {
      const runs = (r.runs as Json[]).filter((x) => x.workers === c.workers && !x.profiled);
      const secs = runs.length ? median(runs.map((x) => x.pipeline.elapsed_s)) : NaN;
      const range = c.runs_counted > 1 ? `, runs ${f(c.ratio_min, 3)}-${f(c.ratio_max, 3)}` : '';
      const best = c.workers === ratio.workers;
      out.push(
        row(
          `company-facts MB/s / \`JSON.parse\` MB/s, ${c.workers} worker${c.workers === 1 ? '' : 's'} (median of ${c.runs_counted})`,
          `${f(c.ratio_median, 3)} (${f(secs, 2)} s${range})`,
          best ? `>= ${ratio.goal}` : '',
          best ? verdict(ratio.met) : '',
        ),
      );
    }
    const warm = (r.runs as Json[]).find((x) => x.pipeline?.warm);
    if (warm) {
      const w = warm.pipeline.warm;
      out.push(row('the same, again in the warmed-up process (1 worker)', `${f(w.bytes / 1e6 / w.elapsed_s / warm.baseline.mb_per_s_median, 3)} (${f(w.elapsed_s, 2)} s)`));
    }
    out.push(row('ingest peak RSS, largest process', `${f(r.peak_rss?.mib, 0)} MiB`, `< ${r.peak_rss?.goal_mib} MiB`, verdict(Boolean(r.peak_rss?.met))));
    const first = (r.runs as Json[])[0];
    if (first) out.push(row('re-run over an unchanged source', `${f(first.pipeline.rerun_s, 2)} s`, '', `${first.pipeline.rerun_versions_added} new versions`));
    return out;
  },
  export: (r) => [
    row('bulk build rows/s / DuckDB `COPY` rows/s (zstd, same rows)', `${f(r.ratio.build_over_copy, 3)} (${f(median(r.build.seconds), 3)} / ${f(median(r.baseline.seconds), 3)} s)`, `>= ${r.ratio.goal}`, verdict(r.ratio.build_over_copy >= r.ratio.goal)),
    row('incremental build, nothing changed', `${f(r.incremental.seconds, 3)} s`, '', `${r.incremental.carried_forward} of ${r.files} files carried forward`),
  ],
  modeling: (r) => [
    row(`snapshot build over ${r.universe} companies / plain read of the same versions`, `${f(r.median.build_over_read, 1)} (${f(r.median.build_job_s, 2)} / ${f(r.median.plain_read_s, 2)} s)`),
    row('ratios page (50 rows) p50 / p99 at 4 connections', `${f(r.ratios_page.latency_ms.p50, 2)} / ${f(r.ratios_page.latency_ms.p99, 2)} ms`),
  ],
  http: (r) => [
    row('`companies:resolve` req/s / `/health/z` req/s, at 50', f(r.ratios.http_resolve_rps_over_health_rps, 3)),
    row('`companies_resolve` over MCP req/s / the HTTP read, at 50', f(r.ratios.mcp_rps_over_http_resolve_rps, 3)),
  ],
  packages: (r) => [
    row('inline XBRL reader MB/s / bare streaming parser MB/s', `${f(r.ratio.inline_over_bare_saxes, 3)} (${f(r.inline.mb_per_s_median, 1)} / ${f(r.baseline.mb_per_s_median, 1)} MB/s)`),
    row('inline XBRL reader peak RSS', `${f(r.peak_rss.mib, 0)} MiB`),
  ],
  freshness: (r) => [
    row(
      `feed entry to served, worst of ${(r.lag as Json[]).length} filings (\`FEED_POLL_S=${r.poll_s}\`)`,
      r.worst_entry_to_served_s == null ? 'not served' : `${f(r.worst_entry_to_served_s, 1)} s`,
      `<= ${r.goals.lag_s_here} s`,
      verdict(r.met.lag),
    ),
    row('peak requests to SEC in one second, two processes and a polling worker, fleet budget / own pacers', `${r.rate.fleet.peak_per_s} / ${r.rate.process.peak_per_s}`, `<= ${r.goals.peak_per_s}`, verdict(r.met.peak)),
  ],
  screen: (r) => {
    const out: Partial[] = [];
    const scales: Json[] = r.scales ?? [];
    const largest = scales[scales.length - 1];
    for (const s of scales) {
      for (const x of s.reads) {
        const isGoal = s === largest && (x.name.startsWith('screen, 3 conditions, latest annual as of 2026') || x.name.startsWith('compare'));
        const goal = !isGoal ? '' : x.name.startsWith('compare') ? `p50 <= ${r.goals.compare_p50_ms} ms` : `<= ${r.goals.screen_p50_ms} / <= ${r.goals.screen_p99_ms} ms`;
        const met = x.name.startsWith('compare') ? r.goals.met.compare_p50 : r.goals.met.screen_p50 && r.goals.met.screen_p99;
        out.push(row(`${s.label} (${n0(s.companies)} companies): ${x.name}, p50 / p99 at 4 connections`, `${f(x.latency_ms.p50, 2)} / ${f(x.latency_ms.p99, 2)} ms`, goal, isGoal ? verdict(met) : ''));
      }
    }
    return out;
  },
  scale: (r) => {
    const top = r.top;
    const first = r.factors[0];
    const many = r.ingest.runs[top];
    const rd = r.reads;
    const seq = Object.values(rd.scans ?? {}).reduce((n: number, c: any) => n + c.seq, 0);
    const ex = r.export;
    return [
      row(`ingest from archives, s per added MB, ${top}x / ${first}x`, f(r.ingest.ratio_top_over_first, 3), `<= ${r.ingest.goal}`, verdict(r.ingest.ratio_top_over_first <= r.ingest.goal)),
      row(`ingest peak RSS at ${top}x`, `${n0(many.max_rss_kib / 1024)} MiB`, `< ${r.ingest.rss_goal_mib} MiB`, verdict(many.max_rss_kib / 1024 < r.ingest.rss_goal_mib)),
      row(`ingest of the ${top}x corpus`, `${f(many.elapsed_s, 1)} s, ${n0(many.bytes / 1e6)} MB of company facts, ${n0(many.companies)} companies`),
      row(`database at ${top}x: in all, per company`, `${n0(many.database_bytes / 1e6)} MB, ${n0(many.database_bytes / many.companies / 1e3)} kB`),
      row(`random read mix ${top}x / 1x, p50 and mean, worst (\`READ_CACHE=off\`)`, f(Math.max(rd.ratios.p50, rd.ratios.mean), 3), `<= ${rd.goal}`, verdict(Math.max(rd.ratios.p50, rd.ratios.mean) <= rd.goal)),
      row(`random read mix p99 at ${top}x, 4 connections`, `${f(rd.many.p99_ms_median, 2)} ms`, `<= ${rd.p99_goal_ms} ms`, verdict(rd.many.p99_ms_median <= rd.p99_goal_ms)),
      row(`sequential scans of the statement tables during the ${top}x reads`, String(seq), '0', verdict(seq === 0)),
      ...(ex.failed
        ? [row(`bulk export at ${top}x`, 'the full build did not finish (BENCH_EXPORT_TIMEOUT_S)', `incremental <= ${ex.goal} of full`, 'missed')]
        : [
            row(`bulk export at ${top}x, full build`, `${f(ex.full_s, 1)} s, ${n0(ex.files)} files, ${f(ex.bytes / 1e6, 1)} MB`),
            row('bulk export, incremental after one company changed / full', f(ex.incremental_share, 3), `<= ${ex.goal}`, verdict(ex.incremental_share <= ex.goal)),
          ]),
    ];
  },
};

/** The suites the table covers, in table order. */
export const TABLE_SUITES = Object.keys(SUMMARIES);

export function rowsOf(suite: string, results: Json, run: RunInfo): PerfRow[] {
  const summary = SUMMARIES[suite];
  if (!summary) throw new Error(`no table rows are defined for suite "${suite}"`);
  const runText = `${run.date}, ${run.cpus} CPUs, load ${run.load1.toFixed(1)}`;
  return summary(results).map((p) => ({ suite, ...p, run: runText }));
}

export function renderTable(rows: readonly PerfRow[]): string {
  return markdownTable(
    HEADER,
    rows.map((r) => [r.suite, r.measure, r.value, r.goal, r.result, r.run].map(cell)),
  );
}

/** The rows of a rendered table (inverse of renderTable). */
export function parseTable(body: string): PerfRow[] {
  const lines = body.split('\n').filter((l) => l.startsWith('|'));
  return lines.slice(2).map((line) => {
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
    if (cells.length !== HEADER.length) throw new Error(`a row of the performance table has ${cells.length} cells, not ${HEADER.length}: ${line}`);
    const [suite, measure, value, goal, result, run] = cells as [string, string, string, string, string, string];
    return { suite, measure, value, goal, result, run };
  });
}

/** The table with the rows of the suites in `fresh` replaced; other suites' rows kept; suites in table order. */
export function mergeRows(existing: readonly PerfRow[], fresh: readonly PerfRow[]): PerfRow[] {
  const replaced = new Set(fresh.map((r) => r.suite));
  const all = [...existing.filter((r) => !replaced.has(r.suite)), ...fresh];
  const order = (s: string) => (TABLE_SUITES.indexOf(s) < 0 ? TABLE_SUITES.length : TABLE_SUITES.indexOf(s));
  return all.map((r, i) => ({ r, i })).sort((a, b) => order(a.r.suite) - order(b.r.suite) || a.i - b.i).map((x) => x.r);
}

/** The document with its table's rows for `fresh`'s suites replaced. */
export function refreshDocument(text: string, fresh: readonly PerfRow[]): string {
  const existing = parseTable(readBlock(text, BLOCK));
  return replaceBlock(text, BLOCK, renderTable(mergeRows(existing, fresh)));
}
