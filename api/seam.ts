import type { z } from 'zod';
import { planAllows, PLAN_LABELS, RATE_LIMITS, type RequestClass } from '../domain/plans.ts';
import type { RateDecision } from '../domain/rate-limit.ts';
import { ServiceError, toServiceError } from '../domain/service-error.ts';
import type { AuthContext } from './auth.ts';
import type { ToolContext, ToolDefinition } from './define-tool.ts';
import type { Services } from './services.ts';

/** Who is calling and through which surface; the seam needs nothing else from HTTP or JSON-RPC. */
export interface CallMeta {
  apiKey: string | undefined;
  traceId: string;
  requestId: string;
  surface: 'http' | 'mcp';
  /** HEAD: answer as GET would, but count nothing against the budget (what is left is still reported) */
  peekBudget?: boolean;
}

/** Who the call turned out to be, for the request log and metrics (null before the key was read). */
export interface CallerOf {
  org: string;
  plan: string;
}

/** The budget decision rides along either way: RateLimit headers go on successes and failures. */
export type CallOutcome =
  | { ok: true; output: unknown; rate: RateDecision | null; ms: number; caller: CallerOf | null }
  | { ok: false; error: ServiceError; rate: RateDecision | null; ms: number; caller: CallerOf | null };

export interface InputIssue {
  path: string;
  message: string;
  code: string;
}

export type ParsedInput = { ok: true; value: unknown } | { ok: false; issues: InputIssue[] };

/**
 * How deeply an input may nest objects and arrays. Our deepest input (query.execute's parameters,
 * a list inside an object inside the arguments) is three levels; a 1 MiB body can nest half a
 * million, and walking that recursively overflowed the stack (a 500 instead of a 400).
 */
export const MAX_INPUT_DEPTH = 32;

/** At most this many issues are reported: 100,000 bad array items made a 10 MB error reply. */
export const MAX_REPORTED_ISSUES = 20;

/**
 * The longest text any input may hold (a value or a key). No parameter needs more (the longest are
 * search text and comma-joined lists, split before validation); without it an unknown 900 KB
 * metric name came back whole in its error message.
 */
export const MAX_TEXT_LENGTH = 4_096;

/**
 * What no input of any definition may hold, checked here once for every schema, without
 * recursion: text (values and keys) with NUL, which PostgreSQL text cannot store (U+0000), text
 * longer than MAX_TEXT_LENGTH, and nesting deeper than MAX_INPUT_DEPTH. Stops at the first MAX_REPORTED_ISSUES.
 */
function sharedRuleIssues(value: unknown): InputIssue[] {
  const issues: InputIssue[] = [];
  const nul = (path: string[]) => ({ path: path.join('.') || '(input)', message: 'text may not contain a NUL character (U+0000)', code: 'invalid_string' });
  const tooLong = (path: string[]) => ({ path: path.join('.') || '(input)', message: `text may be at most ${MAX_TEXT_LENGTH} characters long`, code: 'too_big' });
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  while (stack.length > 0 && issues.length < MAX_REPORTED_ISSUES) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.length > MAX_TEXT_LENGTH) issues.push(tooLong(path));
      else if (v.includes('\u0000')) issues.push(nul(path));
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (path.length >= MAX_INPUT_DEPTH) {
      return [{ path: path.slice(0, 4).join('.') + '…', message: `input nests objects or arrays more than ${MAX_INPUT_DEPTH} levels deep`, code: 'too_deep' }];
    }
    const entries = Array.isArray(v) ? v.map((item, i) => [String(i), item] as const) : Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, item] = entries[i]!;
      if (!Array.isArray(v) && k.length > MAX_TEXT_LENGTH) issues.push(tooLong([...path, k.slice(0, 40) + '…']));
      else if (!Array.isArray(v) && k.includes('\u0000')) issues.push(nul([...path, k]));
      stack.push({ value: item, path: [...path, k] });
    }
  }
  return issues.slice(0, MAX_REPORTED_ISSUES);
}

/** The one validation both surfaces use: the definition's zod schema, after the rules every input shares. */
export function parseInput(def: ToolDefinition, raw: unknown): ParsedInput {
  const shared = sharedRuleIssues(raw);
  if (shared.length > 0) return { ok: false, issues: shared };
  const r = def.input.safeParse(raw ?? {});
  if (r.success) return { ok: true, value: r.data };
  return {
    ok: false,
    issues: r.error.issues.slice(0, MAX_REPORTED_ISSUES).map((i: z.core.$ZodIssue) => ({
      path: i.path.map(String).join('.') || '(input)',
      message: i.message,
      code: i.code,
    })),
  };
}

export function validationError(all: InputIssue[]): ServiceError {
  const issues = all.slice(0, MAX_REPORTED_ISSUES);
  const summary = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  return new ServiceError('VALIDATION_ERROR', `Invalid input: ${summary}`, { issues });
}

/**
 * The seam every call passes through, on both surfaces: API key -> organization and plan, request
 * budget, plan gate, input validation (unless the surface validated already), Free-plan coverage,
 * the handler, timing (Server-Timing on HTTP). Never throws: a failure comes back as a
 * ServiceError for the surface to map.
 */
export async function runTool(
  services: Services,
  def: ToolDefinition,
  input: { raw: unknown } | { parsed: unknown },
  meta: CallMeta,
): Promise<CallOutcome> {
  const started = performance.now();
  let rate: RateDecision | null = null;
  let auth: AuthContext | null = null;
  const callerOf = () => (auth ? { org: auth.orgName, plan: auth.plan } : null);
  try {
    if (def.auth === 'key') {
      // Partial data must not look like an answer: data routes wait until loading is done.
      if (services.status.phase !== 'ready' && !(def.servesWhileLoading && services.status.phase === 'loading')) {
        throw new ServiceError(
          'SERVICE_UNAVAILABLE',
          `The service is ${services.status.phase} (${services.status.progress ?? 'starting up'}); retry shortly.`,
          { phase: services.status.phase },
          { retryAfterS: 10 },
        );
      }
      auth = await services.authenticator.authenticate(meta.apiKey);
      const budget = await takeBudget(services, auth, meta.surface === 'mcp' ? 'tool_server' : def.requestClass, meta.peekBudget === true);
      rate = budget.decision;
      if (budget.error) throw budget.error;
      if (!planAllows(auth.plan, def.plan)) throw planError(def, auth);
    }

    let value: unknown;
    if ('parsed' in input) value = input.parsed;
    else {
      const parsed = parseInput(def, input.raw);
      if (!parsed.ok) throw validationError(parsed.issues);
      value = parsed.value;
    }

    const output = await callDefinition(services, def, auth, value, meta);
    return { ok: true, output, rate, ms: performance.now() - started, caller: callerOf() };
  } catch (err) {
    const error = toServiceError(err);
    if (error.code === 'INTERNAL_ERROR') {
      services.logger.error({ trace_id: meta.traceId, route: def.name, err: error.cause }, `${def.name} failed`);
    }
    return { ok: false, error, rate, ms: performance.now() - started, caller: callerOf() };
  }
}

/** Coverage gate, handler and output check: the part of the seam an inner invocation repeats. */
async function callDefinition(services: Services, def: ToolDefinition, auth: AuthContext | null, value: unknown, meta: CallMeta): Promise<unknown> {
  const reach = async (ciks: string[]) => {
    if (auth && ciks.length > 0) await services.coverage.admit(auth, ciks, services.now());
  };
  if (def.companies) await reach(def.companies(value));
  const ctx: ToolContext = {
    services,
    auth,
    traceId: meta.traceId,
    requestId: meta.requestId,
    surface: meta.surface,
    reach,
    visibleCompanies: async () => (auth ? services.coverage.visible(auth, services.now()) : null),
    invoke: (name, raw) => invokeByName(services, name, raw, auth, meta),
  };
  const output = await def.handler(ctx, value);
  if (services.checkOutputs) assertOutput(def, output);
  return output;
}

/**
 * A definition called by another handler (ToolContext.invoke): plan gate, the definition's own
 * input validation, then coverage and handler as for a request. The outer request already paid
 * its budget. An unknown name is a programming error, so it surfaces as a server fault.
 */
async function invokeByName(services: Services, name: string, raw: Record<string, unknown>, auth: AuthContext | null, meta: CallMeta): Promise<unknown> {
  const def = services.registry.get(name);
  if (!def) throw new Error(`invoke: no registered definition ${name}`);
  if (def.auth === 'key' && auth && !planAllows(auth.plan, def.plan)) throw planError(def, auth);
  const parsed = parseInput(def, raw);
  if (!parsed.ok) throw validationError(parsed.issues);
  return callDefinition(services, def, auth, parsed.value, meta);
}

async function takeBudget(
  services: Services,
  auth: AuthContext,
  cls: RequestClass,
  peek: boolean,
): Promise<{ decision: RateDecision | null; error?: ServiceError }> {
  if (!services.config.rateLimits) return { decision: null };
  const budget = RATE_LIMITS[auth.plan][cls];
  // Bulk budgets are 0 below Scale; those plans are refused by the plan gate, not by a 429.
  if (budget.limit === 0) return { decision: null };
  const bucket = `${auth.keyId}:${cls}`;
  const d = peek ? await services.budgets.peek(bucket, budget) : await services.budgets.take(bucket, budget);
  if (!d.allowed) {
    const error = new ServiceError(
      'RATE_LIMITED',
      `Request budget of ${d.limit} per ${d.window_s}s for ${cls} requests on the ${PLAN_LABELS[auth.plan]} plan is spent; retry in ${d.reset_s}s.`,
      { request_class: cls, limit: d.limit, window_s: d.window_s, plan: auth.plan },
      { retryAfterS: d.reset_s },
    );
    return { decision: d, error };
  }
  return { decision: d };
}

/** The plan gate's refusal (403 FEATURE_NOT_AVAILABLE); also used by replays of recorded reads. */
export function planError(def: Pick<ToolDefinition, 'name' | 'plan' | 'requestClass'>, auth: AuthContext): ServiceError {
  const details: Record<string, unknown> = { required_plan: def.plan, current_plan: auth.plan };
  if (def.requestClass === 'bulk') details.required_tier = def.plan;
  return new ServiceError(
    'FEATURE_NOT_AVAILABLE',
    `${def.name} requires the ${PLAN_LABELS[def.plan]} plan or higher; this key is on the ${PLAN_LABELS[auth.plan]} plan.`,
    details,
  );
}

/** Test and development guard: what a handler returns must match the schema agents were shown. */
function assertOutput(def: ToolDefinition, output: unknown): void {
  const r = def.output.safeParse(output);
  if (!r.success) {
    throw new Error(`${def.name} returned output that does not match its schema: ${JSON.stringify(r.error.issues.slice(0, 5))}`);
  }
}
