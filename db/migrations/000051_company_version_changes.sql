-- Which transactions changed a company's statement versions, so a reader holding a company's
-- versions in memory without change notifications (api/company-versions.ts, READ_CACHE=off) can
-- ask "did anything change since the snapshot I read them in?" with one short index range scan
-- instead of listing every version id. Every statement that writes statement_versions logs the
-- companies of the rows it wrote (inserted, deleted, both sides of an update) under its
-- transaction's id; TRUNCATE logs '*', every company. A reader that read a company's versions in
-- snapshot S looks for a row of that company (or '*') whose transaction S does not see: only
-- transactions from S's xmin on can be such, so the scan starts there. Rows are one per company per
-- writing transaction and are kept: removing one a reader's snapshot does not see would hide a change.
CREATE TABLE company_version_changes (
  cik text NOT NULL,
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  PRIMARY KEY (cik, xid)
);

CREATE OR REPLACE FUNCTION company_version_log_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    INSERT INTO company_version_changes (cik) VALUES ('*') ON CONFLICT DO NOTHING;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO company_version_changes (cik) SELECT DISTINCT cik FROM cv_new ORDER BY 1 ON CONFLICT DO NOTHING;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO company_version_changes (cik) SELECT DISTINCT cik FROM cv_old ORDER BY 1 ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO company_version_changes (cik)
      SELECT cik FROM cv_new UNION SELECT cik FROM cv_old ORDER BY 1 ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER statement_versions_company_insert AFTER INSERT ON statement_versions REFERENCING NEW TABLE AS cv_new
  FOR EACH STATEMENT EXECUTE FUNCTION company_version_log_changes();
CREATE TRIGGER statement_versions_company_update AFTER UPDATE ON statement_versions REFERENCING OLD TABLE AS cv_old NEW TABLE AS cv_new
  FOR EACH STATEMENT EXECUTE FUNCTION company_version_log_changes();
CREATE TRIGGER statement_versions_company_delete AFTER DELETE ON statement_versions REFERENCING OLD TABLE AS cv_old
  FOR EACH STATEMENT EXECUTE FUNCTION company_version_log_changes();
CREATE TRIGGER statement_versions_company_truncate AFTER TRUNCATE ON statement_versions
  FOR EACH STATEMENT EXECUTE FUNCTION company_version_log_changes();
