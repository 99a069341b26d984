-- Disclosure text (a note's text block, 2.5 kB on average, up to ~66 kB) is compressed with lz4
-- instead of pglz where the server has lz4, as statement versions' figures are (000032): pglz
-- compressing it was ~2% of what PostgreSQL spent on a whole-mirror ingestion (its one pglz cost
-- left, ~30 ms), lz4 does it in a fraction of that and decompresses faster for every read of a
-- disclosure too. Values stored before keep pglz; PostgreSQL reads both, and the stored text is
-- the same either way. A server without lz4 (the embedded binaries) keeps pglz.
DO $$
BEGIN
  ALTER TABLE disclosures ALTER COLUMN disclosure_text SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available on this server: disclosures keep pglz';
END
$$;
