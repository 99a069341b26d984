import type { HttpMethod, ToolDefinition } from '../api/define-tool.ts';

type Segment = { literal: string } | { param: string } | { rest: string };

interface CompiledRoute {
  def: ToolDefinition;
  segments: Segment[];
  /**
   * literal segments first: /v1/bulk/snapshots/latest beats /v1/bulk/snapshots/{id}; a rest
   * parameter ranks last at its position, so a single {param} wins where both fit
   */
  rank: string;
}

export type RouteMatch =
  | { kind: 'found'; def: ToolDefinition; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: HttpMethod[] }
  | { kind: 'bad_path'; message: string }
  | { kind: 'none' };

/** `{name}` takes one segment; a trailing `{name+}` takes the rest of the path, '/' included. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([a-z_]+)\+?\}/g)].map((m) => m[1]!);
}

function compile(def: ToolDefinition): CompiledRoute {
  const parts = def.http.path.split('/').slice(1);
  const segments = parts.map((s, i): Segment => {
    const m = /^\{([a-z_]+)(\+?)\}$/.exec(s);
    if (!m) return { literal: s };
    if (m[2] !== '+') return { param: m[1]! };
    if (i !== parts.length - 1) throw new Error(`${def.name}: {${m[1]}+} must be the last segment of ${def.http.path}`);
    return { rest: m[1]! };
  });
  return { def, segments, rank: segments.map((s) => ('literal' in s ? '0' : 'param' in s ? '1' : '2')).join('') };
}

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/** A rest parameter becomes a store path: no segment of it may step out of where it is joined. */
function unsafeRestSegment(decoded: string): boolean {
  return decoded === '.' || decoded === '..' || /[/\\\0]/.test(decoded);
}

/** Routes come from the registry only; two definitions on one method and path is a startup error. */
export class Router {
  private readonly routes: CompiledRoute[];

  constructor(defs: readonly ToolDefinition[]) {
    const seen = new Set<string>();
    for (const d of defs) {
      const key = `${d.http.method} ${d.http.path.replace(/\{[a-z_]+\+\}/g, '{+}').replace(/\{[a-z_]+\}/g, '{}')}`;
      if (seen.has(key)) throw new Error(`two definitions claim ${key}`);
      seen.add(key);
    }
    this.routes = defs.map(compile).sort((a, b) => a.rank.localeCompare(b.rank));
  }

  match(method: string, pathname: string): RouteMatch {
    const parts = pathname.split('/').slice(1);
    const allow = new Set<HttpMethod>();
    for (const r of this.routes) {
      const last = r.segments[r.segments.length - 1];
      const hasRest = last !== undefined && 'rest' in last;
      if (hasRest ? parts.length < r.segments.length : parts.length !== r.segments.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < r.segments.length && ok; i++) {
        const seg = r.segments[i]!;
        const part = parts[i]!;
        if ('literal' in seg) ok = seg.literal === part;
        else if ('param' in seg) {
          if (part === '') ok = false;
          else {
            const decoded = decode(part);
            if (decoded === null) return { kind: 'bad_path', message: `path segment "${part}" is not valid percent-encoding` };
            params[seg.param] = decoded;
          }
        } else {
          const rest = parts.slice(i);
          if (rest.includes('')) ok = false;
          else {
            const decoded: string[] = [];
            for (const p of rest) {
              const d = decode(p);
              if (d === null) return { kind: 'bad_path', message: `path segment "${p}" is not valid percent-encoding` };
              if (unsafeRestSegment(d)) {
                return { kind: 'bad_path', message: `path segment "${p}" of {${seg.rest}} is not allowed: no ".", "..", "/", "\\" or NUL in a segment` };
              }
              decoded.push(d);
            }
            params[seg.rest] = decoded.join('/');
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
