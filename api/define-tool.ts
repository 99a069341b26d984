import type { z } from 'zod';
import type { Plan, RequestClass } from '../domain/plans.ts';
import type { Services } from './services.ts';
import type { AuthContext } from './auth.ts';

export type HttpMethod = 'GET' | 'POST';

/** MCP tool annotations (hints for agents; every tool of ours reads and never mutates by default). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a handler gets besides its input: the services, who is calling, and the trace. */
export interface ToolContext {
  services: Services;
  /** null only for definitions with auth 'none' */
  auth: AuthContext | null;
  traceId: string;
  requestId: string;
  surface: 'http' | 'mcp';
  /**
   * Report companies a handler reached that its input did not name directly (a ticker resolved
   * to a CIK). Goes through the same coverage gate as `companies(input)`.
   */
  reach(ciks: string[]): Promise<void>;
  /**
   * For lists that span companies: the companies this caller may see (a Free-plan key's held
   * ones), or null for every company (paid plans, and definitions without a key).
   */
  visibleCompanies(): Promise<string[] | null>;
  /**
   * Call another registered definition by name, as this caller: the same plan gate, input
   * validation, coverage gate and handler a request to it would pass (no second request budget).
   * Lets a handler (the deterministic queries) follow exactly the rules of the routes it reads
   * without importing another area. Resolves to that definition's output; throws its ServiceError.
   */
  invoke(name: string, input: Record<string, unknown>): Promise<unknown>;
}

/**
 * A handler definition is plain data. Both surfaces are generated from it: the HTTP route (path,
 * parameters, OpenAPI) and, when `tool` is true, the tool-server tool (name with `_` for `.`).
 * Written with its own input and output schemas (`defineTool` checks the handler against them).
 */
export interface ToolDefinitionOf<I extends z.ZodObject, O extends z.ZodType> {
  /** dotted method name, e.g. `companies.resolve`; the tool name is `companies_resolve` */
  name: string;
  title: string;
  /** written for an agent: what it returns, when to use it, how to recover from common errors */
  description: string;
  http: { method: HttpMethod; path: string };
  /** listed on the tool server (tools/list, tools/call) */
  tool: boolean;
  /**
   * Where a listed tool comes from: 'spec', a tool of the spec's tool table (its name and plan are
   * the spec's); 'extension', a route the tool server also lists so agents reach it (named by the
   * spec's rule, the route's plan). Every tool says which; routes that are not tools leave it out.
   */
  listedAs?: 'spec' | 'extension';
  /** lowest plan that may call it */
  plan: Plan;
  /** 'none' for liveness/readiness probes; everything else needs X-Api-Key */
  auth: 'key' | 'none';
  /** answers while start-up loading is still running (progress reads); other keyed routes answer 503 then */
  servesWhileLoading?: boolean;
  /** budget class on HTTP; calls through the tool server always count as 'tool_server' */
  requestClass: RequestClass;
  /** path + query + body parameters, one object; validated at the edge on both surfaces */
  input: I;
  output: O;
  /** CIKs the request reaches, for the Free-plan coverage gate */
  companies?: (input: z.output<I>) => string[];
  /**
   * HTTP status of a successful answer when it is not always 200 (readiness answers 503 while
   * loading, a snapshot build 202 while it runs): `of` picks it from the output, `documented` names
   * every status other than 200 that `of` can give, for the OpenAPI document.
   */
  httpStatus?: { of: (output: z.output<O>) => number; documented: Record<string, string> };
  annotations: ToolAnnotations;
  /**
   * 'immutable': the answer for a URL never changes (it is keyed by a statement version id, and a
   * version is never rewritten), so HTTP caches may keep it for a year (Cache-Control immutable)
   */
  cache?: 'immutable';
  handler: (ctx: ToolContext, input: z.output<I>) => Promise<z.input<O>>;
}

/**
 * A definition as the registry holds it: the same data, its functions taking what the seam hands
 * them. The seam calls `companies` and `handler` only with the value the definition's own input
 * schema parsed, and `httpStatus.of` only with its handler's output; `defineTool` is where each
 * definition's types were checked.
 */
export interface ToolDefinition extends Omit<ToolDefinitionOf<z.ZodObject, z.ZodType>, 'companies' | 'httpStatus' | 'handler'> {
  companies?: (input: unknown) => string[];
  httpStatus?: { of: (output: unknown) => number; documented: Record<string, string> };
  handler: (ctx: ToolContext, input: unknown) => Promise<unknown>;
}

type Optional = 'auth' | 'requestClass' | 'annotations';

export type ToolSpec<I extends z.ZodObject, O extends z.ZodType> = Omit<ToolDefinitionOf<I, O>, Optional> &
  Partial<Pick<ToolDefinitionOf<I, O>, 'auth' | 'requestClass'>> & { annotations?: Partial<ToolAnnotations> };

const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

export function defineTool<I extends z.ZodObject, O extends z.ZodType>(spec: ToolSpec<I, O>): ToolDefinition {
  const { companies, httpStatus, handler, ...data } = spec;
  // The seam passes these functions only what `spec.input` parsed (and the handler's own output).
  const parsed = (input: unknown) => input as z.output<I>;
  return {
    ...data,
    auth: spec.auth ?? 'key',
    requestClass: spec.requestClass ?? 'standard',
    annotations: { ...READ_ONLY, ...spec.annotations },
    ...(companies ? { companies: (input: unknown) => companies(parsed(input)) } : {}),
    ...(httpStatus ? { httpStatus: { of: (output: unknown) => httpStatus.of(output as z.output<O>), documented: httpStatus.documented } } : {}),
    handler: (ctx, input) => handler(ctx, parsed(input)),
  };
}

/** `companies.resolve` -> `companies_resolve` */
export function toolName(def: Pick<ToolDefinition, 'name'>): string {
  return def.name.replace(/\./g, '_');
}
