-- One fair-access budget for SEC's hosts, shared by every process of the fleet (db/sec-budget.ts):
-- each request reserves the next free slot of an evenly spaced schedule on the database's clock,
-- so however many instances and workers ask, their request starts stay one gap apart. A pause
-- (Retry-After, 403, 429) holds every process until paused_until.
CREATE TABLE sec_request_budget (
  name text PRIMARY KEY,
  next_slot_at timestamptz NOT NULL,
  paused_until timestamptz,
  pause_reason text,
  requests bigint NOT NULL DEFAULT 0
);
INSERT INTO sec_request_budget (name, next_slot_at) VALUES ('sec', now());

-- The feed watcher's state (jobs/feed-watch.ts): one row per feed, written by each poll.
CREATE TABLE feed_state (
  feed text PRIMARY KEY,
  last_poll_at timestamptz,
  last_poll_ok boolean,
  last_result text,
  last_error text,
  last_ok_at timestamptz,
  down_since timestamptz,
  outage_logged boolean NOT NULL DEFAULT false,
  last_accession text,
  items_in_last_poll integer NOT NULL DEFAULT 0,
  polls bigint NOT NULL DEFAULT 0
);

-- Every accession the feed or a daily index named, once: a second sighting changes nothing, so
-- no filing is processed twice. status: pending (a refresh is due or running), served (company
-- facts held it and it was ingested), late (company facts still lacked it an hour after it was
-- seen), skipped (not a periodic form).
CREATE TABLE feed_accessions (
  accession text PRIMARY KEY,
  cik char(10) NOT NULL CHECK (cik ~ '^[0-9]{10}$'),
  form text NOT NULL,
  company_name text,
  accepted_at timestamptz,
  filed_date date,
  period text,
  seen_via text NOT NULL CHECK (seen_via IN ('feed', 'daily_index')),
  seen_at timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'served', 'late', 'skipped')),
  served_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  last_error text
);
CREATE INDEX feed_accessions_open_idx ON feed_accessions (cik) WHERE status IN ('pending', 'late');
CREATE INDEX feed_accessions_served_idx ON feed_accessions (served_at DESC) WHERE status = 'served';
CREATE INDEX feed_accessions_seen_idx ON feed_accessions (seen_at DESC);
