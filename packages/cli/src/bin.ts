#!/usr/bin/env node
/**
 * The `urikit` executable: runs {@link main} on the process arguments and
 * exits with its status.
 */
import { main } from './index.js';

// A reader that went away (`urikit normalize < big.txt | head`) is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

const code = await main(process.argv.slice(2));
process.exitCode = code;
