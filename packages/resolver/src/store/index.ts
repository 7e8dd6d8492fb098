/**
 * The store of the resolution service: names, history, prefix rules,
 * the authority registry and admin tokens, on SQLite or PostgreSQL.
 */
export type { NameLocation, NameStatus, NameRecord, NameInput, ChangeOp, HistoryEntry, PrefixRule, Authority, Page } from './types.js';
export type { Store } from './store.js';
export type { NameReader } from './reader.js';
export type { NameCacheControl } from './cached-reader.js';
export { NameWriter, type WriteResult, type BulkWriter, type BatchResult } from './writer.js';
export { PreconditionFailed, type Precondition } from './precondition.js';
export { NameListing } from './listing.js';
export { NameHistory } from './history.js';
export { PrefixRules } from './prefix-rules.js';
export { AuthorityRegistry } from './authorities.js';
export { LinkHealthRecords, type LinkReportLine, type StoredLinkHealth } from './link-health.js';
export { ResolutionStats, FOLD_AT, MERGE_AT, MERGE_CHUNK, type StatsSelection } from './resolution-stats.js';
export { NameHealth, NAME_LINK_HEALTH, nameLinkHealth, type NameLinkHealth } from './name-health.js';
export { NameMinter, MintError, type MintRequest } from './minter.js';
export { NameHarvest, type HarvestQuery } from './harvest.js';
export { HarvestLog } from './harvest-log.js';
export { StoreSettings, OAI_TOKEN_KEY, newSecretText } from './settings.js';
export type { HarvestCounts, HarvestOutcome, HarvestRefusal, HarvestRun, HarvestState } from './harvest-log.js';
export { LIFECYCLE, LifecycleError, type NameState, type LifecycleRefusal } from './lifecycle.js';
export { StoreBusyError, StoreInUseError } from './sqlite-driver.js';
export { openStore, defaultDbUrl, DEFAULT_STALE_IF_ERROR_MS, type OpenStoreOptions } from './open.js';
export type { StoreCheck, StoreFaultCounts } from './store.js';
export type { NameLookup } from './reader.js';
export { StoreFault, storeFault, pgFault, sqliteFault, STORE_FAULT_STATUS, type StoreFaultCode, type StorePart, type WriteOutcome } from './store-fault.js';
export { StoreAvailability, type AvailabilitySnapshot, type PartAvailability } from './availability.js';
export { PgEndpoint, CONNECT_TIMEOUT_MS, READ_TIMEOUT_MS, type PgEndpointOptions } from './postgres-pool.js';
export { nameKey, keyPrefix, authorityPrefix, inAuthority, prefixInAuthority, type NameKey } from './keys.js';
export { createToken, verifyToken, TokenTable, type CreatedToken, type TokenInfo } from './tokens.js';
export { importNames, type ImportReport, type ImportOptions } from './import.js';
export { validateNameInput, checkNewName, checkScheme, InputError, DEFAULT_LOCATION_SCHEMES, MAX_METADATA_DEPTH, MAX_NAME_LENGTH, type ValidateOptions } from './validate.js';
export { CsvReader, type CsvRecord } from './csv.js';
