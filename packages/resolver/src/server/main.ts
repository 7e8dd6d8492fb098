/**
 * A small process entry for the resolver, used by the fault tests (child
 * processes that can be killed) and handy for operators:
 *
 * ```text
 *   node main.js serve  [--db <url>] [--db-replica <url>] [--name-cache-mb <n>] [--port <n>] [--host <h>] [--authority <prefix>] [--demo]
 *                       [--stale-if-error <s>] [--drain-ms <ms>] [--shutdown-timeout-ms <ms>] [--no-rate-limit]
 *   node main.js import --db <url> [--exclusive] --format ndjson|csv <file>
 *   node main.js token  --db <url> --authority <prefix>
 * ```
 *
 * `serve` prints one JSON line `{"url":...,"port":...}` when it listens and
 * shuts down gracefully on SIGTERM/SIGINT (draining `--drain-ms` first on
 * SIGTERM), then prints `{"stopped":<ms>}`; `import` prints the report.
 * The `urikit` CLI (packages/cli) is the user-facing command.
 */
import { createReadStream } from 'node:fs';
import { importNames } from '../store/import.js';
import { openStore } from '../store/open.js';
import { createToken } from '../store/tokens.js';
import { startServer } from './server.js';

/** The value of `--name`; given twice, the last one (as a later option overrides an earlier one). */
function flag(args: string[], name: string): string | undefined {
  const i = args.lastIndexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(argv: string[]): Promise<number> {
  const [command = 'serve', ...args] = argv;
  const db = flag(args, 'db');
  if (command === 'serve') {
    const port = flag(args, 'port');
    const host = flag(args, 'host');
    const authority = flag(args, 'authority');
    const replica = flag(args, 'db-replica');
    const cacheMb = flag(args, 'name-cache-mb');
    const stale = flag(args, 'stale-if-error');
    const drainMs = Number(flag(args, 'drain-ms') ?? 0);
    const timeoutMs = flag(args, 'shutdown-timeout-ms');
    const server = await startServer({
      ...(stale !== undefined ? { staleIfErrorSeconds: Number(stale) } : {}),
      ...(timeoutMs !== undefined ? { shutdown: { timeoutMs: Number(timeoutMs) } } : {}),
      ...(db !== undefined ? { db } : {}),
      ...(port !== undefined ? { port: Number(port) } : {}),
      ...(host !== undefined ? { host } : {}),
      ...(authority !== undefined ? { authority } : {}),
      ...(replica !== undefined ? { dbReplica: replica } : {}),
      ...(cacheMb !== undefined ? { nameCacheBytes: Number(cacheMb) * 2 ** 20 } : {}),
      demo: args.includes('--demo'),
      rateLimit: args.includes('--no-rate-limit') ? false : { perSecond: 1000, burst: 2000 },
      adminRateLimit: args.includes('--no-rate-limit') ? false : { perSecond: 1000, burst: 2000 },
    });
    process.stdout.write(`${JSON.stringify({ url: server.url, port: server.port })}\n`);
    const stop = (signal: NodeJS.Signals) => {
      const started = Date.now();
      void server.close({ drainMs: signal === 'SIGTERM' ? drainMs : 0 }).then(() => {
        process.stdout.write(`${JSON.stringify({ stopped: Date.now() - started })}\n`);
        process.exit(0);
      });
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    return -1;
  }
  const store = await openStore(db, { exclusive: command === 'import' && args.includes('--exclusive') });
  try {
    if (command === 'import') {
      const format = flag(args, 'format') === 'csv' ? 'csv' : 'ndjson';
      const file = args[args.length - 1]!;
      let shown = 0;
      const report = await importNames(store, createReadStream(file), {
        format,
        onProgress: (n) => { if (n - shown >= 10_000) { shown = n; process.stderr.write(`progress ${n}\n`); } },
      });
      process.stdout.write(`${JSON.stringify(report)}\n`);
      return report.ok ? 0 : 1;
    }
    if (command === 'token') {
      const t = await createToken(store, { authority: flag(args, 'authority') ?? '*' });
      process.stdout.write(`${JSON.stringify(t)}\n`);
      return 0;
    }
    process.stderr.write(`unknown command ${command}\n`);
    return 2;
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2)).then((code) => { if (code >= 0) process.exitCode = code; }, (e: unknown) => {
  const cause = (e as Error).cause;
  process.stderr.write(`${(e as Error).stack ?? String(e)}${cause instanceof Error ? `\ncause: ${cause.message}` : ''}\n`);
  process.exit(1);
});
