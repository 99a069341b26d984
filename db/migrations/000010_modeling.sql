-- Modeling snapshots: one row per snapshot identity (universe, as-of date, statement types, bundle),
-- built once by a job on the queue; the rows it computed (periods, ratios, growth, TTM,
-- multi-year), the flat rows the build request answers, and the statement versions it read.
-- Reads never compute: they page these tables.

CREATE TABLE modeling_snapshots (
  as_of_snapshot_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- deterministic identity of the request (also the job key): same inputs, same snapshot_id
  snapshot_id       text NOT NULL UNIQUE,
  as_of_date        date NOT NULL,
  ciks              text[] NOT NULL,
  statement_types   text[] NOT NULL,
  metrics_bundle    text NOT NULL CHECK (metrics_bundle IN ('all', 'tier1')),
  model_version     integer NOT NULL,
  status            text NOT NULL CHECK (status IN ('queued', 'building', 'ready', 'failed')),
  requested_at      timestamptz NOT NULL DEFAULT now(),
  started_at        timestamptz,
  heartbeat_at      timestamptz,
  built_at          timestamptz,
  -- graphile-worker id of the worker running the build (to unlock its job when it dies)
  worker_id         text,
  attempts          integer NOT NULL DEFAULT 0,
  error             text,
  snapshot_hash     text,
  row_count         integer
);
CREATE INDEX modeling_snapshots_date_idx ON modeling_snapshots (as_of_date, built_at DESC) WHERE status = 'ready';

-- The statement versions a build read (latest knowable at the end of as_of_date, per identity).
CREATE TABLE modeling_snapshot_versions (
  as_of_snapshot_id    uuid NOT NULL REFERENCES modeling_snapshots(as_of_snapshot_id) ON DELETE CASCADE,
  cik                  char(10) NOT NULL,
  statement_type       text NOT NULL,
  fiscal_year          integer NOT NULL,
  fiscal_period        text NOT NULL,
  version_sequence     integer NOT NULL,
  statement_version_id uuid NOT NULL,
  PRIMARY KEY (as_of_snapshot_id, cik, statement_type, fiscal_year, fiscal_period)
);

-- Computed modeling rows, one jsonb body each, in serving order per (snapshot, kind, company).
CREATE TABLE modeling_rows (
  as_of_snapshot_id uuid NOT NULL REFERENCES modeling_snapshots(as_of_snapshot_id) ON DELETE CASCADE,
  kind              text NOT NULL CHECK (kind IN ('periods', 'ratios', 'growth', 'ttm', 'multi_year')),
  cik               char(10) NOT NULL,
  ord               integer NOT NULL,
  -- period keys ("2019|FY") the row read, to tell which late versions could change it
  reads             text[] NOT NULL,
  body              jsonb NOT NULL,
  PRIMARY KEY (as_of_snapshot_id, kind, cik, ord)
);

-- The flat rows POST /v1/modeling/universe/pit-snapshot answers, in order.
CREATE TABLE modeling_snapshot_rows (
  as_of_snapshot_id    uuid NOT NULL REFERENCES modeling_snapshots(as_of_snapshot_id) ON DELETE CASCADE,
  ord                  integer NOT NULL,
  cik                  char(10) NOT NULL,
  statement_type       text NOT NULL,
  metric_name          text NOT NULL,
  metric_value         numeric NOT NULL,
  statement_date       date NOT NULL,
  fiscal_year          integer NOT NULL,
  fiscal_period        text NOT NULL,
  statement_version_id uuid NOT NULL,
  PRIMARY KEY (as_of_snapshot_id, ord)
);
