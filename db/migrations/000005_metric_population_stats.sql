-- Population statistics of canonical metrics: how often a sampled cohort's statements carry each
-- metric, per statement type, form type and fiscal period. Precomputed at the end of ingestion
-- (db/coverage.ts refreshPopulationStats) and served by GET /v1/coverage/metrics. A derived cache,
-- not a record: each refresh replaces a cohort's rows in one transaction.

CREATE TABLE metric_population_stats (
  cohort           text NOT NULL,
  form_type        text NOT NULL CHECK (form_type IN ('10-K', '10-Q')),
  statement_type   text NOT NULL CHECK (statement_type IN ('INCOME_STATEMENT', 'BALANCE_SHEET', 'CASH_FLOW_STATEMENT')),
  fiscal_period    text NOT NULL CHECK (fiscal_period IN ('FY', 'Q1', 'Q2', 'Q3')),
  metric_name      text NOT NULL,
  populated_count  integer NOT NULL CHECK (populated_count >= 0),
  sample_size      integer NOT NULL CHECK (sample_size > 0 AND populated_count <= sample_size),
  sample_companies integer NOT NULL,
  populated_rate   numeric(7, 6) NOT NULL CHECK (populated_rate BETWEEN 0 AND 1),
  computed_at      timestamptz NOT NULL,
  PRIMARY KEY (cohort, form_type, statement_type, fiscal_period, metric_name)
);
