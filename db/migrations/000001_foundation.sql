-- Organizations, API keys and company identity.

CREATE TABLE organizations (
  org_id      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- The plan sits on the key: one organization may hold keys of several plans (the dev org does).
-- Only the SHA-256 of the key is stored.
CREATE TABLE api_keys (
  key_id      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  org_id      uuid NOT NULL REFERENCES organizations(org_id),
  plan        text NOT NULL CHECK (plan IN ('free', 'growth', 'scale', 'enterprise')),
  key_prefix  text NOT NULL,
  key_hash    bytea NOT NULL UNIQUE CHECK (octet_length(key_hash) = 32),
  label       text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz
);
CREATE INDEX api_keys_org_idx ON api_keys (org_id);

-- The company reference: issuers whose SEC submissions (profile) the source holds.
CREATE TABLE companies (
  company_id        uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cik               char(10) NOT NULL UNIQUE CHECK (cik ~ '^[0-9]{10}$'),
  name              text NOT NULL,
  entity_type       text,
  sic               text,
  sic_description   text,
  category          text,
  fiscal_year_end   text CHECK (fiscal_year_end IS NULL OR fiscal_year_end ~ '^[0-9]{4}$'),
  state_of_incorporation text,
  ein               text,
  lei               text,
  description       text,
  website           text,
  investor_website  text,
  phone             text,
  tickers           text[] NOT NULL DEFAULT '{}',
  exchanges         text[] NOT NULL DEFAULT '{}',
  former_names      jsonb NOT NULL DEFAULT '[]',
  addresses         jsonb NOT NULL DEFAULT '{}',
  source            text NOT NULL,
  source_loaded_at  timestamptz NOT NULL,
  latest_filing_accession text
);

-- Ticker <-> CIK mappings over time. A mapping opens when a load first observes it and closes
-- (active_to) when a later load no longer does; a reappearing pair opens a new row.
CREATE TABLE identity_mappings (
  id                       uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id               uuid REFERENCES companies(company_id),
  cik                      char(10) NOT NULL CHECK (cik ~ '^[0-9]{10}$'),
  ticker                   text NOT NULL,
  company_name             text NOT NULL,
  exchange                 text,
  active_from              date NOT NULL,
  active_to                date,
  is_active                boolean NOT NULL,
  source                   text NOT NULL,
  source_loaded_at         timestamptz NOT NULL,
  source_filing_accession  text,
  confidence_score         numeric(4, 3),
  CHECK ((active_to IS NULL) = is_active)
);
CREATE UNIQUE INDEX identity_mappings_one_live ON identity_mappings (cik, ticker) WHERE is_active;
CREATE INDEX identity_mappings_ticker_idx ON identity_mappings (ticker, active_from);
CREATE INDEX identity_mappings_cik_idx ON identity_mappings (cik);
CREATE INDEX identity_mappings_name_idx ON identity_mappings (lower(company_name) text_pattern_ops);

-- One row per identity load, for status and for `source_loaded_at`.
CREATE TABLE identity_loads (
  load_id      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  source_root  text NOT NULL,
  started_at   timestamptz NOT NULL,
  finished_at  timestamptz NOT NULL,
  companies    integer NOT NULL,
  mappings_seen    integer NOT NULL,
  mappings_opened  integer NOT NULL,
  mappings_closed  integer NOT NULL
);
