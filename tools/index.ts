import { COVERAGE_TOOLS } from './coverage/tools.ts';
import type { ToolDefinition } from '../api/define-tool.ts';
import { DQ_TOOLS } from './data-quality/tools.ts';
import { MODELING_TOOLS } from './modeling/tools.ts';
import { AI_TOOLS } from './ai/tools.ts';
import { IDENTITY_TOOLS } from './identity/tools.ts';
import { INGESTION_TOOLS } from './system/ingestion.ts';
import { PACKAGE_TOOLS } from './packages/tools.ts';
import { BULK_TOOLS } from './bulk/tools.ts';
import { FILING_TOOLS } from './filings/tools.ts';
import { RESTATEMENT_TOOLS } from './restatements/tools.ts';
import { PROVENANCE_TOOLS } from './provenance/tools.ts';
import { CATALOG_TOOLS } from './catalog/tools.ts';
import { SERIES_TOOLS } from './series/tools.ts';
import { RECONCILIATION_TOOLS } from './reconciliation/tools.ts';
import { SELECTION_TOOLS } from './coverage/selection.ts';
import { STATEMENT_TOOLS } from './statements/tools.ts';
import { SYSTEM_TOOLS } from './system/tools.ts';
import { MACRO_TOOLS } from './macro/tools.ts';
import { QUERY_TOOLS } from './queries/tools.ts';
import { SCREEN_TOOLS } from './screens/tools.ts';

/**
 * The registry: the single list every surface is generated from. Its order is the tools/list
 * order. A definition joins only when its handler is real; nothing registers itself.
 */
export const ALL_TOOLS: readonly ToolDefinition[] = [...IDENTITY_TOOLS, ...STATEMENT_TOOLS, ...FILING_TOOLS, ...RESTATEMENT_TOOLS, ...PROVENANCE_TOOLS, ...CATALOG_TOOLS, ...SERIES_TOOLS, ...SCREEN_TOOLS, ...PACKAGE_TOOLS, ...BULK_TOOLS, ...SYSTEM_TOOLS, ...INGESTION_TOOLS, ...RECONCILIATION_TOOLS, ...SELECTION_TOOLS, ...COVERAGE_TOOLS, ...DQ_TOOLS, ...MACRO_TOOLS, ...QUERY_TOOLS, ...MODELING_TOOLS, ...AI_TOOLS];
