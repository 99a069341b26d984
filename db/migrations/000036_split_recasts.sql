-- Stock split recasts (domain/statements/stock-splits.ts): a per-share figure or share count a later
-- filing presents again on a split's new share basis, the split tagged by the filer between the two
-- filings. Such a version revises nothing (no alert event, no fact revision); each recast figure is
-- recorded here with both values, both accessions and the split, so the ledger can say why the
-- version exists. Versions written before this table keep their split recasts as fact revisions.
CREATE TABLE split_recasts (
  split_recast_id      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  statement_version_id uuid NOT NULL REFERENCES statement_versions(statement_version_id),
  previous_version_id  uuid NOT NULL REFERENCES statement_versions(statement_version_id),
  metric               text NOT NULL,
  old_value            numeric NOT NULL,
  new_value            numeric NOT NULL,
  old_accession        text NOT NULL,
  new_accession        text NOT NULL,
  split_ratio          numeric NOT NULL CHECK (split_ratio > 0),
  split_date           date NOT NULL,
  UNIQUE (statement_version_id, metric)
);
