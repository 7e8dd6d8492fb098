/**
 * `npm run bench:harvest`: records harvested and applied per second by
 * `harvestRepository` from a repository on the loopback address, and the
 * memory it takes. The repository (harvest-repository.ts, a child process
 * so that making the pages does not count against the harvester) answers
 * `--records` epicur records (two URLs each, every hundredth deleted) in
 * pages of `--page` with resumption tokens; the harvest goes into a new
 * SQLite file (or `--db postgres://...`), no pause between requests. The
 * goal: at least 5,000 records a second on SQLite, and memory bounded: the
 * JavaScript heap after a full collection (run with --expose-gc) the same
 * after the first tenth of the pages and at the end. The resident size is
 * shown too; it grows with the database file, which SQLite maps into
 * memory (store/sqlite.ts: mmap_size 1 GiB; file pages, given back under
 * pressure). Records a CPU-second of the harvester are shown beside the
 * wall-clock rate (a loaded machine slows the second, not the first).
 * Options: `--records` (default 1,000,000), `--page` (1,000), `--db`,
 * `--out` (default bench/RESULTS-harvest.md).
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { harvestRepository, openStore } from '@urikit/resolver';

const argv = process.argv.slice(2);
const flag = (name: string, dflt: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1]! : dflt; };
const records = Number(flag('records', '1000000'));
const page = Number(flag('page', '1000'));
const out = flag('out', fileURLToPath(new URL('../RESULTS-harvest.md', import.meta.url)));
const MiB = 2 ** 20;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'urikit-bench-harvest-'));
  const db = flag('db', join(dir, 'harvest.sqlite'));
  const repo = fork(fileURLToPath(new URL('./harvest-repository.js', import.meta.url)), [String(records), String(page)]);
  const port = await new Promise<number>((resolve) => repo.once('message', (m) => resolve((m as { port: number }).port)));
  const store = await openStore(db);
  const pages = Math.ceil(records / page);
  let peakRss = 0;
  let earlyPeakRss = 0;
  let peakHeap = 0;
  // the heap after a full collection: what the harvest holds, not what it has yet to free
  const gc = (globalThis as { gc?: () => void }).gc;
  const liveHeap = () => { if (gc === undefined) return NaN; gc(); return process.memoryUsage().heapUsed; };
  let earlyHeap = NaN;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  const timer = setInterval(sample, 50);
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  try {
    const report = await harvestRepository(store, { baseUrl: `http://127.0.0.1:${port}/oai`, metadataPrefix: 'epicur', authority: 'urn:nbn:de:101-' }, {
      fetch: { allowAddresses: 'all' },
      pageDelayMs: 0,
      onPage: (n) => {
        sample();
        if (n === Math.ceil(pages / 10)) { earlyPeakRss = peakRss; earlyHeap = liveHeap(); }
        if (n % Math.max(1, Math.floor(pages / 20)) === 0) process.stderr.write(`\r${n}/${pages} pages`);
      },
    });
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpu0);
    clearInterval(timer);
    sample();
    if (report.status !== 'ok') throw new Error(`the harvest failed: ${JSON.stringify(report.error)}`);
    const lateHeap = liveHeap();
    const rate = Math.round(records / seconds);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    const heap = (b: number) => (Number.isNaN(b) ? 'n/a (no --expose-gc)' : `${Math.round(b / MiB)} MiB`);
    const lines = [
      '# Harvest benchmark (`npm run bench:harvest`)',
      '',
      `${new Date().toISOString()} · load average at the end ${loadavg().map((x) => x.toFixed(1)).join(' ')} · Node ${process.version} · ${cpus().length} × ${cpus()[0]?.model.trim()} · ${Math.round(totalmem() / 2 ** 30)} GiB · ${db.startsWith('postgres') ? 'PostgreSQL' : 'SQLite file'}`,
      '',
      `epicur records from a repository on 127.0.0.1 (another process), ${page} a page, two URLs each, every hundredth deleted; no pause between requests.`,
      '',
      '| records | pages | applied | unchanged | refused | seconds | records/s | CPU s (harvester) | records / CPU s | live heap after 1/10 · at the end | peak heap | peak RSS after 1/10 · overall |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      `| ${records.toLocaleString('en')} | ${report.pages} | ${report.applied.toLocaleString('en')} | ${report.unchanged.toLocaleString('en')} | ${report.refused} | ${seconds.toFixed(1)} | ${rate.toLocaleString('en')} | ${cpuSeconds.toFixed(1)} | ${Math.round(records / cpuSeconds).toLocaleString('en')} | ${heap(earlyHeap)} · ${heap(lateHeap)} | ${Math.round(peakHeap / MiB)} MiB | ${Math.round(earlyPeakRss / MiB)} · ${Math.round(peakRss / MiB)} MiB |`,
      '',
      `Goal: at least 5,000 records/s on SQLite: ${rate >= 5000 ? 'met' : 'NOT met'} (wall clock; ${Math.round(records / cpuSeconds).toLocaleString('en')} a CPU-second of the harvester). Memory: the live heap at the end ${Number.isNaN(lateHeap) ? 'not measured' : `${(lateHeap / earlyHeap).toFixed(2)}× that after the first tenth`}; the RSS grows with the mapped database file.`,
    ];
    console.log(`\n${lines.join('\n')}`);
    writeFileSync(out, `${lines.join('\n')}\n`);
    console.log(`\nwritten to ${out}`);
  } finally {
    clearInterval(timer);
    repo.kill();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
