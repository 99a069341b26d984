-- Change notifications (migration 000031, db/change-feed.ts) for filings and the reconciliation
-- ledger too: a point-in-time read keeps each company's periodic filings and ledger rows in memory
-- (tools/filings/company-records.ts) and drops them when either table changes. A ledger row may be
-- written for a version stored earlier, and a filing may arrive before any version it creates.
CREATE TRIGGER filings_notify_change
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON filings
  FOR EACH STATEMENT EXECUTE FUNCTION fds_notify_change();

CREATE TRIGGER reconciliation_results_notify_change
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON reconciliation_results
  FOR EACH STATEMENT EXECUTE FUNCTION fds_notify_change();
