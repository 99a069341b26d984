import { toolName, type ToolDefinition } from '../api/define-tool.ts';
import { PLAN_LABELS, PLANS, RATE_LIMITS, REQUEST_CLASSES } from '../domain/plans.ts';
import { ERROR_CODES } from '../domain/service-error.ts';
import { DATASETS } from '../domain/bulk/datasets.ts';
import { cell, markdownTable, readBlock, replaceBlock } from './doc-blocks.ts';

/**
 * The parts of the documentation generated from the code (the registry `tools/index.ts` ALL_TOOLS,
 * the error table, the plans' budgets), in the manner of github-mcp-server's generate_docs: `npm run docs` writes them between their markers,
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

/** docs/interface.md: every error code, its HTTP status, its type on the tool server and whether a retry can help. */
export function errorTable(): string {
  return markdownTable(
    ['code', 'HTTP status', 'tool-server `type`', 'retryable'],
    Object.entries(ERROR_CODES).map(([code, e]) => [`\`${code}\``, String(e.status), `\`${e.type}\``, e.retryable ? 'yes' : 'no']),
  );
}

/** docs/interface.md: requests per window, per plan and request class. */
export function budgetTable(): string {
  return markdownTable(
    ['plan', ...REQUEST_CLASSES.map((c) => `\`${c}\``)],
    PLANS.map((p) => [PLAN_LABELS[p], ...REQUEST_CLASSES.map((c) => (RATE_LIMITS[p][c].limit === 0 ? 'not available' : `${RATE_LIMITS[p][c].limit.toLocaleString('en-US')} per ${RATE_LIMITS[p][c].window_s} s`))]),
  );
}

/** docs/bulk-export.md: the datasets of a snapshot, from their definitions. */
export function datasetTable(): string {
  return markdownTable(
    ['dataset', 'key', 'partitioned by', 'rows per part file', 'columns', 'what'],
    DATASETS.map((d) => [
      `\`${d.dataset}\``,
      d.key.map((k) => `\`${k}\``).join(', '),
      d.partition_column ? `\`${d.partition_column}\`` : 'none',
      d.rows_per_file.toLocaleString('en-US'),
      String(d.columns.length),
      cell(d.description),
    ]),
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
  { file: 'docs/interface.md', name: 'error-codes', render: errorTable },
  { file: 'docs/interface.md', name: 'request-budgets', render: budgetTable },
  { file: 'docs/bulk-export.md', name: 'datasets', render: datasetTable },
];

/** The file's text with the block rendered from `defs`. */
export function refreshed(text: string, block: GeneratedBlock, defs: readonly ToolDefinition[]): string {
  return replaceBlock(text, block.name, block.render(defs));
}

/** Whether the committed block equals what the registry gives. */
export function isCurrent(text: string, block: GeneratedBlock, defs: readonly ToolDefinition[]): boolean {
  return readBlock(text, block.name) === block.render(defs);
}
