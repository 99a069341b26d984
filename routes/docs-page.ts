import type { z } from 'zod';
import { toolName, type ToolDefinition } from '../api/define-tool.ts';
import { inputJsonSchema } from '../api/json-schema.ts';
import type { ServerInfo } from '../api/jsonrpc.ts';
import { pathParamNames } from './router.ts';
import { openApiPath } from './openapi.ts';

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function typeOf(schema: Record<string, unknown>): string {
  if (schema.type === 'array') return `${typeOf((schema.items as Record<string, unknown>) ?? {})}[] (repeatable)`;
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).join(' | ');
  return String(schema.type ?? 'any') + (schema.format ? ` (${String(schema.format)})` : '');
}

function section(def: ToolDefinition): string {
  const inPath = new Set(pathParamNames(def.http.path));
  const input = inputJsonSchema(def.input);
  const required = new Set((input.required as string[] | undefined) ?? []);
  const rows = Object.entries(def.input.shape as Record<string, z.ZodType>).map(([name, field]) => {
    const s = inputJsonSchema(field);
    const where = inPath.has(name) ? 'path' : def.http.method === 'GET' ? 'query' : 'body';
    const dflt = s.default !== undefined ? ` (default ${esc(JSON.stringify(s.default))})` : '';
    return `<tr><td><code>${esc(name)}</code></td><td>${where}</td><td>${esc(typeOf(s))}</td><td>${required.has(name) || where === 'path' ? 'yes' : 'no'}</td><td>${esc(String(s.description ?? ''))}${dflt}</td></tr>`;
  });
  const tool = def.tool ? ` · tool <code>${esc(toolName(def))}</code>` : '';
  const key = def.auth === 'none' ? 'no key' : `plan ${esc(def.plan)}+`;
  return `<section id="${esc(def.name)}">
<h3><span class="m">${def.http.method}</span> <code>${esc(openApiPath(def.http.path))}</code></h3>
<p class="meta">${esc(def.name)} · ${key}${tool}</p>
<p>${esc(def.description)}</p>
${rows.length ? `<table><tr><th>parameter</th><th>in</th><th>type</th><th>required</th><th>description</th></tr>${rows.join('')}</table>` : '<p><em>No parameters.</em></p>'}
</section>`;
}

/** The browsable reference (GET /docs), generated from the registry like everything else. */
export function renderDocsPage(tools: readonly ToolDefinition[], info: ServerInfo): string {
  const byArea = new Map<string, ToolDefinition[]>();
  for (const t of tools) {
    const a = t.name.split('.')[0]!;
    byArea.set(a, [...(byArea.get(a) ?? []), t]);
  }
  const toc = [...byArea.keys()].map((a) => `<a href="#area-${esc(a)}">${esc(a)}</a>`).join(' · ');
  const body = [...byArea]
    .map(([a, defs]) => `<h2 id="area-${esc(a)}">${esc(a)}</h2>${defs.map(section).join('\n')}`)
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(info.title)} reference</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#222}
code{background:#f3f3f3;padding:0 .25em;border-radius:3px}table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}
td,th{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}th{background:#fafafa}
.m{background:#234;color:#fff;padding:0 .4em;border-radius:3px;font-size:.85em}.meta{color:#666;margin:0}section{margin-bottom:1.5rem}</style></head>
<body><h1>${esc(info.title)} <small>${esc(info.version)}</small></h1>
<p>Generated from the tool registry. Machine-readable: <a href="/openapi.json">/openapi.json</a> · tool server: <code>POST /mcp</code> (JSON-RPC 2.0), manifest <a href="/mcp/manifest">/mcp/manifest</a>.</p>
<p>Send <code>X-Api-Key</code> on every <code>/v1</code> call. Errors: <code>{ "error": { code, http_status, message, details, trace_id } }</code>. Lists: <code>{ page, page_size, total, items }</code>. Decimals are strings.</p>
<p>${toc}</p>
${body}
</body></html>`;
}
