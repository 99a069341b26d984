-- Ticker mappings an identity load made before ingestion created the CIK's company row (an issuer
-- with company facts or a filing package but no submissions file) kept company_id null although
-- the company is in the reference: `npm start` and `fds ingest` load identity first. Ingestion now
-- links them as it creates the row (db/ingestion-runs.ts ensureCompany); this links the ones
-- stored before.
UPDATE identity_mappings im SET company_id = c.company_id
FROM companies c
WHERE c.cik = im.cik AND im.company_id IS NULL;
