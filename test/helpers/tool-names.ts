import { ALL_TOOLS } from '../../tools/index.ts';
import { toolName } from '../../api/define-tool.ts';

/**
 * The tool names every tool-server listing must show: the registry's tools, sorted. Surface tests
 * compare against this; test/unit/registry.test.ts separately pins each name and plan to the spec.
 */
export const LISTED_TOOL_NAMES: readonly string[] = ALL_TOOLS.filter((d) => d.tool).map(toolName).sort();

/**
 * Tools that change something (query_execute records a manifest, modeling_pit_snapshot builds a
 * snapshot); every other tool is read-only.
 */
export const WRITING_TOOL_NAMES: readonly string[] = ['modeling_pit_snapshot', 'query_execute'];
