import type { ToolDefinition } from '../../api/define-tool.ts';
import { RESTATEMENT_ALERT_TOOLS } from './alerts.ts';
import { RESTATEMENT_ANALYSIS_TOOLS } from './analysis.ts';
import { RESTATEMENT_DELTA_TOOLS } from './delta.ts';

/**
 * Restatements and version analytics: alert events and fact revisions, deltas, timeline and
 * ledger of one statement's versions, and per-metric drift and model impact across them.
 */
export const RESTATEMENT_TOOLS: ToolDefinition[] = [...RESTATEMENT_ALERT_TOOLS, ...RESTATEMENT_DELTA_TOOLS, ...RESTATEMENT_ANALYSIS_TOOLS];
