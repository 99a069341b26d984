-- Statement versions' figures (and calculation evidence) are compressed with lz4 instead of pglz
-- where the server has lz4 (PostgreSQL built --with-lz4, as the Debian/Ubuntu and official Docker
-- builds are): compressing a version's figures was a third of what PostgreSQL spent storing it at
-- ingestion, and lz4 decompresses faster for every read too. Values stored before keep pglz;
-- PostgreSQL reads both, and the stored JSON is the same either way. A server without lz4 (the
-- embedded binaries) keeps pglz.
DO $$
BEGIN
  ALTER TABLE statement_versions ALTER COLUMN figures SET COMPRESSION lz4;
  ALTER TABLE statement_versions ALTER COLUMN calculation_evidence SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available on this server: statement_versions keeps pglz';
END
$$;
