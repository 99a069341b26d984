/**
 * Output shapes of the AI routes: generated narratives with their claims, anomaly explanations,
 * peers and the embedding's metadata. Exact values are decimal strings; `rendered` strings are
 * exactly what the text prints.
 */
import { z } from 'zod';
import { CikOut, DecimalString, FiscalPeriodParam, StatementTypeParam } from '../../api/schemas.ts';
import { LIKELY_CAUSES } from '../../domain/ai/anomalies.ts';
import { NARRATIVE_TYPES } from '../../domain/ai/narratives.ts';

export const SnapshotFields = {
  snapshot_id: z.string().describe('identity of the modeling snapshot request'),
  as_of_snapshot_id: z.string().uuid().describe('the built snapshot the artifacts belong to'),
  as_of_timestamp: z.string().describe('the point in time the snapshot sees: the end of its as_of date (UTC)'),
  snapshot_hash: z.string().describe('the snapshot hash (same inputs over the same corpus, same hash)'),
};

const Severity = z.enum(['NONE', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL']);
const Signed = z.string().regex(/^-?\d+(\.\d+)?$/);

const ClaimPoint = z.object({ fiscal_year: z.number().int(), fiscal_period: z.string().describe('FY, Q1..Q4'), value: DecimalString });

export const ClaimShape = z.object({
  claim_id: z.string().describe('c1, c2, ... in order of first use'),
  metric: z.string().describe('catalog metric, or INVESTED_CAPITAL_TURNOVER (revenue over average invested capital)'),
  measure: z.enum(['LEVEL', 'SHARE_OF_REVENUE', 'EFFECT']).describe('LEVEL: the metric; SHARE_OF_REVENUE: the line over revenue; EFFECT: the part of of_metric\'s change this factor accounts for'),
  unit: z.enum(['currency', 'ratio', 'times']),
  of_metric: z.string().nullable(),
  from: ClaimPoint.nullable().describe('the earlier period (null for an EFFECT)'),
  to: ClaimPoint.describe('the later period; for an EFFECT its value is the effect'),
  change: DecimalString.describe('to - from (an EFFECT: the effect)'),
  relative_change: DecimalString.nullable().describe('(to - from) / |from| for amounts'),
  statement_version_ids: z.array(z.string().uuid()).describe('the statement versions the values come from'),
  rendered: z.record(z.string(), z.string()).describe('the exact strings the text prints for from, to, change, relative_change and the periods'),
});

export const NarrativeItem = z.object({
  narrative_id: z.string().uuid(),
  company_id: z.string().uuid(),
  cik: CikOut,
  narrative_type: z.enum(NARRATIVE_TYPES),
  statement_type: StatementTypeParam,
  fiscal_year: z.number().int(),
  fiscal_period: FiscalPeriodParam,
  statement_version_id: z.string().uuid().describe('the version of the period the narrative is about'),
  text: z.string().describe('the sentences joined by a space; every number in it is printed by a claim of its sentence'),
  sentences: z.array(z.object({ text: z.string(), claim_ids: z.array(z.string()) })),
  claims: z.array(ClaimShape),
  generator_id: z.string().describe('fds-template-narratives: deterministic templates, no language model'),
  generator_version: z.string(),
  ...SnapshotFields,
});

const Compared = z.object({
  name: z.string().describe("the rule's name for the figure"),
  metric: z.string(),
  value: DecimalString.nullable().describe('null: no figure was reported'),
  sign: z.union([z.literal(1), z.literal(-1)]).nullable().describe('how the rule adds it (null: the total, or a non-equality rule)'),
  statement_version_id: z.string().uuid().nullable(),
  source_accession: z.string().nullable(),
  value_origin: z.string().nullable(),
});

export const ExplanationItem = z.object({
  explanation_id: z.string().uuid(),
  company_id: z.string().uuid(),
  cik: CikOut,
  statement_type: z.string().nullable().describe('null for a finding about the company rather than one statement'),
  fiscal_year: z.number().int().nullable(),
  fiscal_period: z.string().nullable(),
  version_sequence: z.number().int().nullable(),
  statement_version_id: z.string().uuid().nullable(),
  rule: z.string().describe('the identity or roll-forward rule id, or the data-quality rule code'),
  severity: Severity,
  metric: z.string().nullable(),
  sources: z.array(
    z.union([
      z.object({ kind: z.literal('DATA_QUALITY'), issue_id: z.string().uuid(), dq_run_id: z.string().uuid(), rule_code: z.string() }),
      z.object({ kind: z.literal('RECONCILIATION'), rule_id: z.string(), status: z.literal('FAIL') }),
    ]),
  ).describe('the data-quality issue and/or reconciliation ledger result explained'),
  amount: z
    .object({ expected_value: DecimalString, actual_value: DecimalString, delta: DecimalString, tolerance: DecimalString, times_tolerance: Signed.nullable() })
    .nullable()
    .describe('for equalities: delta = actual - expected, and |delta| / tolerance'),
  likely_cause: z.enum(LIKELY_CAUSES),
  evidence: z.array(z.object({ test: z.string(), detail: z.string(), metric: z.string().nullable(), value: DecimalString.nullable() })),
  compared: z.array(Compared),
  served: z.object({
    statement_version_id: z.string().uuid().nullable(),
    version_sequence: z.number().int().nullable(),
    this_version: z.boolean(),
    value: DecimalString.nullable(),
    rule_status: z.string().nullable(),
    text: z.string(),
  }).describe("what the snapshot serves for the statement: its version, the metric's value there, and an identity's status there"),
  text: z.string(),
  generator_id: z.string(),
  generator_version: z.string(),
  ...SnapshotFields,
});

export const PeerItem = z.object({
  company_id: z.string().uuid().nullable(),
  cik: CikOut,
  sic: z.string().nullable(),
  similarity: Signed.describe('cosine of the two embeddings over the features both have, -1 to 1, six fraction digits'),
  shared_features: z.number().int(),
  drivers: z.array(
    z.object({
      feature: z.string(),
      contribution: Signed.describe("this feature's share of the cosine"),
      company_z: Signed,
      peer_z: Signed,
      company_raw: Signed.nullable(),
      peer_raw: Signed.nullable(),
    }),
  ),
  model_id: z.string(),
  model_version: z.string(),
  ...SnapshotFields,
});

export const FeatureShape = z.object({
  index: z.number().int(),
  name: z.string(),
  group: z.string(),
  formula: z.string(),
  center: Signed,
  spread: Signed,
});

export const EmbeddingMetadata = z.object({
  model_id: z.string(),
  model_version: z.string(),
  dimensions: z.number().int(),
  scaling: z.string(),
  features: z.array(FeatureShape),
  company_id: z.string().uuid(),
  cik: CikOut,
  as_of: z.string(),
  fiscal_year: z.number().int(),
  fiscal_period: z.literal('FY'),
  vector: z.array(Signed),
  feature_values: z.array(z.object({ name: z.string(), raw: Signed.nullable(), z: Signed })),
  missing_features: z.array(z.string()),
  statement_version_ids: z.array(z.string().uuid()),
  ...SnapshotFields,
});
