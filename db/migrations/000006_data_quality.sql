-- Data-quality findings (domain/data-quality.ts) and the runs that recorded them. Findings are
-- never silent fixes: figures stay as normalized, the finding says what looks wrong and why.

CREATE TABLE dq_runs (
  dq_run_id          uuid PRIMARY KEY,
  -- ingestion: checks of the versions one company's ingestion added (same transaction);
  -- request: POST /v1/edgar/companies/{cik}/statements/dq/run over the latest versions
  trigger            text NOT NULL CHECK (trigger IN ('ingestion', 'request')),
  cik                char(10) NOT NULL CHECK (cik ~ '^[0-9]{10}$'),
  ingestion_run_id   bigint,
  -- the statement identity asked for; null parts were not narrowed
  statement_type     text,
  fiscal_year        integer,
  fiscal_period      text,
  started_at         timestamptz NOT NULL,
  finished_at        timestamptz NOT NULL,
  statements_checked integer NOT NULL,
  -- findings the checks produced (already recorded or not) and those recorded by this run
  issues_found       integer NOT NULL,
  issues_new         integer NOT NULL
);
CREATE INDEX dq_runs_cik_idx ON dq_runs (cik, started_at DESC);

-- Which versions each run checked, so a read can tell "checked, nothing found" from "never checked".
CREATE TABLE dq_run_versions (
  statement_version_id uuid NOT NULL REFERENCES statement_versions(statement_version_id),
  dq_run_id            uuid NOT NULL REFERENCES dq_runs(dq_run_id),
  PRIMARY KEY (statement_version_id, dq_run_id)
);

CREATE TABLE dq_issues (
  issue_id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- the run that first recorded the finding
  dq_run_id            uuid NOT NULL REFERENCES dq_runs(dq_run_id),
  -- byte order ("C") for the text sort keys, so the list order does not depend on the database locale
  rule_code            text COLLATE "C" NOT NULL,
  severity             text NOT NULL CHECK (severity IN ('LOW', 'MEDIUM', 'HIGH', 'CRITICAL')),
  severity_rank        smallint GENERATED ALWAYS AS (
                         CASE severity WHEN 'CRITICAL' THEN 4 WHEN 'HIGH' THEN 3 WHEN 'MEDIUM' THEN 2 ELSE 1 END) STORED,
  cik                  char(10) NOT NULL CHECK (cik ~ '^[0-9]{10}$'),
  -- statement fields are nullable for findings about a company rather than one statement
  statement_type       text,
  fiscal_year          integer,
  fiscal_period        text COLLATE "C",
  version_sequence     integer,
  statement_version_id uuid REFERENCES statement_versions(statement_version_id),
  metric               text,
  message              text NOT NULL,
  evidence             jsonb NOT NULL,
  detected_at          timestamptz NOT NULL DEFAULT now(),
  -- one finding per version, rule and metric: re-running the checks adds nothing
  CONSTRAINT dq_issues_finding_key UNIQUE NULLS NOT DISTINCT (statement_version_id, rule_code, metric)
);
-- the list order: severity descending, then cik, fiscal_year, fiscal_period, rule_code, issue_id
CREATE INDEX dq_issues_list_idx ON dq_issues (severity_rank DESC, cik, fiscal_year NULLS LAST, fiscal_period NULLS LAST, rule_code, issue_id);
CREATE INDEX dq_issues_cik_idx ON dq_issues (cik, fiscal_year, fiscal_period);
