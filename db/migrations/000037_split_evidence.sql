-- Stock splits a filer never tagged (domain/statements/stock-splits.ts evidentSplit): one filing's
-- own figures show the split (a period told again with per-share figures divided and share counts
-- multiplied by one whole ratio, net income the same). Each recast records which word it took:
-- TAGGED_RATIO (the filer's split ratio fact; split_date is that fact's date) or RESTATED_FIGURES
-- (split_date is the filing date of the first filing whose figures showed it). Recasts recorded
-- before are all of tagged ratios.
ALTER TABLE split_recasts ADD COLUMN split_evidence text NOT NULL DEFAULT 'TAGGED_RATIO'
  CHECK (split_evidence IN ('TAGGED_RATIO', 'RESTATED_FIGURES'));
