/**
 * Resumption tokens (§3.5): the whole state of a list request in the
 * token itself, so any server process can continue it and the same token
 * always gives the same next page (§3.5.1 idempotency). The position is
 * the (datestamp, identifier) of the last item sent: the lists are in that
 * order, so a name changed during the harvest moves to the end and is sent
 * again, never skipped.
 *
 * The state is authenticated: an HMAC-SHA256 (RFC 2104) of it under a
 * key every process of the store shares (store/settings.ts) follows it, so
 * a token altered, cut short, made by hand or issued by another store is
 * refused (§3.6 badResumptionToken) instead of served.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { OaiVerb } from './protocol.js';

/**
 * What a resumption token carries.
 *
 * @example
 * ```ts
 * const t: OaiResumption = { verb: 'ListRecords', metadataPrefix: 'oai_dc', after: [1795478400000, 'urn:ex:a'], cursor: 100 };
 * const key = Buffer.alloc(32, 7);
 * decodeResumptionToken(encodeResumptionToken(t, key), key); // t
 * ```
 */
export interface OaiResumption {
  verb: OaiVerb;
  metadataPrefix: string;
  from?: number;
  until?: number;
  set?: string;
  /** The datestamp (ms) and identifier of the last item sent. */
  after: [number, string];
  /** How many items were sent before this page (§3.5 cursor). */
  cursor: number;
  /** The size of the complete list when the harvest began, if known. */
  total?: number;
}

/**
 * RFC 2104 §5: the MAC cut to its first 128 bits (half of SHA-256's
 * output, the least §5 advises): a forger's chance is 2^-128 a try, and the
 * token stays short (22 characters of base64url).
 */
const MAC_BYTES = 16;

/** The MAC of a token's state text (RFC 2104 HMAC with SHA-256), cut to {@link MAC_BYTES}. */
function macOf(state: string, key: Uint8Array): Buffer {
  return createHmac('sha256', key).update(state).digest().subarray(0, MAC_BYTES);
}

/**
 * The token text: base64url (RFC 4648 §5) of the state as JSON, a `.`
 * (not in the base64url alphabet, and unreserved in a URI, RFC 3986 §2.3),
 * then base64url of the MAC of that text under `key`.
 *
 * @example
 * ```ts
 * const key = Buffer.alloc(32, 7);
 * const token = encodeResumptionToken({ verb: 'ListRecords', metadataPrefix: 'oai_dc', after: [1, 'urn:ex:a'], cursor: 100 }, key);
 * token.split('.')[1]?.length; // 22
 * decodeResumptionToken(token, key);
 * // { verb: 'ListRecords', metadataPrefix: 'oai_dc', after: [1, 'urn:ex:a'], cursor: 100 }
 * ```
 */
export function encodeResumptionToken(t: OaiResumption, key: Uint8Array): string {
  const state = Buffer.from(JSON.stringify(stateFields(t))).toString('base64url');
  return `${state}.${macOf(state, key).toString('base64url')}`;
}

/** The verbs a token continues, by the letter the state gives each. */
const VERB_OF: Readonly<Record<string, OaiVerb>> = { I: 'ListIdentifiers', R: 'ListRecords' };

/**
 * The state as a JSON array, by position (a token stays short): the verb's
 * letter, the metadata prefix, the last item's datestamp and identifier,
 * the cursor, then the complete list's size, from, until and set, each
 * null when absent, the nulls at the end left out.
 */
function stateFields(t: OaiResumption): unknown[] {
  const fields: unknown[] = [t.verb === 'ListRecords' ? 'R' : 'I', t.metadataPrefix, t.after[0], t.after[1], t.cursor, t.total ?? null, t.from ?? null, t.until ?? null, t.set ?? null];
  while (fields[fields.length - 1] === null) fields.pop();
  return fields;
}

/** RFC 4648 §5: the base64url alphabet, unpadded, as {@link encodeResumptionToken} writes it. */
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The state of a token `key` authenticates, or undefined if it is not one
 * this store issued (a harvester's typo, a token altered, cut short, made
 * by hand, or issued by another store): §3.6 badResumptionToken.
 *
 * @example
 * ```ts
 * const key = Buffer.alloc(32, 7);
 * decodeResumptionToken('not-a-token', key); // undefined
 * const token = encodeResumptionToken({ verb: 'ListRecords', metadataPrefix: 'oai_dc', after: [1, 'urn:ex:a'], cursor: 100 }, key);
 * decodeResumptionToken(token, Buffer.alloc(32, 8)); // undefined
 * decodeResumptionToken(token.slice(0, -1), key); // undefined
 * ```
 */
export function decodeResumptionToken(token: string, key: Uint8Array): OaiResumption | undefined {
  const dot = token.indexOf('.');
  if (dot < 0) return undefined;
  const state = token.slice(0, dot);
  const mac = token.slice(dot + 1);
  if (!BASE64URL.test(state) || !BASE64URL.test(mac)) return undefined;
  // Buffer.from reads base64url leniently (it stops at a bad character, ignores stray bits): compare the text it gives back
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== MAC_BYTES || given.toString('base64url') !== mac) return undefined;
  if (!timingSafeEqual(given, macOf(state, key))) return undefined;
  return stateOf(state);
}

/** The state a token's authenticated text carries (see {@link stateFields}), or undefined if it is not one (a token of an older form). */
function stateOf(state: string): OaiResumption | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(state, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(raw) || raw.length < 5 || raw.length > 9) return undefined;
  const [v, prefix, at, id, cursor, total = null, from = null, until = null, set = null] = raw as unknown[];
  // instants (from, until, a datestamp) may be before 1970 (§3.3.1 dates from year 1); counts may not be negative
  const ms = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);
  const count = (x: unknown): x is number => ms(x) && x >= 0;
  const verb = typeof v === 'string' && Object.hasOwn(VERB_OF, v) ? VERB_OF[v] : undefined;
  if (verb === undefined || typeof prefix !== 'string' || !ms(at) || typeof id !== 'string' || !count(cursor)) return undefined;
  if ((total !== null && !count(total)) || (from !== null && !ms(from)) || (until !== null && !ms(until)) || (set !== null && typeof set !== 'string')) return undefined;
  const t: OaiResumption = { verb, metadataPrefix: prefix, after: [at, id], cursor };
  if (total !== null) t.total = total;
  if (from !== null) t.from = from;
  if (until !== null) t.until = until;
  if (set !== null) t.set = set;
  return t;
}
