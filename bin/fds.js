#!/usr/bin/env node
// `npx fds <command>` from a clone (or `npx --prefix <clone> fds ...` from anywhere): the CLI in this
// process with tsx's loader registered first, which is what `node --import tsx cli.ts` does. No tsx
// CLI in between, so signals (SIGTERM to the stdio tool server) reach our own handlers.
import 'tsx';

await import('../cli.ts');
