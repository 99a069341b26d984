-- Macro series and deterministic queries.
--
-- macro_series: the approved series as last loaded (the registry itself lives in code,
-- domain/macro/series-registry.ts; this row records what the source gave and when).
-- macro_observations: one row per series, observation date and the date from which that value was
-- knowable. A source without vintages (the FRED CSV directory) gives one row per date, knowable from
-- the period end plus the series' release lag; a later load that finds a different value adds a
-- row knowable from that load's date (never an update), and a vintage source (ALFRED) can add one
-- row per vintage. value NULL = the publisher lists the date with no value (CPI 2025-10).
CREATE TABLE macro_series (
  series_code       text PRIMARY KEY CHECK (series_code ~ '^[A-Z0-9]{2,20}$'),
  source            text NOT NULL,
  source_sha256     text NOT NULL,
  observation_count integer NOT NULL CHECK (observation_count >= 0),
  first_date        date,
  last_date         date,
  loaded_at         timestamptz NOT NULL
);

CREATE TABLE macro_observations (
  series_code      text NOT NULL REFERENCES macro_series(series_code),
  observation_date date NOT NULL,
  knowable_from    date NOT NULL CHECK (knowable_from >= observation_date),
  value            numeric,
  -- 'release_lag': period end + documented lag (no vintage in the source); 'revision_seen': a changed
  -- value first seen by the load of that date; 'vintage': the source's own vintage date
  knowable_basis   text NOT NULL CHECK (knowable_basis IN ('release_lag', 'revision_seen', 'vintage')),
  loaded_at        timestamptz NOT NULL,
  PRIMARY KEY (series_code, observation_date, knowable_from)
);

-- Deterministic queries: one immutable row per execution. response_text is the exact body served
-- on replay; manifest is the same manifest as inside it, kept as JSON for inspection.
CREATE TABLE query_manifests (
  replay_token          text PRIMARY KEY CHECK (replay_token ~ '^qr_[A-Za-z0-9_-]{32}$'),
  query_type            text NOT NULL,
  parameters            jsonb NOT NULL,
  as_of_date            date NOT NULL,
  statement_version_ids uuid[] NOT NULL,
  ciks                  text[] NOT NULL,
  code_version          text NOT NULL,
  catalog_version       text NOT NULL,
  result_hash           text NOT NULL,
  manifest              jsonb NOT NULL,
  response_text         text NOT NULL,
  key_id                uuid,
  created_at            timestamptz NOT NULL
);

CREATE FUNCTION query_manifests_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'query manifests are immutable (% refused)', TG_OP;
END $$;

CREATE TRIGGER query_manifests_no_change BEFORE UPDATE OR DELETE ON query_manifests
  FOR EACH ROW EXECUTE FUNCTION query_manifests_immutable();
