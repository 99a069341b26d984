-- Bulk export: snapshots (staging until published, then latest until newer ones push them past the
-- seven kept) and the download URLs issued per organization, which the 24-hour byte allowance counts.

CREATE TABLE bulk_snapshots (
  snapshot_id          text PRIMARY KEY CHECK (snapshot_id ~ '^[0-9]{8}T[0-9]{6}Z$'),
  build_kind           text NOT NULL CHECK (build_kind IN ('full', 'incremental')),
  status               text NOT NULL CHECK (status IN ('building', 'published', 'failed', 'expired')),
  previous_snapshot_id text REFERENCES bulk_snapshots(snapshot_id),
  started_at           timestamptz NOT NULL,
  -- when the build read the corpus (one repeatable-read transaction); the manifest's read_at
  read_at              timestamptz,
  published_at         timestamptz,
  expired_at           timestamptz,
  error                text,
  -- the manifest as served; null until published
  manifest             jsonb,
  -- per file path: sha256 of the rows that went into it, to tell an unchanged file on the next build
  input_hashes         jsonb
);
CREATE INDEX bulk_snapshots_published ON bulk_snapshots (published_at DESC) WHERE status = 'published';

CREATE TABLE bulk_grants (
  grant_id    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  org_id      uuid NOT NULL REFERENCES organizations(org_id),
  snapshot_id text NOT NULL REFERENCES bulk_snapshots(snapshot_id),
  file_path   text NOT NULL,
  bytes       bigint NOT NULL CHECK (bytes >= 0),
  url         text NOT NULL,
  issued_at   timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX bulk_grants_org_issued ON bulk_grants (org_id, issued_at);
CREATE INDEX bulk_grants_reuse ON bulk_grants (org_id, snapshot_id, file_path, expires_at);
