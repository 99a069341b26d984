import { z } from 'zod';
import type { FilingRow, ListedVersion } from './queries.ts';
import type { VersionHeader } from '../../db/statement-versions.ts';
import { CANONICAL_METRIC_NAMES } from '../../domain/catalog/index.ts';
import { CikOut, FiscalPeriodParam, StatementTypeParam, Timestamp } from '../../api/schemas.ts';
import { StatementVersionOut, versionRecord } from '../../api/statement-shapes.ts';
import { FILING_SOURCES } from '../../domain/facts.ts';

/** Parameters and output shapes of the filings and statements routes, and their row mappers. */

const METRIC_RANK = new Map(CANONICAL_METRIC_NAMES.map((m, i) => [m, i]));
export const byCatalogOrder = (a: string, b: string) => (METRIC_RANK.get(a) ?? 1e9) - (METRIC_RANK.get(b) ?? 1e9) || a.localeCompare(b);

export const AccessionParam = z
  .string()
  .trim()
  .regex(/^(\d{10}-\d{2}-\d{6}|\d{18})$/, 'an accession number is written 0000320193-23-000106 (or its 18 digits without dashes)')
  .transform((s) => (s.includes('-') ? s : `${s.slice(0, 10)}-${s.slice(10, 12)}-${s.slice(12)}`))
  .describe('SEC accession number, e.g. 0000320193-23-000106 (18 digits without dashes are accepted)');

export const FormParam = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ./\-]{0,19}$/, 'a form type is written as SEC writes it, e.g. 10-K, 10-Q, 10-K/A, 8-K, DEF 14A')
  .describe('SEC form type as SEC writes it, e.g. 10-K, 10-Q, 10-K/A, 20-F, 8-K, DEF 14A (case-insensitive)');

const PackageOut = z
  .object({
    folder: z.string().nullable().describe('address of the filing folder the package files were read from'),
    files: z.array(z.string()).describe('package files read: the XBRL instance or inline document, schema and linkbases'),
    facts_from: z.string().nullable().describe('instance (a separate XBRL instance file) or inline (inline XBRL in the primary document)'),
    linkbases: z.boolean().describe('presentation/calculation/label linkbases were read (concept choice by presentation, calculation evidence)'),
    facts_added: z.number().int().nullable().describe('facts the package added beyond the company-facts file (0 when it only confirmed them)'),
  })
  .nullable()
  .describe('what was read from the filing package (filing folder); null when only the company-facts and submissions files describe the filing');

export const FilingOut = z.object({
  accession_id: z.string().describe('SEC accession number, the filing key'),
  cik: CikOut,
  form: z.string().describe('form type, e.g. 10-K, 10-Q, 10-K/A, 8-K'),
  filing_date: z.string().describe('SEC filing date (YYYY-MM-DD); as-of reads see this filing from this date on'),
  filing_date_estimated: z
    .boolean()
    .describe("true when SEC's filing date is unknown (filing known only from its package) and filing_date is the latest date it was due"),
  accepted_at: Timestamp.nullable().describe('EDGAR acceptance time (UTC); null when not in the submissions file'),
  report_date: z.string().nullable().describe('period of report (YYYY-MM-DD): the period end a periodic report covers'),
  fiscal_year_focus: z.number().int().nullable().describe("the filing's fiscal year focus (dei:DocumentFiscalYearFocus); null for filings without XBRL"),
  fiscal_period_focus: z.string().nullable().describe("the filing's fiscal period focus (FY, Q1, Q2, Q3); null for filings without XBRL"),
  is_periodic: z.boolean().describe('a periodic report (10-K, 10-Q, their amendments, 20-F, 40-F, 10-KT): only these create statement versions'),
  source: z
    .enum(FILING_SOURCES)
    .describe('where the filing record comes from: submissions (the company submissions file), companyfacts (the accession carried by company facts), package (the filing folder only)'),
  primary_document: z.string().nullable().describe('file name of the main document in the filing folder'),
  document_url: z.string().nullable().describe('sec.gov address of the primary document; null without one'),
  filing_index_url: z.string().describe('sec.gov address of the filing index page'),
  facts_count: z.number().int().describe('XBRL facts of the company-facts file carried by this filing (0 for filings without XBRL)'),
  statement_versions_count: z
    .number()
    .int()
    .describe('statement versions this filing created (new periods, and restatements of earlier ones); list them with /filings/{accession_id}/statements'),
  package: PackageOut,
});

export const VersionRef = z.object({
  statement_version_id: z.string(),
  statement_type: StatementTypeParam,
  fiscal_year: z.number().int(),
  fiscal_period: FiscalPeriodParam,
  version_sequence: z.number().int().describe('1 for a period first presented by this filing; higher for a restatement'),
  period_end: z.string(),
});

export const FilingDetailOut = FilingOut.extend({
  statement_versions: z.array(VersionRef).describe('the statement versions this filing created, newest period first'),
});

function archiveFolder(cik: string, accession: string): string {
  return `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}`;
}

export function filingOut(row: FilingRow): z.input<typeof FilingOut> {
  const folder = archiveFolder(row.cik, row.accession_id);
  const pkg = row.package;
  return {
    accession_id: row.accession_id,
    cik: row.cik,
    form: row.form,
    filing_date: row.filing_date,
    filing_date_estimated: row.filing_date_estimated,
    accepted_at: row.accepted_at,
    report_date: row.report_date,
    fiscal_year_focus: row.fiscal_year_focus,
    fiscal_period_focus: row.fiscal_period_focus,
    is_periodic: row.is_periodic,
    source: row.source,
    primary_document: row.primary_document,
    document_url: row.primary_document ? `${folder}/${row.primary_document}` : null,
    filing_index_url: `${folder}/${row.accession_id}-index.htm`,
    facts_count: row.facts_count,
    statement_versions_count: row.statement_versions_count,
    package: pkg
      ? {
          folder: pkg.folder ?? null,
          files: pkg.files ?? [],
          facts_from: pkg.facts_from ?? null,
          linkbases: pkg.linkbases ?? false,
          facts_added: pkg.facts_added ?? null,
        }
      : null,
  };
}

export function versionRef(v: VersionHeader): z.input<typeof VersionRef> {
  return {
    statement_version_id: v.statement_version_id,
    statement_type: v.statement_type,
    fiscal_year: v.fiscal_year,
    fiscal_period: v.fiscal_period,
    version_sequence: v.version_sequence,
    period_end: v.period_end,
  };
}

/** A statement version in a listing: the version record, its metric count, and the payload on request. */
export const ListedVersionOut = StatementVersionOut.omit({ normalized_payload: true }).extend({
  metrics_count: z.number().int().describe('figures the version holds'),
  normalized_payload: StatementVersionOut.shape.normalized_payload
    .optional()
    .describe('facts with provenance and _meta.identity (accounting identities); present only with include_normalized=true'),
});

export function versionHeaderOut(row: ListedVersion): z.input<typeof ListedVersionOut> {
  return { ...versionRecord(row, row.is_latest), metrics_count: row.metrics_count };
}
