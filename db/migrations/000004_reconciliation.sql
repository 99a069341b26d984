-- The reconciliation ledger: one row per statement version and rule that produced a result
-- (PASS, WARNING, FAIL, or a decline: WARNING with severity NONE, a reason in notes, delta null).
-- Written when ingestion adds the version, from the statements as they stood on its filing date;
-- never updated (a later version gets its own rows).

CREATE TABLE reconciliation_results (
  statement_version_id uuid NOT NULL REFERENCES statement_versions(statement_version_id),
  rule_id              text NOT NULL,
  cik                  char(10) NOT NULL CHECK (cik ~ '^[0-9]{10}$'),
  statement_type       text NOT NULL CHECK (statement_type IN ('INCOME_STATEMENT', 'BALANCE_SHEET', 'CASH_FLOW_STATEMENT')),
  fiscal_year          integer NOT NULL,
  fiscal_period        text NOT NULL CHECK (fiscal_period IN ('FY', 'Q1', 'Q2', 'Q3', 'Q4')),
  version_sequence     integer NOT NULL CHECK (version_sequence >= 1),
  rule_category        text NOT NULL CHECK (rule_category IN ('IDENTITY', 'ROLLFORWARD')),
  status               text NOT NULL CHECK (status IN ('PASS', 'WARNING', 'FAIL')),
  severity             text NOT NULL CHECK (severity IN ('NONE', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL')),
  expected_value       numeric,
  actual_value         numeric,
  -- actual - expected; null exactly when the rule declined to compare
  delta                numeric,
  notes                jsonb NOT NULL DEFAULT '{}',
  computed_at          timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (statement_version_id, rule_id),
  CHECK ((delta IS NULL) = (status = 'WARNING' AND severity = 'NONE'))
);
CREATE INDEX reconciliation_results_identity_idx
  ON reconciliation_results (cik, statement_type, fiscal_year, fiscal_period, version_sequence);
