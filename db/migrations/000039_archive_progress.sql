-- A run over SEC's bulk archives reports how far through them it is: the compressed bytes of the
-- archive members of the companies it covers, and of those finished. Null for runs that read
-- company by company (a mirror folder or the live site).
ALTER TABLE ingestion_runs ADD COLUMN archive_bytes_total bigint;
ALTER TABLE ingestion_runs ADD COLUMN archive_bytes_done bigint;
