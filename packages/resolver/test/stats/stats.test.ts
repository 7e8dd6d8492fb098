import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { MemoryStatsStore, RobotDetector, StatsCounter, statsReportCsv, summarizeStats, type StatsRow } from '@urikit/resolver';

const NOON = Date.UTC(2026, 10, 24, 12);
const HUMAN = 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0';
const ROBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

describe('robots are told apart by User-Agent', () => {
  const UAS: Array<[string | undefined, boolean]> = [
    [HUMAN, false],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1', false],
    [ROBOT, true],
    ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', true],
    ['Mozilla/5.0 (compatible; Yahoo! Slurp)', true],
    ['python-requests/2.31.0', true],
    ['Wget/1.21.4', true],
    ['Java/17.0.2', true],
    ['urikit-link-checker/0.1 (checks the locations of persistent names)', true],
    ['', false],
    [undefined, false],
  ];
  it.each(UAS)('%s -> robot %s', (ua, robot) => {
    expect(new RobotDetector().isRobot(ua)).toBe(robot);
  });
  it('takes the operator\'s extra patterns, case-insensitively', () => {
    const r = new RobotDetector(['OAI Harvester']);
    expect([r.isRobot('my oai harvester 2.0'), new RobotDetector().isRobot('my oai harvester 2.0')]).toEqual([true, false]);
  });
});

describe('StatsCounter', () => {
  it('N resolutions by a client and M by a robot are reported as exactly N and M, whenever it flushes', () => {
    fc.assert(fc.asyncProperty(
      fc.array(fc.record({ robot: fc.boolean(), name: fc.constantFrom('urn:ex:a', 'urn:ex:b', 'urn:isbn:0451450523'), service: fc.constantFrom('I2L', 'I2C', 'N2L'), flush: fc.boolean() }), { maxLength: 200 }),
      fc.integer({ min: 1, max: 20 }),
      async (ops, maxPending) => {
        const store = new MemoryStatsStore();
        const stats = new StatsCounter(store, { flushIntervalMs: 0, maxPending, now: () => NOON });
        const expected = new Map<string, [number, number]>();
        for (const op of ops) {
          stats.count(op.name, op.service, op.robot ? ROBOT : HUMAN);
          const k = `${op.service} ${op.name}`;
          const e = expected.get(k) ?? [0, 0];
          e[op.robot ? 1 : 0]++;
          expected.set(k, e);
          if (op.flush) await stats.flush();
        }
        await stats.close();
        const rows = await store.rows({});
        const got = new Map(rows.map((r) => [`${r.service} ${r.key}`, [r.human, r.robot] as [number, number]]));
        expect(got).toEqual(expected);
        expect(stats.pending).toBe(0);
      },
    ));
  });

  it('keeps nothing about the client but robot or not: no address, no agent string', async () => {
    const store = new MemoryStatsStore();
    const stats = new StatsCounter(store, { flushIntervalMs: 0, now: () => NOON });
    stats.count('urn:ex:a', 'I2L', ROBOT);
    await stats.flush();
    const [row] = await store.rows({});
    expect(Object.keys(row!).sort()).toEqual(['day', 'human', 'key', 'robot', 'service']);
    expect(JSON.stringify(row)).not.toContain('bot.html');
  });

  it('counts by UTC day: a resolution after midnight is the next day\'s', async () => {
    const store = new MemoryStatsStore();
    let t = Date.UTC(2026, 10, 24, 23, 59, 59, 999);
    const stats = new StatsCounter(store, { flushIntervalMs: 0, now: () => t });
    stats.count('urn:ex:a', 'I2L', HUMAN);
    t += 1;
    stats.count('urn:ex:a', 'I2L', HUMAN);
    stats.count('urn:ex:a', 'I2L', HUMAN);
    await stats.close();
    expect(summarizeStats(await store.rows({}), 'day').groups).toEqual([
      { group: '2026-11-25', human: 2, robot: 0 },
      { group: '2026-11-24', human: 1, robot: 0 },
    ]);
  });

  it('loses no count when the sink fails: the batch goes back and is written with the next flush', async () => {
    const store = new MemoryStatsStore();
    let fail = true;
    const sink = { add: async (rows: readonly StatsRow[]) => { if (fail) throw new Error('database is locked'); await store.add(rows); } };
    const stats = new StatsCounter(sink, { flushIntervalMs: 0, now: () => NOON });
    stats.count('urn:ex:a', 'I2L', HUMAN);
    await stats.flush();
    stats.count('urn:ex:a', 'I2L', HUMAN);
    expect([stats.failedFlushes, stats.pending]).toEqual([1, 1]);
    fail = false;
    await stats.close();
    expect(await store.rows({})).toEqual([{ day: '2026-11-24', key: 'urn:ex:a', service: 'I2L', human: 2, robot: 0 }]);
  });

  it('writes one batch per flush, not one write per resolution', async () => {
    const batches: number[] = [];
    const stats = new StatsCounter({ add: async (rows) => { batches.push(rows.length); } }, { flushIntervalMs: 0, now: () => NOON });
    for (let i = 0; i < 1000; i++) stats.count(`urn:ex:${i % 10}`, 'I2L', i % 3 ? HUMAN : ROBOT);
    await stats.close();
    expect(batches).toEqual([10]);
  });

  it('hands the sink its idle work only after a whole interval without a resolution, in line with the flushes', async () => {
    vi.useFakeTimers();
    try {
      const calls: string[] = [];
      const stats = new StatsCounter({ add: async (rows) => { calls.push(`add ${rows.length}`); }, idle: async () => { calls.push('idle'); } }, { flushIntervalMs: 100, now: () => NOON });
      stats.count('urn:ex:a', 'I2L', HUMAN);
      await vi.advanceTimersByTimeAsync(100); // counted in this interval: a flush
      stats.count('urn:ex:b', 'I2L', HUMAN);
      await vi.advanceTimersByTimeAsync(100); // counted again: a flush, no idle work
      expect(calls).toEqual(['add 1', 'add 1']);
      await vi.advanceTimersByTimeAsync(200); // two intervals without a resolution
      expect(calls).toEqual(['add 1', 'add 1', 'idle', 'idle']);
      await stats.close();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('reports', () => {
  const rows: StatsRow[] = [
    { day: '2026-11-01', key: 'urn:nbn:de:101-2020071401', service: 'I2L', human: 4, robot: 1 },
    { day: '2026-11-02', key: 'urn:nbn:de:101-2020071401', service: 'I2C', human: 1, robot: 0 },
    { day: '2026-11-02', key: 'urn:isbn:0451450523', service: 'I2L', human: 9, robot: 9 },
    { day: '2026-12-01', key: 'urn:nbn:de:101-2020071401', service: 'I2L', human: 7, robot: 0 },
  ];
  it('select by date range and authority, summed by name, day and service', async () => {
    const store = new MemoryStatsStore();
    await store.add(rows);
    const nov = await store.rows({ from: '2026-11-01', until: '2026-11-30', match: (k) => k.startsWith('urn:nbn:de:') });
    expect(summarizeStats(nov, 'name')).toEqual({ by: 'name', totals: { human: 5, robot: 1 }, groups: [{ group: 'urn:nbn:de:101-2020071401', human: 5, robot: 1 }] });
    expect(summarizeStats(nov, 'service').groups).toEqual([{ group: 'I2L', human: 4, robot: 1 }, { group: 'I2C', human: 1, robot: 0 }]);
    expect(summarizeStats(await store.rows({ until: '2026-11-01' }), 'day').groups).toEqual([{ group: '2026-11-01', human: 4, robot: 1 }]);
  });
  it('as CSV (RFC 4180), fields quoted where they must be', () => {
    const csv = statsReportCsv(summarizeStats([{ day: '2026-11-01', key: 'urn:ex:a,"b"', service: 'I2L', human: 1, robot: 2 }], 'name'));
    expect(csv).toBe('name,human,robot\r\n"urn:ex:a,""b""",1,2\r\n');
  });
});
