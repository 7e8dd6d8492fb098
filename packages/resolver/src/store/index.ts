/**
 * The store of the resolution service: names, history, prefix rules,
 * the authority registry and admin tokens, on SQLite or PostgreSQL.
 */
export type { NameLocation, NameStatus, NameRecord, NameInput, ChangeOp, HistoryEntry, PrefixRule, Authority, Page } from './types.js';
export { Store, type WriteResult } from './store.js';
export { openStore, defaultDbUrl } from './open.js';
export { nameKey, authorityPrefix, inAuthority, prefixInAuthority, type NameKey } from './keys.js';
export { createToken, verifyToken, type CreatedToken } from './tokens.js';
export { importNames, type ImportReport, type ImportOptions } from './import.js';
export { validateNameInput, InputError } from './validate.js';
export { CsvReader, type CsvRecord } from './csv.js';
