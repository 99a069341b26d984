-- How many metrics (figures) a statement version holds, counted once when the version is written
-- (db/statement-write.ts): the bulk export's statements dataset lists it as metric_count, and
-- counting the keys of the stored figures there decompressed every served version's figures a
-- second time on each build (the financials dataset reads them too): ~30 ms of PostgreSQL's CPU a
-- build on the corpus, about 60% of that query. Versions are never updated in place, so the count
-- never goes stale. The versions stored before this migration are counted here, once; a row written
-- without it (NULL) is counted by the export as before (export/dataset-queries.ts).
ALTER TABLE statement_versions ADD COLUMN metric_count integer CHECK (metric_count >= 0);
UPDATE statement_versions SET metric_count = (SELECT count(*) FROM jsonb_object_keys(figures));
