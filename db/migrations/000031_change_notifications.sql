-- Change notifications for read caches (db/change-feed.ts). Every statement that writes statement
-- versions or API keys (INSERT, COPY, UPDATE, DELETE, TRUNCATE) notifies channel fds_changes with
-- the table's name when its transaction commits; every service instance listens and drops what it
-- cached from that table. NOTIFY folds duplicates within a transaction, so a bulk ingestion sends
-- one notification per table per commit.
CREATE OR REPLACE FUNCTION fds_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('fds_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

CREATE TRIGGER statement_versions_notify_change
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON statement_versions
  FOR EACH STATEMENT EXECUTE FUNCTION fds_notify_change();

CREATE TRIGGER api_keys_notify_change
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION fds_notify_change();

CREATE TRIGGER organizations_notify_change
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON organizations
  FOR EACH STATEMENT EXECUTE FUNCTION fds_notify_change();
