/**
 * Link checking: the health of every location, probed politely and never
 * inside the operator's network unless allowed.
 */
export { applyProbe, initialHealth, isBroken } from './health.js';
export type { LinkHealth, LinkState, ProbeOutcome, ProbeResult } from './health.js';
export { DEFAULT_POLITENESS, DEFAULT_SCHEDULE } from './schedule.js';
export type { LinkSchedule, Politeness } from './schedule.js';
export { DEFAULT_PROBE, DEFAULT_USER_AGENT, probeError, probeLocation } from './probe.js';
export type { ProbeOptions } from './probe.js';
export { addressClass, BlockedAddressError, guardedLookup, isAllowedAddress, PUBLIC_ONLY } from './guard.js';
export { dispatchByHost } from './dispatch.js';
export { checkLinks, isExcludedHost, MemoryLinkHealthStore } from './checker.js';
export type { LinkCheckOptions, LinkCheckSummary, LinkHealthStore, LinkTarget } from './checker.js';
export { LinkHealthView } from './view.js';
export type { ChangedLinkHealth, LinkHealthLookup, UnhealthyLinkSource } from './view.js';
