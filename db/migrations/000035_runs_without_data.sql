-- Companies a run found nothing usable for (no company facts, no submissions, no filing package it
-- could identify: status no_data) are counted apart from the unchanged ones. Until now both went
-- into companies_skipped, and the ingestion status route reported them as unchanged, which a
-- company never ingested is not. Runs recorded before keep their mixed count (their no_data
-- companies cannot be told apart any more) and 0 here.
ALTER TABLE ingestion_runs ADD COLUMN companies_without_data integer NOT NULL DEFAULT 0;
