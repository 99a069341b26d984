-- Which bulk partitions a transaction changed, so an incremental export build reads only those
-- (export/build.ts, export/change-log.ts). Every statement writing a table a bulk dataset is read
-- from logs the (dataset, partition) pairs of the rows it wrote, under its transaction's id: the
-- inserted and the deleted rows, and of an UPDATE only the rows whose values changed (old and new
-- partition). TRUNCATE logs partition '*', every partition of the dataset. A build records the
-- snapshot it read the corpus in (bulk_snapshots.read_snapshot); the next one reads again the
-- partitions with a change that snapshot did not see, and carries the others' files forward. Rows
-- the latest published snapshot saw are deleted once it is published.

CREATE TABLE bulk_changes (
  dataset   text NOT NULL,
  partition text NOT NULL,
  xid       xid8 NOT NULL DEFAULT pg_current_xact_id(),
  PRIMARY KEY (dataset, partition, xid)
);

ALTER TABLE bulk_snapshots ADD COLUMN read_snapshot pg_snapshot;

-- Arguments: the partition of a row as SQL over its columns (as export/dataset-queries.ts computes
-- it, '' for none), then the datasets read from the table.
CREATE OR REPLACE FUNCTION bulk_log_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  part text := TG_ARGV[0];
  datasets text[] := TG_ARGV[1:];
  rows_sql text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    INSERT INTO bulk_changes (dataset, partition) SELECT d, '*' FROM unnest(datasets) d ON CONFLICT DO NOTHING;
    RETURN NULL;
  END IF;
  rows_sql := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT %s AS p FROM bulk_new r', part)
    WHEN 'DELETE' THEN format('SELECT %s AS p FROM bulk_old r', part)
    ELSE format('SELECT %1$s AS p FROM (SELECT * FROM bulk_new EXCEPT SELECT * FROM bulk_old) r
                 UNION SELECT %1$s AS p FROM (SELECT * FROM bulk_old EXCEPT SELECT * FROM bulk_new) r', part)
  END;
  EXECUTE format('INSERT INTO bulk_changes (dataset, partition)
                  SELECT DISTINCT d, coalesce(c.p::text, %L) FROM (%s) c, unnest($1) d
                  ON CONFLICT DO NOTHING', '', rows_sql)
    USING datasets;
  RETURN NULL;
END
$$;

CREATE TRIGGER companies_bulk_insert AFTER INSERT ON companies REFERENCING NEW TABLE AS bulk_new
  FOR EACH STATEMENT EXECUTE FUNCTION bulk_log_changes($$''$$, 'companies');
CREATE TRIGGER companies_bulk_update AFTER UPDATE ON companies REFERENCING OLD TABLE AS bulk_old NEW TABLE AS bulk_new
  FOR EACH STATEMENT EXECUTE FUNCTION bulk_log_changes($$''$$, 'companies');
CREATE TRIGGER companies_bulk_delete AFTER DELETE ON companies REFERENCING OLD TABLE AS bulk_old
  FOR EACH STATEMENT EXECUTE FUNCTION bulk_log_changes($$''$$, 'companies');
CREATE TRIGGER companies_bulk_truncate AFTER TRUNCATE ON companies
  FOR EACH STATEMENT EXECUTE FUNCTION bulk_log_changes($$''$$, 'companies');

CREATE TRIGGER filings_bulk_insert AFTER INSERT ON filings REFERENCING NEW TABLE AS bulk_new
  FOR EACH STATEMENT EXECUTE FUNCTION bulk_log_changes('extract(year FROM r.filing_date)::int', 'filings');
CREATE TRIGGER filings_bulk_update AFTER UPDATE ON filings REFERENCING OLD TABLE AS bulk_old NEW TABLE AS bulk_new
  FOR EACH STATEMENT EXECUTE FUNCTION bulk_log_changes('extract(year FROM r.filing_date)::int', 'filings');
CREATE TRIGGER filings_bulk_delete AFTER DELETE ON filings REFERENCING OLD TABLE AS bulk_old
  FOR EACH STATEMENT EXECUTE FUNCTION bulk_log_changes('extract(year FROM r.filing_date)::int', 'filings');
CREATE TRIGGER filings_bulk_truncate AFTER TRUNCATE ON filings
  FOR EACH STATEMENT EXECUTE FUNCTION bulk_log_changes('', 'filings');

CREATE TRIGGER statement_versions_bulk_insert AFTER INSERT ON statement_versions REFERENCING NEW TABLE AS bulk_new
  FOR EACH STATEMENT EXECUTE FUNCTION bulk_log_changes('r.fiscal_year', 'statements', 'financials');
CREATE TRIGGER statement_versions_bulk_update AFTER UPDATE ON statement_versions REFERENCING OLD TABLE AS bulk_old NEW TABLE AS bulk_new
  FOR EACH STATEMENT EXECUTE FUNCTION bulk_log_changes('r.fiscal_year', 'statements', 'financials');
CREATE TRIGGER statement_versions_bulk_delete AFTER DELETE ON statement_versions REFERENCING OLD TABLE AS bulk_old
  FOR EACH STATEMENT EXECUTE FUNCTION bulk_log_changes('r.fiscal_year', 'statements', 'financials');
CREATE TRIGGER statement_versions_bulk_truncate AFTER TRUNCATE ON statement_versions
  FOR EACH STATEMENT EXECUTE FUNCTION bulk_log_changes('', 'statements', 'financials');

CREATE TRIGGER segment_facts_bulk_insert AFTER INSERT ON segment_facts REFERENCING NEW TABLE AS bulk_new
  FOR EACH STATEMENT EXECUTE FUNCTION bulk_log_changes('r.fiscal_year', 'segments');
CREATE TRIGGER segment_facts_bulk_update AFTER UPDATE ON segment_facts REFERENCING OLD TABLE AS bulk_old NEW TABLE AS bulk_new
  FOR EACH STATEMENT EXECUTE FUNCTION bulk_log_changes('r.fiscal_year', 'segments');
CREATE TRIGGER segment_facts_bulk_delete AFTER DELETE ON segment_facts REFERENCING OLD TABLE AS bulk_old
  FOR EACH STATEMENT EXECUTE FUNCTION bulk_log_changes('r.fiscal_year', 'segments');
CREATE TRIGGER segment_facts_bulk_truncate AFTER TRUNCATE ON segment_facts
  FOR EACH STATEMENT EXECUTE FUNCTION bulk_log_changes('', 'segments');

CREATE TRIGGER disclosures_bulk_insert AFTER INSERT ON disclosures REFERENCING NEW TABLE AS bulk_new
  FOR EACH STATEMENT EXECUTE FUNCTION bulk_log_changes('extract(year FROM coalesce(r.period_of_report, r.context_end))::int', 'disclosures');
CREATE TRIGGER disclosures_bulk_update AFTER UPDATE ON disclosures REFERENCING OLD TABLE AS bulk_old NEW TABLE AS bulk_new
  FOR EACH STATEMENT EXECUTE FUNCTION bulk_log_changes('extract(year FROM coalesce(r.period_of_report, r.context_end))::int', 'disclosures');
CREATE TRIGGER disclosures_bulk_delete AFTER DELETE ON disclosures REFERENCING OLD TABLE AS bulk_old
  FOR EACH STATEMENT EXECUTE FUNCTION bulk_log_changes('extract(year FROM coalesce(r.period_of_report, r.context_end))::int', 'disclosures');
CREATE TRIGGER disclosures_bulk_truncate AFTER TRUNCATE ON disclosures
  FOR EACH STATEMENT EXECUTE FUNCTION bulk_log_changes('', 'disclosures');

-- An incremental build reads the rows of a changed partition: the served statement versions of a
-- fiscal year, the filings of a year.
CREATE INDEX statement_versions_fiscal_year_idx ON statement_versions (fiscal_year);
CREATE INDEX filings_filing_date_idx ON filings (filing_date);
