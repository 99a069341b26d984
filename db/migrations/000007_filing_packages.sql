-- What filing packages (XBRL instance or inline document, linkbases) add: filings known only from
-- their folder, the filer's calculation trees as evidence beside identity checks, segment rows
-- and narrative disclosures.

ALTER TABLE filings DROP CONSTRAINT filings_source_check;
ALTER TABLE filings ADD CONSTRAINT filings_source_check CHECK (source IN ('submissions', 'companyfacts', 'package'));
-- true when SEC's filing date is unknown (package-only filing) and filing_date is the latest due date
ALTER TABLE filings ADD COLUMN filing_date_estimated boolean NOT NULL DEFAULT false;
-- which package files were read for the filing: instance or inline, with or without linkbases
ALTER TABLE filings ADD COLUMN package jsonb;

-- domain/calculation-evidence.ts; null when the version's filing had no calculation linkbase read
ALTER TABLE statement_versions ADD COLUMN calculation_evidence jsonb;

CREATE TABLE segment_facts (
  metric_dimension_id  uuid PRIMARY KEY,
  cik                  char(10) NOT NULL CHECK (cik ~ '^[0-9]{10}$'),
  accession            text NOT NULL REFERENCES filings(accession),
  -- the consolidated statement the figure reconciles with: the version current once the filing was folded in
  statement_version_id uuid REFERENCES statement_versions(statement_version_id),
  statement_type       text NOT NULL,
  fiscal_year          integer,
  fiscal_period        text,
  metric               text NOT NULL,
  concept              text NOT NULL,
  dimension_type       text NOT NULL CHECK (dimension_type IN ('BUSINESS_SEGMENT', 'GEOGRAPHIC', 'PRODUCT_SERVICE', 'MAJOR_CUSTOMER')),
  axis                 text NOT NULL,
  member               text NOT NULL,
  member_label         text NOT NULL,
  value                numeric NOT NULL,
  unit                 text NOT NULL,
  period_start         date,
  period_end           date NOT NULL,
  decimals             text,
  filing_date          date NOT NULL,
  extracted_at         timestamptz NOT NULL
);
CREATE INDEX segment_facts_cik_idx ON segment_facts (cik, period_end DESC, dimension_type, metric);
CREATE INDEX segment_facts_version_idx ON segment_facts (statement_version_id);

CREATE TABLE disclosures (
  disclosure_id    uuid PRIMARY KEY,
  cik              char(10) NOT NULL CHECK (cik ~ '^[0-9]{10}$'),
  accession        text NOT NULL REFERENCES filings(accession),
  period_of_report date,
  -- us-gaap:IncomeTaxDisclosureTextBlock, or src:<local name> for a filer extension
  concept          text NOT NULL,
  title            text NOT NULL,
  disclosure_text  text NOT NULL,
  char_count       integer NOT NULL,
  -- the fact's own context, which tells apart two facts of one concept in one filing
  context_start    date,
  context_end      date NOT NULL,
  filing_date      date NOT NULL,
  extracted_at     timestamptz NOT NULL
);
CREATE INDEX disclosures_cik_idx ON disclosures (cik, period_of_report DESC, accession, concept);
CREATE INDEX disclosures_accession_idx ON disclosures (accession);
