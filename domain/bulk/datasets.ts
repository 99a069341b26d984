/**
 * The six bulk datasets of the spec's table: what one row is, the key, the partition column and the
 * columns in file order. `type` is the Parquet-facing type as DuckDB names it (the writer casts to
 * it); the dataset description route serves these definitions as they are.
 *
 * A dataset's schema_version moves when its columns change; the manifest's format_version moves
 * when the layout (paths, manifest fields) changes.
 */
export const FORMAT_VERSION = 1;

export type ColumnType = 'VARCHAR' | 'VARCHAR[]' | 'INTEGER' | 'BIGINT' | 'BOOLEAN' | 'DATE' | 'TIMESTAMPTZ' | 'DECIMAL(38,12)';

export interface Column {
  name: string;
  type: ColumnType;
  nullable: boolean;
  description: string;
}

export type DatasetName = 'companies' | 'filings' | 'statements' | 'financials' | 'segments' | 'disclosures';

export interface Dataset {
  dataset: DatasetName;
  description: string;
  schema_version: number;
  key: string[];
  /** null for the unpartitioned dataset (companies) */
  partition_column: string | null;
  /** a new part file starts after this many rows within one partition */
  rows_per_file: number;
  columns: Column[];
}

const col = (name: string, type: ColumnType, nullable: boolean, description: string): Column => ({ name, type, nullable, description });

const CIK = col('cik', 'VARCHAR', false, 'SEC Central Index Key, ten digits with leading zeros');
const ACCESSION = col('accession_id', 'VARCHAR', false, 'SEC accession number of the filing, 0000000000-00-000000');
const FILING_DATE = col('filing_date', 'DATE', false, 'date SEC accepted the filing (estimated as the latest due date for filings known only from their package)');
const VALUE_NOTE = 'exact decimal as reported after sign and scale; decimal(38,12)';

export const DATASETS: readonly Dataset[] = [
  {
    dataset: 'companies',
    description: 'One row per company (cik) in the corpus, with its identifiers and SEC profile.',
    schema_version: 1,
    key: ['cik'],
    partition_column: null,
    rows_per_file: 100_000,
    columns: [
      CIK,
      col('company_id', 'VARCHAR', false, 'our stable company id (UUID), as in coverage and identity records'),
      col('name', 'VARCHAR', false, 'conformed company name'),
      col('tickers', 'VARCHAR[]', false, 'current ticker symbols'),
      col('exchanges', 'VARCHAR[]', false, 'exchanges of the tickers, same order'),
      col('entity_type', 'VARCHAR', true, 'SEC entity type (operating, ...)'),
      col('sic', 'VARCHAR', true, 'Standard Industrial Classification code'),
      col('sic_description', 'VARCHAR', true, 'SIC description'),
      col('category', 'VARCHAR', true, 'SEC filer category, comma-joined'),
      col('fiscal_year_end', 'VARCHAR', true, 'fiscal year end as MMDD'),
      col('state_of_incorporation', 'VARCHAR', true, 'state or country of incorporation code'),
      col('ein', 'VARCHAR', true, 'employer identification number'),
      col('lei', 'VARCHAR', true, 'legal entity identifier'),
      col('latest_filing_accession', 'VARCHAR', true, 'accession of the latest filing seen'),
      col('source', 'VARCHAR', false, 'SEC file the profile came from'),
      col('source_loaded_at', 'TIMESTAMPTZ', false, 'when the profile was loaded (UTC)'),
    ],
  },
  {
    dataset: 'filings',
    description: 'One row per filing (accession_id) in the corpus: periodic reports and the other forms SEC lists for the companies.',
    schema_version: 1,
    key: ['accession_id'],
    partition_column: 'filing_year',
    rows_per_file: 250_000,
    columns: [
      ACCESSION,
      CIK,
      col('form', 'VARCHAR', false, 'form type (10-K, 10-Q, 10-K/A, ...)'),
      FILING_DATE,
      col('filing_date_estimated', 'BOOLEAN', false, 'true when filing_date is estimated (filing known only from its package)'),
      col('report_date', 'DATE', true, 'period of report'),
      col('accepted_at', 'TIMESTAMPTZ', true, 'EDGAR acceptance time (UTC)'),
      col('primary_document', 'VARCHAR', true, 'file name of the primary document'),
      col('fiscal_year_focus', 'INTEGER', true, 'DocumentFiscalYearFocus'),
      col('fiscal_period_focus', 'VARCHAR', true, 'DocumentFiscalPeriodFocus (FY, Q1..Q4)'),
      col('is_periodic', 'BOOLEAN', false, 'a periodic report (10-K, 10-Q, 20-F, 40-F and amendments)'),
      col('source', 'VARCHAR', false, 'where we learned of the filing: submissions, companyfacts or package'),
      col('facts_count', 'INTEGER', false, 'XBRL facts read from the filing'),
      col('filing_year', 'INTEGER', false, 'year of filing_date (the partition)'),
    ],
  },
  {
    dataset: 'statements',
    description: 'One row per statement, as the served (latest) version: the version normalized-statement reads return.',
    schema_version: 1,
    key: ['statement_version_id'],
    partition_column: 'fiscal_year',
    rows_per_file: 250_000,
    columns: [
      col('statement_version_id', 'VARCHAR', false, 'id of the served version (UUID)'),
      CIK,
      col('statement_type', 'VARCHAR', false, 'INCOME_STATEMENT, BALANCE_SHEET or CASH_FLOW_STATEMENT'),
      col('fiscal_year', 'INTEGER', false, 'fiscal year (the partition)'),
      col('fiscal_period', 'VARCHAR', false, 'FY, Q1, Q2, Q3 or Q4'),
      col('version_sequence', 'INTEGER', false, '1 as first reported; higher after each restatement'),
      col('period_start', 'DATE', true, 'start of the period (null for a balance sheet instant)'),
      col('period_end', 'DATE', false, 'end of the period'),
      ACCESSION,
      col('form', 'VARCHAR', false, 'form of the filing the version comes from'),
      FILING_DATE,
      col('accepted_at', 'TIMESTAMPTZ', true, 'EDGAR acceptance time (UTC)'),
      col('currency', 'VARCHAR', true, 'reporting currency (ISO 4217)'),
      col('accounting_standard', 'VARCHAR', false, 'US_GAAP or IFRS'),
      col('previous_version_id', 'VARCHAR', true, 'the version this one restated'),
      col('metric_count', 'INTEGER', false, 'canonical metrics on the version (rows in financials)'),
      col('created_at', 'TIMESTAMPTZ', false, 'when the version was recorded (UTC)'),
    ],
  },
  {
    dataset: 'financials',
    description: 'One row per canonical metric on a served statement version, with the value and its provenance.',
    schema_version: 1,
    key: ['statement_version_id', 'metric'],
    partition_column: 'fiscal_year',
    rows_per_file: 500_000,
    columns: [
      col('statement_version_id', 'VARCHAR', false, 'served statement version (UUID); joins statements'),
      CIK,
      col('statement_type', 'VARCHAR', false, 'statement the metric belongs to'),
      col('fiscal_year', 'INTEGER', false, 'fiscal year (the partition)'),
      col('fiscal_period', 'VARCHAR', false, 'FY, Q1, Q2, Q3 or Q4'),
      col('metric', 'VARCHAR', false, 'canonical metric name (see /v1/metrics/definitions)'),
      col('value', 'DECIMAL(38,12)', false, VALUE_NOTE),
      col('unit', 'VARCHAR', false, 'unit (currency code, shares, pure, USD/shares)'),
      col('period_start', 'DATE', true, 'start of the fact period'),
      col('period_end', 'DATE', false, 'end of the fact period'),
      col('source_accession', 'VARCHAR', false, 'filing the value was read from'),
      col('source_xbrl_concept', 'VARCHAR', true, 'XBRL concept of the value (null when derived)'),
      col('mapping_type', 'VARCHAR', true, 'how the concept maps to the metric'),
      col('selection_rule', 'VARCHAR', true, 'rule that chose the concept (PRESENTATION_LINKBASE, COMPANY_PRESENTATION, CANDIDATE_ORDER)'),
      col('value_origin', 'VARCHAR', false, 'SOURCE, DERIVED or CORRECTED'),
      col('correction_rule', 'VARCHAR', true, 'data-quality rule that corrected the value'),
      col('as_filed_value', 'DECIMAL(38,12)', true, 'the value as filed, when corrected'),
      FILING_DATE,
    ],
  },
  {
    dataset: 'segments',
    description: 'One row per segment, geographic, product/service or major-customer figure (metric_dimension_id).',
    schema_version: 1,
    key: ['metric_dimension_id'],
    partition_column: 'fiscal_year',
    rows_per_file: 250_000,
    columns: [
      col('metric_dimension_id', 'VARCHAR', false, 'stable id of the row (UUID)'),
      CIK,
      ACCESSION,
      col('statement_version_id', 'VARCHAR', true, 'consolidated statement version the figure reconciles with'),
      col('statement_type', 'VARCHAR', false, 'statement of the metric'),
      col('fiscal_year', 'INTEGER', false, 'fiscal year (the partition)'),
      col('fiscal_period', 'VARCHAR', true, 'FY, Q1, Q2, Q3 or Q4'),
      col('metric', 'VARCHAR', false, 'canonical metric name'),
      col('concept', 'VARCHAR', false, 'XBRL concept reported'),
      col('dimension_type', 'VARCHAR', false, 'BUSINESS_SEGMENT, GEOGRAPHIC, PRODUCT_SERVICE or MAJOR_CUSTOMER'),
      col('axis', 'VARCHAR', false, 'XBRL axis'),
      col('member', 'VARCHAR', false, 'XBRL member'),
      col('member_label', 'VARCHAR', false, "member label from the filer's label linkbase"),
      col('value', 'DECIMAL(38,12)', false, VALUE_NOTE),
      col('unit', 'VARCHAR', false, 'unit'),
      col('period_start', 'DATE', true, 'start of the fact period'),
      col('period_end', 'DATE', false, 'end of the fact period'),
      col('decimals', 'VARCHAR', true, 'XBRL decimals attribute (INF or an integer)'),
      FILING_DATE,
      col('extracted_at', 'TIMESTAMPTZ', false, 'when the row was extracted (UTC)'),
    ],
  },
  {
    dataset: 'disclosures',
    description: 'One row per narrative disclosure (disclosure_id): a TextBlock note as readable plain text.',
    schema_version: 1,
    key: ['disclosure_id'],
    partition_column: 'report_year',
    rows_per_file: 20_000,
    columns: [
      col('disclosure_id', 'VARCHAR', false, 'stable id of the disclosure (UUID)'),
      CIK,
      ACCESSION,
      col('period_of_report', 'DATE', true, "the filing's period of report"),
      col('concept', 'VARCHAR', false, 'TextBlock concept; src: prefix for a filer extension'),
      col('title', 'VARCHAR', false, 'title from the label linkbase or the concept'),
      col('disclosure_text', 'VARCHAR', false, 'plain text, tables as aligned columns'),
      col('char_count', 'INTEGER', false, 'characters in disclosure_text'),
      col('context_start', 'DATE', true, "start of the fact's context period"),
      col('context_end', 'DATE', false, "end of the fact's context period"),
      FILING_DATE,
      col('extracted_at', 'TIMESTAMPTZ', false, 'when the row was extracted (UTC)'),
      col('report_year', 'INTEGER', false, 'year of period_of_report, else of context_end (the partition)'),
    ],
  },
];

export function datasetNamed(name: string): Dataset | undefined {
  return DATASETS.find((d) => d.dataset === name);
}
