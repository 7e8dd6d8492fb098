/**
 * Resumption tokens (§3.5): the whole state of a list request in the
 * token itself, so any server process can continue it and the same token
 * always gives the same next page (§3.5.1 idempotency). The position is
 * the (datestamp, identifier) of the last item sent: the lists are in that
 * order, so a name changed during the harvest moves to the end and is sent
 * again, never skipped.
 */
import type { OaiVerb } from './protocol.js';

/**
 * What a resumption token carries.
 *
 * @example
 * ```ts
 * const t: OaiResumption = { verb: 'ListRecords', metadataPrefix: 'oai_dc', after: [1795478400000, 'urn:ex:a'], cursor: 100 };
 * decodeResumptionToken(encodeResumptionToken(t)); // t
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
 * The token text: base64url (RFC 4648 §5) of the state as JSON.
 *
 * @example
 * ```ts
 * decodeResumptionToken(encodeResumptionToken({ verb: 'ListRecords', metadataPrefix: 'oai_dc', after: [1, 'urn:ex:a'], cursor: 100 }));
 * // { verb: 'ListRecords', metadataPrefix: 'oai_dc', after: [1, 'urn:ex:a'], cursor: 100 }
 * ```
 */
export function encodeResumptionToken(t: OaiResumption): string {
  const compact = { v: t.verb, p: t.metadataPrefix, f: t.from, u: t.until, s: t.set, a: t.after, c: t.cursor, n: t.total };
  return Buffer.from(JSON.stringify(compact)).toString('base64url');
}

const LIST_VERBS = new Set<string>(['ListIdentifiers', 'ListRecords']);

/**
 * The state of a token, or undefined if it is not one this repository
 * issued (a harvester's typo, a token of another verb): §3.6 badResumptionToken.
 *
 * @example
 * ```ts
 * decodeResumptionToken('not-a-token'); // undefined
 * ```
 */
export function decodeResumptionToken(token: string): OaiResumption | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const o = raw as Record<string, unknown>;
  const num = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
  if (typeof o.v !== 'string' || !LIST_VERBS.has(o.v) || typeof o.p !== 'string' || !num(o.c)) return undefined;
  if (!Array.isArray(o.a) || o.a.length !== 2 || !num(o.a[0]) || typeof o.a[1] !== 'string') return undefined;
  if ((o.f !== undefined && !num(o.f)) || (o.u !== undefined && !num(o.u)) || (o.s !== undefined && typeof o.s !== 'string') || (o.n !== undefined && !num(o.n))) return undefined;
  const t: OaiResumption = { verb: o.v as OaiVerb, metadataPrefix: o.p, after: [o.a[0], o.a[1]], cursor: o.c };
  if (o.f !== undefined) t.from = o.f as number;
  if (o.u !== undefined) t.until = o.u as number;
  if (o.s !== undefined) t.set = o.s as string;
  if (o.n !== undefined) t.total = o.n as number;
  return t;
}
