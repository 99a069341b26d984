-- AI artifacts of a modeling snapshot (domain/ai/, written by the build's artifact steps in
-- jobs/ai-artifacts.ts inside the build transaction): generated narratives and the
-- financial-profile embedding of each company of the snapshot. Deterministic over the snapshot's
-- rows; read by the /v1/ai routes, never computed on read.

CREATE TABLE ai_narratives (
  as_of_snapshot_id uuid NOT NULL REFERENCES modeling_snapshots(as_of_snapshot_id) ON DELETE CASCADE,
  cik               char(10) NOT NULL,
  narrative_type    text NOT NULL CHECK (narrative_type IN ('CHANGE_SUMMARY', 'MARGINS_MOVE', 'ROIC_CHANGE')),
  statement_type    text NOT NULL CHECK (statement_type IN ('INCOME_STATEMENT', 'BALANCE_SHEET', 'CASH_FLOW_STATEMENT')),
  -- serving order: newest period first
  ord               integer NOT NULL,
  narrative_id      uuid NOT NULL,
  -- the narrative as generated: text, sentences, claims, generator
  body              jsonb NOT NULL,
  PRIMARY KEY (as_of_snapshot_id, cik, narrative_type, statement_type, ord)
);

CREATE TABLE ai_embeddings (
  as_of_snapshot_id uuid NOT NULL REFERENCES modeling_snapshots(as_of_snapshot_id) ON DELETE CASCADE,
  cik               char(10) NOT NULL,
  model_id          text NOT NULL,
  model_version     text NOT NULL,
  -- fiscal year, vector (decimal strings), features (raw and standardized), missing features, versions read
  body              jsonb NOT NULL,
  PRIMARY KEY (as_of_snapshot_id, cik)
);
