/**
 * Statistics as the admin API reports them: the rows of a date range and
 * an authority, summed per name, per day or per service, in JSON or CSV.
 */
import { toCsv } from '../reports/csv.js';
import type { StatsRow, StatsSink } from './counter.js';

/**
 * Which rows a report covers: an inclusive range of UTC days
 * (`YYYY-MM-DD`) and a test on the name's key (an authority).
 *
 * @example
 * ```ts
 * const q: StatsQuery = { from: '2026-11-01', until: '2026-11-30', match: (key) => key.startsWith('urn:nbn:de:') };
 * inRange({ day: '2026-11-24', key: 'urn:nbn:de:101-2020071401', service: 'I2L', human: 1, robot: 0 }, q); // true
 * ```
 */
export interface StatsQuery {
  from?: string;
  until?: string;
  match?: (key: string) => boolean;
}

/**
 * Where counted rows are read back from.
 *
 * @example
 * ```ts
 * const source: StatsSource = new MemoryStatsStore();
 * await source.rows({}); // []
 * ```
 */
export interface StatsSource {
  rows(q: StatsQuery): Promise<StatsRow[]>;
}

/**
 * Rows kept in memory, summed on add (tests, and a server without a database).
 *
 * @example
 * ```ts
 * const s = new MemoryStatsStore();
 * await s.add([{ day: '2026-11-24', key: 'urn:ex:a', service: 'I2L', human: 2, robot: 0 }]);
 * await s.add([{ day: '2026-11-24', key: 'urn:ex:a', service: 'I2L', human: 1, robot: 3 }]);
 * await s.rows({}); // [{ day: '2026-11-24', key: 'urn:ex:a', service: 'I2L', human: 3, robot: 3 }]
 * ```
 */
export class MemoryStatsStore implements StatsSink, StatsSource {
  #rows = new Map<string, StatsRow>();

  async add(rows: readonly StatsRow[]): Promise<void> {
    for (const r of rows) {
      const id = `${r.day}\t${r.service}\t${r.key}`;
      const have = this.#rows.get(id);
      if (have === undefined) this.#rows.set(id, { ...r });
      else {
        have.human += r.human;
        have.robot += r.robot;
      }
    }
  }

  async rows(q: StatsQuery): Promise<StatsRow[]> {
    return [...this.#rows.values()].filter((r) => inRange(r, q)).map((r) => ({ ...r }));
  }
}

/**
 * True if the row is inside the query's days and authority (days compare
 * as strings: `YYYY-MM-DD` sorts by date).
 *
 * @example
 * ```ts
 * inRange({ day: '2026-11-24', key: 'urn:ex:a', service: 'I2L', human: 1, robot: 0 }, { from: '2026-11-25' }); // false
 * ```
 */
export function inRange(r: StatsRow, q: StatsQuery): boolean {
  return (q.from === undefined || r.day >= q.from) && (q.until === undefined || r.day <= q.until) && (q.match === undefined || q.match(r.key));
}

/**
 * What a report sums over.
 *
 * @example
 * ```ts
 * const by: StatsGrouping = 'name';
 * summarizeStats([], by); // { by: 'name', totals: { human: 0, robot: 0 }, groups: [] }
 * ```
 */
export type StatsGrouping = 'name' | 'day' | 'service';

/**
 * A report: the totals and one line per group, largest first (ties by group).
 *
 * @example
 * ```ts
 * const r: StatsReport = { by: 'day', totals: { human: 1, robot: 0 }, groups: [{ group: '2026-11-24', human: 1, robot: 0 }] };
 * statsReportCsv(r); // 'day,human,robot\r\n2026-11-24,1,0\r\n'
 * ```
 */
export interface StatsReport {
  by: StatsGrouping;
  totals: { human: number; robot: number };
  groups: Array<{ group: string; human: number; robot: number }>;
}

/**
 * Sums rows per name, day or service.
 *
 * @example
 * ```ts
 * summarizeStats([
 *   { day: '2026-11-24', key: 'urn:ex:a', service: 'I2L', human: 2, robot: 1 },
 *   { day: '2026-11-25', key: 'urn:ex:a', service: 'I2C', human: 1, robot: 0 },
 *   { day: '2026-11-25', key: 'urn:ex:b', service: 'I2L', human: 5, robot: 0 },
 * ], 'name').groups;
 * // [{ group: 'urn:ex:b', human: 5, robot: 0 }, { group: 'urn:ex:a', human: 3, robot: 1 }]
 * ```
 */
export function summarizeStats(rows: readonly StatsRow[], by: StatsGrouping): StatsReport {
  const groups = new Map<string, { group: string; human: number; robot: number }>();
  const totals = { human: 0, robot: 0 };
  for (const r of rows) {
    const group = by === 'name' ? r.key : by === 'day' ? r.day : r.service;
    let g = groups.get(group);
    if (g === undefined) groups.set(group, (g = { group, human: 0, robot: 0 }));
    g.human += r.human;
    g.robot += r.robot;
    totals.human += r.human;
    totals.robot += r.robot;
  }
  const sorted = [...groups.values()].sort((a, b) => b.human + b.robot - (a.human + a.robot) || (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
  return { by, totals, groups: sorted };
}

/**
 * A report as CSV (RFC 4180): the group's column is named after the grouping.
 *
 * @example
 * ```ts
 * statsReportCsv({ by: 'service', totals: { human: 2, robot: 1 }, groups: [{ group: 'I2L', human: 2, robot: 1 }] });
 * // 'service,human,robot\r\nI2L,2,1\r\n'
 * ```
 */
export function statsReportCsv(report: StatsReport): string {
  return toCsv([report.by, 'human', 'robot'], report.groups.map((g) => [g.group, g.human, g.robot]));
}
