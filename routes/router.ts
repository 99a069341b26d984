import type { HttpMethod, ToolDefinition } from '../tools/define-tool.ts';

interface CompiledRoute {
  def: ToolDefinition;
  segments: ({ literal: string } | { param: string })[];
  /** literal segments first: /v1/bulk/snapshots/latest beats /v1/bulk/snapshots/{id} */
  rank: string;
}

export type RouteMatch =
  | { kind: 'found'; def: ToolDefinition; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: HttpMethod[] }
  | { kind: 'bad_path'; message: string }
  | { kind: 'none' };

export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!);
}

function compile(def: ToolDefinition): CompiledRoute {
  const segments = def.http.path
    .split('/')
    .slice(1)
    .map((s) => {
      const m = /^\{([a-z_]+)\}$/.exec(s);
      return m ? { param: m[1]! } : { literal: s };
    });
  return { def, segments, rank: segments.map((s) => ('literal' in s ? '0' : '1')).join('') };
}

/** Routes come from the registry only; two definitions on one method and path is a startup error. */
export class Router {
  private readonly routes: CompiledRoute[];

  constructor(defs: readonly ToolDefinition[]) {
    const seen = new Set<string>();
    for (const d of defs) {
      const key = `${d.http.method} ${d.http.path.replace(/\{[a-z_]+\}/g, '{}')}`;
      if (seen.has(key)) throw new Error(`two definitions claim ${key}`);
      seen.add(key);
    }
    this.routes = defs.map(compile).sort((a, b) => a.rank.localeCompare(b.rank));
  }

  match(method: string, pathname: string): RouteMatch {
    const parts = pathname.split('/').slice(1);
    const allow = new Set<HttpMethod>();
    for (const r of this.routes) {
      if (r.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const seg = r.segments[i]!;
        const part = parts[i]!;
        if ('literal' in seg) ok = seg.literal === part;
        else if (part === '') ok = false;
        else {
          try {
            params[seg.param] = decodeURIComponent(part);
          } catch {
            return { kind: 'bad_path', message: `path segment "${part}" is not valid percent-encoding` };
          }
        }
      }
      if (!ok) continue;
      // HEAD is GET without a body (node drops it): probes and link checkers use it.
      if (r.def.http.method === method || (method === 'HEAD' && r.def.http.method === 'GET')) {
        return { kind: 'found', def: r.def, params };
      }
      allow.add(r.def.http.method);
    }
    return allow.size > 0 ? { kind: 'method_not_allowed', allow: [...allow] } : { kind: 'none' };
  }
}
