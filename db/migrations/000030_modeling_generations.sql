-- A modeling snapshot identity can be built again when statement versions knowable at its date
-- arrive after its build (PENDING_REBUILD): each build is a generation of the same snapshot_id.
-- Reads keep serving the latest ready generation while a newer one builds.
ALTER TABLE modeling_snapshots DROP CONSTRAINT modeling_snapshots_snapshot_id_key;
ALTER TABLE modeling_snapshots ADD COLUMN generation integer NOT NULL DEFAULT 1 CHECK (generation >= 1);
ALTER TABLE modeling_snapshots ADD CONSTRAINT modeling_snapshots_generation_key UNIQUE (snapshot_id, generation);
