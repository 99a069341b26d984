import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ALL_TOOLS } from '../tools/index.ts';
import { schemasOf } from '../api/json-schema.ts';
import { toolName, type ToolDefinition } from '../api/define-tool.ts';
import { startTestService, type TestService } from './helpers/service.ts';

/**
 * Every route and every tool, fuzzed from its own published input schema: for each parameter, values
 * of the wrong type, out of range, at the edges of what PostgreSQL holds (year 0000, 2^31, NUL),
 * injection-shaped and oversized, each sent with valid values for the other parameters so it
 * reaches as deep as validation lets it. Whatever comes back must be a 2xx/4xx (never 5xx), in the
 * envelope, and free of server paths, stack traces and SQL.
 */

type Json = Record<string, any>;

/** Valid values by parameter name, so a malformed value of one parameter is the only fault. */
const SAMPLES: Record<string, unknown> = {
  cik: '0000320193',
  ticker: 'AAPL',
  tickers: ['AAPL'],
  ciks: ['0000320193'],
  statement_type: 'INCOME_STATEMENT',
  fiscal_period: 'FY',
  fiscal_year: 2023,
  fiscal_year_from: 2020,
  fiscal_year_to: 2024,
  metric: 'REVENUE',
  metric_name: 'REVENUE',
  metrics: ['REVENUE'],
  bundle_code: 'core_income_statement',
  query: 'apple',
  accession_id: '0000320193-23-000106',
  date: '2024-01-01',
  snapshot_id: 'latest',
  file_path: 'companies/part-0000.parquet',
  cohort: 'ALL',
  form_type: '10-K',
  version_sequence: 1,
};

const UUID = '00000000-0000-4000-8000-000000000000';

function sampleOf(name: string, schema: Json): unknown {
  if (name in SAMPLES) return SAMPLES[name];
  const s = schema.anyOf ? schema.anyOf[0] : schema;
  if (s.enum) return s.enum[0];
  if (s.type === 'integer' || s.type === 'number') return s.minimum ?? 1;
  if (s.type === 'boolean') return false;
  if (s.type === 'array') return [sampleOf(name.replace(/s$/, ''), s.items ?? {})];
  if (s.format === 'uuid' || /uuid|[-a-f0-9]{8}-/.test(String(s.pattern ?? '')) || name.endsWith('_id')) return UUID;
  if (/\\d\{4\}-\\d\{2\}-\\d\{2\}/.test(String(s.pattern ?? '')) || /date|from|to/.test(name)) return '2024-01-01';
  return 'x';
}

const NUL = '\u0000';
const BAD_TEXT = [
  '', ' ', NUL, `a${NUL}b`, 'x'.repeat(5000), '💥', '\uD800', '../../../../etc/passwd', "'; DROP TABLE companies; --", '%00', '%', '\\', '"', '{}', '[]',
  'null', 'undefined', 'NaN', '-1', '0', '1e309', '<script>alert(1)</script>', '\r\nX-Injected: 1', '\t', 'ＡＡＰＬ', 'a'.repeat(300),
];
const BAD_DATES = ['0000-01-01', '0001-01-01', '0000-00-00', '9999-12-31', '10000-01-01', '2024-02-30', '2024-13-01', '1899-12-31', '+2024-01-01', '2024-1-1', '20240101'];
const BAD_INTS = ['2147483648', '2147483647', '-2147483649', '9007199254740993', '99999999999999999999', '1e400', '1.5', '-0', '0', '-1', 'NaN', 'Infinity', '0x10', ' 1', '1 '];
const BAD_BOOLS = ['maybe', '2', '', 'TRUE', 'yes'];

/** Malformed query-string values for one parameter, chosen by its JSON schema type. */
function badQueryValues(schema: Json): string[][] {
  const s = schema.anyOf ? schema.anyOf[0] : schema;
  const one = (vs: string[]) => vs.map((v) => [v]);
  if (s.type === 'integer' || s.type === 'number') return one([...BAD_INTS, ...BAD_TEXT.slice(0, 6)]);
  if (s.type === 'boolean') return one([...BAD_BOOLS, NUL]);
  if (s.type === 'array') return [...one([...BAD_TEXT.slice(0, 12), ...BAD_DATES.slice(0, 3), ...BAD_INTS.slice(0, 4)]), Array(300).fill('1'), [',,,'], ['a', 'a']];
  const dateLike = /\\d\{4\}/.test(String(s.pattern ?? ''));
  return one([...BAD_TEXT, ...(dateLike ? BAD_DATES : BAD_DATES.slice(0, 3)), ...BAD_INTS.slice(0, 4)]);
}

/** Malformed JSON argument values for one tool parameter: wrong types as well as bad text. */
function badJsonValues(schema: Json): unknown[] {
  const s = schema.anyOf ? schema.anyOf[0] : schema;
  const typed: unknown[] = [null, true, {}, [], { $gt: '' }, 1e308, -1, 2147483648, 2 ** 53 + 2, 0.5, NUL, '', '0000-01-01', '0001-01-01', 'x'.repeat(5000), "' OR 1=1 --"];
  if (s.type === 'integer' || s.type === 'number') return [...typed, '1', Number.MAX_SAFE_INTEGER, -2147483649];
  if (s.type === 'array') return [...typed, [NUL], Array(500).fill('1'), [null], [{}]];
  return [...typed, ...BAD_DATES, `a${NUL}`];
}

interface Probe {
  label: string;
  send(): Promise<Response>;
}

/** Percent-encodes a path segment; a lone surrogate becomes bytes that are not UTF-8 at all. */
function segment(v: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    return '%ED%A0%80';
  }
}

function pathOf(def: ToolDefinition, params: Record<string, string>): string {
  return def.http.path.replace(/\{([a-z_]+)\+?\}/g, (_m, name: string) => (name in params ? params[name]! : segment(String(sampleOf(name, {})))));
}

function httpProbes(base: string, def: ToolDefinition, key: string): Probe[] {
  const schema = schemasOf(def).input as Json;
  const props: Record<string, Json> = schema.properties ?? {};
  const pathNames = new Set([...def.http.path.matchAll(/\{([a-z_]+)\+?\}/g)].map((m) => m[1]!));
  const baseline: Record<string, unknown> = {};
  for (const name of schema.required ?? []) baseline[name] = sampleOf(name, props[name] ?? {});
  const probes: Probe[] = [];
  const send = (label: string, input: Record<string, unknown>, extraQuery = '') => {
    const pathParams: Record<string, string> = {};
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(input)) {
      if (pathNames.has(k)) pathParams[k] = segment(String(Array.isArray(v) ? v[0] : v));
      else for (const item of Array.isArray(v) ? v : [v]) query.append(k, String(item));
    }
    const qs = query.toString() + extraQuery;
    const url = `${base}${pathOf(def, pathParams)}${qs ? `?${qs}` : ''}`;
    const init: RequestInit =
      def.http.method === 'POST'
        ? { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(Object.fromEntries(Object.entries(input).filter(([k]) => !pathNames.has(k)))) }
        : { headers: { 'x-api-key': key } };
    probes.push({ label: `${def.http.method} ${def.http.path} ${label}`, send: () => fetch(url, init) });
  };
  send('(no parameters)', {});
  send('(unknown parameter)', baseline, '&fiscal_yr_from=2020');
  for (const [name, prop] of Object.entries(props)) {
    for (const values of badQueryValues(prop)) {
      const input = { ...baseline, [name]: values.length === 1 ? values[0] : values };
      send(`${name}=${JSON.stringify(values).slice(0, 40)}`, input);
    }
    if (!pathNames.has(name) && def.http.method === 'GET') send(`${name} twice`, baseline, `&${name}=1&${name}=2`);
  }
  return probes;
}

function toolProbes(base: string, def: ToolDefinition, key: string): Probe[] {
  const schema = schemasOf(def).input as Json;
  const props: Record<string, Json> = schema.properties ?? {};
  const baseline: Record<string, unknown> = {};
  for (const name of schema.required ?? []) baseline[name] = sampleOf(name, props[name] ?? {});
  const probes: Probe[] = [];
  const call = (label: string, args: unknown) =>
    probes.push({
      label: `tool ${toolName(def)} ${label}`,
      send: () =>
        fetch(`${base}/mcp`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: toolName(def), arguments: args } }),
        }),
    });
  for (const args of [null, [], 'x', 42, {}, { unknown: 1 }]) call(`arguments=${JSON.stringify(args)}`, args);
  for (const [name, prop] of Object.entries(props)) {
    for (const v of badJsonValues(prop)) call(`${name}=${JSON.stringify(v)?.slice(0, 40)}`, { ...baseline, [name]: v });
  }
  return probes;
}

const LEAKS: [string, RegExp][] = [
  ['a server path', /(?:\/work\/|\/home\/|\/root\/|\/tmp\/|\/var\/|node_modules|\.ts:\d+)/],
  ['a stack trace', /\n\s+at [\w.<>]+ \(|\bat (?:async )?[\w.]+ \(\/|Error: .*\n\s+at /],
  ['SQL or a PostgreSQL error', /syntax error at or near|invalid input syntax|violates .* constraint|out of range for type|\bSELECT\b[\s\S]*\bFROM\b|relation "|column "|PostgresError|date\/time field value out of range|invalid byte sequence/i],
];

async function check(p: Probe, failures: string[]): Promise<void> {
  let res: Response;
  try {
    res = await p.send();
  } catch (err) {
    failures.push(`${p.label}: no answer (${(err as Error).message})`);
    return;
  }
  const text = await res.text();
  const trace = res.headers.get('x-trace-id');
  if (res.status >= 500) failures.push(`${p.label}: ${res.status} ${text.slice(0, 200)}`);
  if (!trace) failures.push(`${p.label}: no X-Trace-Id`);
  for (const [what, re] of LEAKS) if (re.test(text)) failures.push(`${p.label}: body shows ${what}: ${text.slice(0, 300)}`);
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    failures.push(`${p.label}: body is not JSON`);
    return;
  }
  if (res.status >= 400 && res.url.endsWith('/mcp') === false) {
    const e = body?.error;
    if (!e || e.http_status !== res.status || typeof e.code !== 'string' || typeof e.message !== 'string' || typeof e.details !== 'object' || e.trace_id !== trace) {
      failures.push(`${p.label}: ${res.status} outside the error envelope: ${text.slice(0, 200)}`);
    }
  }
  if (res.url.endsWith('/mcp')) {
    if (res.status !== 200 || body?.jsonrpc !== '2.0') failures.push(`${p.label}: tool server answered ${res.status} ${text.slice(0, 200)}`);
    else if (body.result?.isError) {
      const failure = JSON.parse(body.result.content[0].text);
      if (failure.http_status >= 500) failures.push(`${p.label}: tool failed with ${failure.http_status} ${failure.message}`);
    } else if (!body.result && !(body.error && Number.isInteger(body.error.code))) failures.push(`${p.label}: neither result nor error`);
  }
}

async function runAll(probes: Probe[], concurrency: number): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < probes.length) await check(probes[next++]!, failures);
    }),
  );
  return failures;
}

describe('fuzzing every route and tool from its own schema', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ rateLimits: false });
  });
  after(async () => {
    await svc?.close();
  });

  it('answers thousands of malformed HTTP requests (every route, every parameter) with 4xx envelopes or 2xx, never 5xx, paths, stacks or SQL', async () => {
    const probes = ALL_TOOLS.flatMap((d) => httpProbes(svc.baseUrl, d, svc.keys.enterprise));
    assert.ok(probes.length >= 2000, `only ${probes.length} HTTP probes`);
    const failures = await runAll(probes, 6);
    console.log(`${probes.length} HTTP probes over ${ALL_TOOLS.length} routes`);
    assert.deepEqual(failures.slice(0, 40), [], `${failures.length} of ${probes.length} probes failed`);
  });

  it('answers malformed tools/call arguments of every tool with JSON-RPC errors or tool results, never a 5xx inside', async () => {
    const probes = ALL_TOOLS.filter((d) => d.tool).flatMap((d) => toolProbes(svc.baseUrl, d, svc.keys.enterprise));
    assert.ok(probes.length >= 300, `only ${probes.length} tool probes`);
    const failures = await runAll(probes, 6);
    assert.deepEqual(failures.slice(0, 40), [], `${failures.length} of ${probes.length} probes failed`);
  });

  it('holds on the Free plan too: coverage refusals and malformed input stay 4xx envelopes', async () => {
    const probes = ALL_TOOLS.filter((d) => d.plan === 'free').flatMap((d) => httpProbes(svc.baseUrl, d, svc.keys.free).filter((_p, i) => i % 7 === 0));
    const failures = await runAll(probes, 4);
    assert.deepEqual(failures.slice(0, 40), [], `${failures.length} of ${probes.length} probes failed`);
  });
});
