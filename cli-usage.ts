import { PLANS } from './domain/plans.ts';

/** What `npm run fds -- help` prints: every command and its options. */
export const USAGE = `Usage: npm run fds -- <command> [options]

Commands:
  serve                                   migrate, load data when the database is empty, serve on PORT (default 8080)
  mcp                                     the tool server over stdio (MCP's stdio transport) for a local assistant,
                                          as the key in FDS_API_KEY; newline-delimited JSON-RPC on stdin/stdout,
                                          logs on stderr; settings are read relative to this checkout
  migrate                                 apply pending database migrations
  backup <file>                           write what cannot be re-derived from SEC (organizations, API keys, coverage
                                          slots, request budgets, recorded queries, bulk snapshot records) to <file>
                                          (pg_dump custom format)
  restore <file>                          migrate, then load a backup into a database that holds none of those rows yet;
                                          ingest afterwards (or let serve do it) to rebuild the statements
  worker                                  run only a job-queue worker (snapshot builds, the daily export, the feed watcher), no HTTP;
                                          it shares the queue with every other instance on the same database
  keys create --plan <plan> --org <name>  create an API key (plans: ${PLANS.join(', ')}); the key is the last line printed
  identity load [--source DIR|URL]        (re)load ticker and company identity from SEC_SOURCE
  macro load [--source DIR|URL]           load the registered macro series from MACRO_SOURCE (a directory
                                          like ../shared/macro or https://fred.stlouisfed.org); idempotent
  export build [--full]                   build and publish a bulk Parquet snapshot (incremental unless --full
                                          or the last full build is a week old); the previous stays latest on failure
  corpus synth --factor N --out DIR [--source DIR]
                                          write a synthetic mirror N times SEC_SOURCE (the mirror plus N-1
                                          clones of each company under new CIKs, values perturbed) for scale tests,
                                          and the same as DIR/companyfacts.zip and DIR/submissions.zip
  screens rebuild [--all]                 write the screen rows of companies that have none (--all: of every company)
  ingest [--cik N ...] [--ticker T ...] [--source DIR|URL] [--workers N] [--archives DIR|URL]
                                          normalize company facts into versioned statements (default:
                                          every company in the source); re-running over the same source changes nothing;
                                          --workers N: N child processes each ingesting whole companies
                                          (default INGEST_WORKERS, 1: in this process);
                                          --archives: company facts and submissions from SEC's bulk archives
                                          (a directory with companyfacts.zip and submissions.zip, or https://www.sec.gov);
                                          exit 0: every company done, 1: partial (the failed ones are listed,
                                          the others are written), 2: nothing done (bad arguments, unreadable archive)
  ingest --archives DIR|URL --queue [--batch N]
                                          record the run and put its companies on the job queue in batches of N
                                          (default 25) for every job worker on the database (fds worker, service
                                          instances) to share; progress in /v1/system/ingestion/status

Settings come from the environment: PORT, DATABASE_URL, DATA_DIR, SEC_SOURCE, SEC_USER_AGENT, ... (see docs/configuration.md).`;
