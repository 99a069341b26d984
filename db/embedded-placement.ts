import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Where the embedded PostgreSQL's binaries and data live, and who runs it. */
export interface EmbeddedPlacement {
  /** the binary tree (bin/, lib/, share/) the server runs from */
  binDir: string;
  /** when set, binDir is a copy of this tree (the original is out of the server user's reach) */
  copyFrom: string | null;
  /** the PostgreSQL data directory */
  databaseDir: string;
  /** true when databaseDir is not under DATA_DIR (it was out of the server user's reach) */
  relocated: boolean;
}

/**
 * Whether a user who is neither the owner nor in the group of each directory (the `postgres` user
 * PostgreSQL runs as when we are root) can reach `target`: every directory from / down to it must
 * be searchable by others. A home directory or a `mktemp -d` folder (0700) is not.
 */
export function reachableByOthers(target: string, uid: number | null = null): boolean {
  let dir = path.resolve(target);
  for (;;) {
    let st;
    try {
      st = statSync(dir);
    } catch {
      // not created yet: what matters is the part that exists
      const up = path.dirname(dir);
      if (up === dir) return true;
      dir = up;
      continue;
    }
    const searchable = (st.mode & 0o001) !== 0 || (uid !== null && st.uid === uid && (st.mode & 0o100) !== 0);
    if (st.isDirectory() && !searchable) return false;
    const up = path.dirname(dir);
    if (up === dir) return true;
    dir = up;
  }
}

/** A root-owned 0755 place that outlives reboots where the system has one (/var/tmp), else the temp dir. */
export function sharedRoot(): string {
  return existsSync('/var/tmp') ? '/var/tmp' : tmpdir();
}

/**
 * Where to run the embedded PostgreSQL. Not as root: in place (binaries in node_modules, data in
 * DATA_DIR/pg), as the invoking user. As root PostgreSQL runs as the `postgres` user, which must
 * reach both: whatever it cannot reach (a checkout in a 0700 folder) moves to
 * `<sharedRoot>/fds-embedded-<hash of DATA_DIR>/` (a copy of the binaries, the data directory),
 * stable per checkout so a restart finds its data again.
 */
export function placeEmbedded(options: {
  dataDir: string;
  packageBinDir: string;
  asRoot: boolean;
  serverUid: number | null;
  root?: string;
}): EmbeddedPlacement {
  const inPlace = { binDir: options.packageBinDir, copyFrom: null, databaseDir: path.join(options.dataDir, 'pg'), relocated: false };
  if (!options.asRoot) return inPlace;
  const base = path.join(options.root ?? sharedRoot(), `fds-embedded-${createHash('sha256').update(path.resolve(options.dataDir)).digest('hex').slice(0, 12)}`);
  const binsReachable = reachableByOthers(options.packageBinDir, options.serverUid);
  // DATA_DIR itself is ours to open up (0755); what it sits in is not
  const dataReachable = reachableByOthers(path.dirname(path.resolve(options.dataDir)), options.serverUid);
  return {
    binDir: binsReachable ? options.packageBinDir : path.join(base, 'native'),
    copyFrom: binsReachable ? null : options.packageBinDir,
    databaseDir: dataReachable ? inPlace.databaseDir : path.join(base, 'pg'),
    relocated: !dataReachable,
  };
}
