/**
 * Resolution statistics: counted in memory, flushed in bulk, reported by
 * authority and date range.
 */
export { DEFAULT_ROBOT_PATTERNS, RobotDetector } from './robots.js';
export { StatsCounter } from './counter.js';
export type { StatsCounterOptions, StatsRow, StatsSink } from './counter.js';
export { inRange, MemoryStatsStore, statsReportCsv, summarizeStats } from './report.js';
export type { StatsGrouping, StatsQuery, StatsReport, StatsSource } from './report.js';
