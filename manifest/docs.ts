import { toolName, type ToolDefinition } from '../api/define-tool.ts';
import { PLAN_LABELS } from '../domain/plans.ts';
import { cell, markdownTable, readBlock, replaceBlock } from './doc-blocks.ts';

/**
 * The parts of the documentation generated from the registry (`tools/index.ts` ALL_TOOLS), in the
 * manner of github-mcp-server's generate_docs: `npm run docs` writes them between their markers,
 * and test/docs.test.ts fails when a committed file differs from what the registry gives.
 */

const route = (d: ToolDefinition) => `\`${d.http.method} ${d.http.path}\``;
const writes = (d: ToolDefinition) => (d.annotations.readOnlyHint ? '' : ' (writes)');

/** README: every tool of the tool server, in tools/list order. */
export function toolTable(defs: readonly ToolDefinition[]): string {
  const tools = defs.filter((d) => d.tool);
  return markdownTable(
    ['tool', 'plan', 'HTTP route', 'answers'],
    tools.map((d) => [`\`${toolName(d)}\``, PLAN_LABELS[d.plan], route(d), cell(d.title) + writes(d)]),
  );
}

/** docs/interface.md: every route, in registry order, with its tool when it has one. */
export function routeTable(defs: readonly ToolDefinition[]): string {
  return markdownTable(
    ['route', 'plan', 'key', 'tool', 'answers'],
    defs.map((d) => [route(d), PLAN_LABELS[d.plan], d.auth === 'key' ? 'yes' : 'no', d.tool ? `\`${toolName(d)}\`` : '', cell(d.title) + writes(d)]),
  );
}

/** One generated block: the file it lives in (from the repository root), its name, its body. */
export interface GeneratedBlock {
  file: string;
  name: string;
  render: (defs: readonly ToolDefinition[]) => string;
}

export const REGISTRY_BLOCKS: readonly GeneratedBlock[] = [
  { file: 'README.md', name: 'tool-table', render: toolTable },
  { file: 'docs/interface.md', name: 'route-table', render: routeTable },
];

/** The file's text with the block rendered from `defs`. */
export function refreshed(text: string, block: GeneratedBlock, defs: readonly ToolDefinition[]): string {
  return replaceBlock(text, block.name, block.render(defs));
}

/** Whether the committed block equals what the registry gives. */
export function isCurrent(text: string, block: GeneratedBlock, defs: readonly ToolDefinition[]): boolean {
  return readBlock(text, block.name) === block.render(defs);
}
