-- Filings, versioned normalized statements, restatement events and fact revisions, ingestion runs.
-- Statement versions are append-only: a restatement adds a row, nothing is updated in place.

CREATE TABLE filings (
  accession           text PRIMARY KEY,
  cik                 char(10) NOT NULL CHECK (cik ~ '^[0-9]{10}$'),
  form                text NOT NULL,
  filing_date         date NOT NULL,
  report_date         date,
  accepted_at         timestamptz,
  primary_document    text,
  fiscal_year_focus   integer,
  fiscal_period_focus text,
  is_periodic         boolean NOT NULL,
  source              text NOT NULL CHECK (source IN ('submissions', 'companyfacts')),
  facts_count         integer NOT NULL DEFAULT 0
);
CREATE INDEX filings_cik_date_idx ON filings (cik, filing_date DESC);

CREATE TABLE statement_versions (
  statement_version_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cik                  char(10) NOT NULL CHECK (cik ~ '^[0-9]{10}$'),
  statement_type       text NOT NULL CHECK (statement_type IN ('INCOME_STATEMENT', 'BALANCE_SHEET', 'CASH_FLOW_STATEMENT')),
  fiscal_year          integer NOT NULL,
  fiscal_period        text NOT NULL CHECK (fiscal_period IN ('FY', 'Q1', 'Q2', 'Q3', 'Q4')),
  version_sequence     integer NOT NULL CHECK (version_sequence >= 1),
  period_start         date,
  period_end           date NOT NULL,
  accession            text NOT NULL REFERENCES filings(accession),
  form                 text NOT NULL,
  filing_date          date NOT NULL,
  accepted_at          timestamptz,
  currency             text,
  accounting_standard  text NOT NULL,
  -- metric -> figure (value as a decimal string plus provenance, null fields left out); see db/statement-write.ts.
  -- Identity checks are not stored: they are a pure function of the figures, computed on read.
  figures              jsonb NOT NULL,
  content_hash         text NOT NULL,
  previous_version_id  uuid REFERENCES statement_versions(statement_version_id),
  ingestion_run_id     bigint,
  created_at           timestamptz NOT NULL DEFAULT now(),
  UNIQUE (cik, statement_type, fiscal_year, fiscal_period, version_sequence)
);
CREATE INDEX statement_versions_read_idx ON statement_versions (cik, statement_type, fiscal_year, fiscal_period, filing_date);
CREATE INDEX statement_versions_accession_idx ON statement_versions (accession);

CREATE TABLE restatement_alert_events (
  restatement_alert_event_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cik                  char(10) NOT NULL,
  statement_type       text NOT NULL,
  fiscal_year          integer NOT NULL,
  fiscal_period        text NOT NULL,
  version_sequence     integer NOT NULL,
  statement_version_id uuid NOT NULL UNIQUE REFERENCES statement_versions(statement_version_id),
  previous_version_id  uuid NOT NULL REFERENCES statement_versions(statement_version_id),
  accession            text NOT NULL,
  form                 text NOT NULL,
  filing_date          date NOT NULL,
  revised_metrics      integer NOT NULL,
  detected_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX restatement_alert_events_cik_idx ON restatement_alert_events (cik, filing_date DESC);

CREATE TABLE fact_revisions (
  fact_revision_id     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  statement_version_id uuid NOT NULL REFERENCES statement_versions(statement_version_id),
  previous_version_id  uuid NOT NULL REFERENCES statement_versions(statement_version_id),
  metric               text NOT NULL,
  old_value            numeric NOT NULL,
  new_value            numeric NOT NULL,
  difference           numeric NOT NULL,
  old_accession        text NOT NULL,
  new_accession        text NOT NULL,
  old_concept          text,
  new_concept          text,
  UNIQUE (statement_version_id, metric)
);

CREATE TABLE ingestion_runs (
  run_id             bigserial PRIMARY KEY,
  source             text NOT NULL,
  requested          jsonb NOT NULL DEFAULT '[]',
  status             text NOT NULL CHECK (status IN ('running', 'succeeded', 'failed', 'interrupted')),
  started_at         timestamptz NOT NULL,
  finished_at        timestamptz,
  heartbeat_at       timestamptz NOT NULL,
  companies_total    integer NOT NULL DEFAULT 0,
  companies_done     integer NOT NULL DEFAULT 0,
  companies_skipped  integer NOT NULL DEFAULT 0,
  companies_failed   integer NOT NULL DEFAULT 0,
  facts_read         bigint NOT NULL DEFAULT 0,
  bytes_read         bigint NOT NULL DEFAULT 0,
  versions_added     integer NOT NULL DEFAULT 0,
  restatements_added integer NOT NULL DEFAULT 0,
  errors             jsonb NOT NULL DEFAULT '[]'
);

-- One row per company: what its last successful ingestion read, so an unchanged source is skipped.
CREATE TABLE company_ingestion (
  cik                char(10) PRIMARY KEY CHECK (cik ~ '^[0-9]{10}$'),
  source_hash        text NOT NULL,
  normalizer_version integer NOT NULL,
  run_id             bigint NOT NULL REFERENCES ingestion_runs(run_id),
  ingested_at        timestamptz NOT NULL,
  facts              integer NOT NULL,
  filings            integer NOT NULL,
  versions           integer NOT NULL
);
