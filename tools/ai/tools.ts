/**
 * The AI area: narratives and embeddings generated as artifacts of a built modeling snapshot,
 * anomaly explanations of the company's data-quality findings and reconciliation failures, and
 * peers by the financial-profile embedding. Everything is deterministic and grounded (domain/ai/);
 * no language model writes any answer. Keyed by company_id and an as_of naming a built snapshot.
 */
import { z } from 'zod';
import { CompanyIdParam, companySnapshot, snapshotFields, type CompanySnapshot } from '../../api/company-snapshot.ts';
import { defineTool, type ToolContext } from '../../api/define-tool.ts';
import { dataEnvelope, IsoDate, PageParams, pageOf, paginated, StatementTypeParam, Uuid } from '../../api/schemas.ts';
import { narrativesPage, snapshotEmbeddings, loadAnomalyInputs } from './queries.ts';
import { EXPLANATION_GENERATOR, explainAnomalies, type AnomalyExplanation } from '../../domain/ai/anomalies.ts';
import type { Claim } from '../../domain/ai/claims.ts';
import { CLIP, EMBEDDING_DIMENSIONS, FEATURES } from '../../domain/ai/embedding.ts';
import { NARRATIVE_TYPES, type Narrative } from '../../domain/ai/narratives.ts';
import { findPeers } from '../../domain/ai/peers.ts';
import { wireDecimal, wireDecimalOrNull } from '../../domain/decimal.ts';
import type { FiscalPeriod } from '../../domain/statement-types.ts';
import { EmbeddingMetadata, ExplanationItem, NarrativeItem, PeerItem } from './shapes.ts';

const AS_OF = IsoDate.describe('date (YYYY-MM-DD) of a built modeling snapshot (modeling_pit_snapshot with this as_of_date); NOT_FOUND when none is built');
const READ_NOTE =
  'Needs company_id (our UUID: field company_id of identity_search or of the identity records; a CIK is refused) and as_of naming a built modeling snapshot (NOT_FOUND otherwise; build one with modeling_pit_snapshot). ' +
  'An empty result means nothing was generated for that company and date (the snapshot did not include it, or its figures allow none).';

const wireClaim = (c: Claim) => ({
  ...c,
  from: c.from ? { ...c.from, value: wireDecimal(c.from.value) } : null,
  to: { ...c.to, value: wireDecimal(c.to.value) },
  change: wireDecimal(c.change),
  relative_change: wireDecimalOrNull(c.relative_change),
});

function companyIdOf(s: CompanySnapshot, companyId: string) {
  return { company_id: companyId, cik: s.cik, ...snapshotFields(s.snapshot) };
}

export const aiNarratives = defineTool({
  name: 'ai.narratives',
  title: 'Generated narratives of a company (grounded, with claims)',
  description:
    'Narratives generated when the snapshot was built, one per statement period with something to compare, newest first. ' +
    'CHANGE_SUMMARY: the anchor line and the material lines that changed most against the prior period and the same period a year before; ' +
    'MARGINS_MOVE: gross, operating and net margin against a year before with the lines (as shares of revenue) that moved them; ' +
    'ROIC_CHANGE: the ROIC change split into operating-margin, invested-capital-turnover and tax effects. ' +
    'Each comes with claims (metric, periods, exact values, change, statement_version_ids); every number in the text is printed by a claim of its sentence. ' +
    `MARGINS_MOVE and ROIC_CHANGE exist for INCOME_STATEMENT only. ${READ_NOTE}`,
  http: { method: 'GET', path: '/v1/ai/companies/{company_id}/narratives' },
  tool: true,
  listedAs: 'spec',
  plan: 'growth',
  input: z.object({
    company_id: CompanyIdParam,
    as_of: AS_OF,
    narrative_type: z.enum(NARRATIVE_TYPES).describe('CHANGE_SUMMARY, MARGINS_MOVE or ROIC_CHANGE'),
    statement_type: StatementTypeParam.default('INCOME_STATEMENT').describe('statement the narratives are about; default INCOME_STATEMENT'),
    ...PageParams,
  }),
  output: paginated(NarrativeItem),
  handler: async (ctx, input) => {
    const s = await companySnapshot(ctx, input.company_id, input.as_of);
    if (!s.included) return pageOf([], 0, input.page, input.page_size);
    const { total, rows } = await narrativesPage(ctx.services.sql, s.snapshot.as_of_snapshot_id, s.cik, input.narrative_type, input.statement_type, {
      limit: input.page_size,
      offset: (input.page - 1) * input.page_size,
    });
    const items = rows.map((n: Narrative) => ({ ...n, ...companyIdOf(s, input.company_id), fiscal_period: n.fiscal_period as FiscalPeriod, claims: n.claims.map(wireClaim) }));
    return pageOf(items, total, input.page, input.page_size);
  },
});

function wireExplanation(x: AnomalyExplanation) {
  return {
    ...x,
    amount: x.amount && {
      ...x.amount,
      expected_value: wireDecimal(x.amount.expected_value),
      actual_value: wireDecimal(x.amount.actual_value),
      delta: wireDecimal(x.amount.delta),
      tolerance: wireDecimal(x.amount.tolerance),
    },
    evidence: x.evidence.map((e) => ({ ...e, value: wireDecimalOrNull(e.value) })),
    compared: x.compared.map((c) => ({ ...c, value: wireDecimalOrNull(c.value) })),
    served: { ...x.served, value: wireDecimalOrNull(x.served.value) },
  };
}

export const aiAnomalyExplanations = defineTool({
  name: 'ai.anomalies.explanations',
  title: 'Anomaly explanations of a company',
  description:
    "Explains each data-quality finding and failed reconciliation result of the company's statement versions knowable at as_of: the rule, the amounts against its tolerance, " +
    'the likely cause found by arithmetic on the compared figures (SCALE_SLIP, SIGN, UNREPORTED_COMPONENT, MIXED_SCOPE_DERIVED_QUARTER, RESTATED_COMPARATIVE, else UNDETERMINED) with the evidence, ' +
    'and what the snapshot serves for that statement. A data-quality identity finding and the ledger failure of the same rule and version are one explanation. ' +
    `Most severe first. min_severity keeps those at or above it; dq_run_id keeps the findings one data-quality run recorded. ${READ_NOTE}`,
  http: { method: 'GET', path: '/v1/ai/companies/{company_id}/anomaly-explanations' },
  tool: true,
  listedAs: 'spec',
  plan: 'scale',
  input: z.object({
    company_id: CompanyIdParam,
    as_of: AS_OF,
    min_severity: z.enum(['NONE', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL']).default('NONE').describe('keep explanations at or above this severity'),
    dq_run_id: Uuid.optional().describe('only the findings this data-quality run recorded (reconciliation failures are then left out)'),
    ...PageParams,
  }),
  output: paginated(ExplanationItem),
  handler: async (ctx, input) => {
    const s = await companySnapshot(ctx, input.company_id, input.as_of);
    if (!s.included) return pageOf([], 0, input.page, input.page_size);
    const inputs = await loadAnomalyInputs(ctx.services.sql, s.cik, s.snapshot.as_of_date, input.dq_run_id ?? null);
    const all = explainAnomalies(inputs.findings, inputs.failures, inputs.context, input.min_severity);
    const start = (input.page - 1) * input.page_size;
    const items = all.slice(start, start + input.page_size).map((x) => ({ ...wireExplanation(x), ...companyIdOf(s, input.company_id), ...EXPLANATION_GENERATOR }));
    return pageOf(items, all.length, input.page, input.page_size);
  },
});

/** The snapshot's embeddings and the company's own; null when none was generated for it. */
async function embeddings(ctx: ToolContext, companyId: string, asOf: string) {
  const s = await companySnapshot(ctx, companyId, asOf);
  if (!s.included) return { s, universe: [], own: undefined };
  const universe = await snapshotEmbeddings(ctx.services.sql, s.snapshot.as_of_snapshot_id);
  return { s, universe, own: universe.find((u) => u.embedding.cik === s.cik) };
}

export const aiPeers = defineTool({
  name: 'ai.peers',
  title: 'Peers by financial profile (experimental)',
  description:
    "The companies of the same snapshot whose financial-profile embeddings are nearest to the company's (cosine similarity over the features both have), never the company itself, most similar first; " +
    'each with the three features that drove the match. sic keeps peers whose SIC code starts with it (e.g. 35 or 3571). See ai.embeddings.metadata for the features and their scaling. ' +
    READ_NOTE,
  http: { method: 'GET', path: '/v1/ai/companies/{company_id}/peers' },
  tool: true,
  listedAs: 'spec',
  plan: 'scale',
  input: z.object({
    company_id: CompanyIdParam,
    as_of: AS_OF,
    sic: z.string().regex(/^\d{1,4}$/).optional().describe('SIC code or its leading digits'),
    ...PageParams,
  }),
  output: paginated(PeerItem),
  handler: async (ctx, input) => {
    const { s, universe, own } = await embeddings(ctx, input.company_id, input.as_of);
    if (!own) return pageOf([], 0, input.page, input.page_size);
    const byCik = new Map(universe.map((u) => [u.embedding.cik, u]));
    const peers = findPeers(own.embedding, universe.map((u) => ({ embedding: u.embedding, sic: u.sic })), input.sic ?? null);
    const start = (input.page - 1) * input.page_size;
    const items = peers.slice(start, start + input.page_size).map((p) => ({
      ...p,
      company_id: byCik.get(p.cik)!.company_id,
      sic: byCik.get(p.cik)!.sic,
      model_id: own.model_id,
      model_version: own.model_version,
      ...snapshotFields(s.snapshot),
    }));
    return pageOf(items, peers.length, input.page, input.page_size);
  },
});

export const aiEmbeddingsMetadata = defineTool({
  name: 'ai.embeddings.metadata',
  title: "A company's financial-profile embedding and its metadata (experimental)",
  description:
    'The embedding generated for the company when the snapshot was built: model id and version, dimensions, every feature with its formula, center and spread (z = (x - center) / spread clipped to [-3, 3]), ' +
    "the company's vector, raw and standardized feature values, missing features and the statement versions read. data is null when none was generated. " +
    READ_NOTE,
  http: { method: 'GET', path: '/v1/ai/companies/{company_id}/embedding-metadata' },
  tool: true,
  listedAs: 'spec',
  plan: 'scale',
  input: z.object({ company_id: CompanyIdParam, as_of: AS_OF }),
  output: dataEnvelope(EmbeddingMetadata.nullable()),
  handler: async (ctx, input) => {
    const { s, own } = await embeddings(ctx, input.company_id, input.as_of);
    if (!own) return { data: null };
    const e = own.embedding;
    return {
      data: {
        model_id: own.model_id,
        model_version: own.model_version,
        dimensions: EMBEDDING_DIMENSIONS,
        scaling: `z = (raw - center) / spread, clipped to [-${CLIP}, ${CLIP}], six fraction digits half-up; a missing feature is 0 and listed in missing_features`,
        features: FEATURES.map((f, index) => ({ index, ...f })),
        company_id: input.company_id,
        cik: s.cik,
        as_of: s.snapshot.as_of_date,
        fiscal_year: e.fiscal_year,
        fiscal_period: e.fiscal_period,
        vector: e.vector,
        feature_values: e.features,
        missing_features: e.missing_features,
        statement_version_ids: e.statement_version_ids,
        ...snapshotFields(s.snapshot),
      },
    };
  },
});

export const AI_TOOLS = [aiNarratives, aiAnomalyExplanations, aiPeers, aiEmbeddingsMetadata];
