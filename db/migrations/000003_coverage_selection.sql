-- Free-plan coverage slots: the companies a key holds (25 at once, see domain/plans.ts). A slot is
-- live while expires_at > now; an expired row no longer counts and is deleted lazily by the next
-- claim of its key (tools/coverage.ts), so no sweeper is needed. Slots belong to the key, not the
-- organization: each Free key has its own selection.

CREATE TABLE coverage_slots (
  key_id           uuid NOT NULL REFERENCES api_keys(key_id) ON DELETE CASCADE,
  cik              char(10) NOT NULL CHECK (cik ~ '^[0-9]{10}$'),
  claimed_at       timestamptz NOT NULL,
  last_queried_at  timestamptz NOT NULL,
  expires_at       timestamptz NOT NULL,
  PRIMARY KEY (key_id, cik),
  CHECK (last_queried_at < expires_at)
);
CREATE INDEX coverage_slots_expiry_idx ON coverage_slots (key_id, expires_at);
