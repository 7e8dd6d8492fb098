/**
 * Loaded with `node --import` into a process the benchmark starts (the
 * `urikit import` of `npm run bench:server -- --scale`): when it exits,
 * it writes its own CPU time and peak resident memory as one JSON line to
 * file descriptor 3, which the benchmark reads. The process runs as it
 * would without it.
 */
import { writeSync } from 'node:fs';

process.on('exit', () => {
  const u = process.resourceUsage();
  try {
    writeSync(3, `${JSON.stringify({ userMicros: u.userCPUTime, systemMicros: u.systemCPUTime, maxRssKiB: u.maxRSS })}\n`);
  } catch {
    // No descriptor 3: started by hand, nobody is listening.
  }
});
