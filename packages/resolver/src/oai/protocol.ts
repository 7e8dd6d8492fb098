/**
 * OAI-PMH 2.0 requests: the verbs and their arguments as a table (§4),
 * the error codes (§3.6), and the checks that turn a query into a request
 * or into errors. https://www.openarchives.org/OAI/openarchivesprotocol.html
 */
import { tryParse } from 'urikit';

/**
 * The six verbs of OAI-PMH 2.0 (§4).
 *
 * @example
 * ```ts
 * const v: OaiVerb = 'ListRecords';
 * parseOaiRequest([['verb', v], ['metadataPrefix', 'oai_dc']]); // matches { verb: 'ListRecords' }
 * ```
 */
export type OaiVerb = 'Identify' | 'ListMetadataFormats' | 'ListSets' | 'GetRecord' | 'ListIdentifiers' | 'ListRecords';

/**
 * The error codes of §3.6.
 *
 * @example
 * ```ts
 * const c: OaiErrorCode = 'noRecordsMatch';
 * c.length; // 14
 * ```
 */
export type OaiErrorCode =
  | 'badArgument' | 'badResumptionToken' | 'badVerb' | 'cannotDisseminateFormat'
  | 'idDoesNotExist' | 'noRecordsMatch' | 'noMetadataFormats' | 'noSetHierarchy';

/**
 * One error of a response: its §3.6 code and a text for people.
 *
 * @example
 * ```ts
 * const e: OaiError = { code: 'badVerb', message: 'no verb' };
 * e.code; // 'badVerb'
 * ```
 */
export interface OaiError {
  code: OaiErrorCode;
  message: string;
}

type Arg = 'identifier' | 'metadataPrefix' | 'from' | 'until' | 'set' | 'resumptionToken';

// §4: per verb, the required and optional arguments; resumptionToken is exclusive wherever it is allowed.
const VERBS: Record<OaiVerb, { required: readonly Arg[]; optional: readonly Arg[]; exclusive?: Arg }> = {
  Identify: { required: [], optional: [] },
  ListMetadataFormats: { required: [], optional: ['identifier'] },
  ListSets: { required: [], optional: [], exclusive: 'resumptionToken' },
  GetRecord: { required: ['identifier', 'metadataPrefix'], optional: [] },
  ListIdentifiers: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], exclusive: 'resumptionToken' },
  ListRecords: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], exclusive: 'resumptionToken' },
};

/**
 * A valid request: the verb and its arguments, dates read.
 *
 * @example
 * ```ts
 * const r: OaiRequest = { verb: 'ListIdentifiers', args: { metadataPrefix: 'oai_dc' }, from: undefined, until: undefined };
 * parseOaiRequest([['verb', 'ListIdentifiers'], ['metadataPrefix', 'oai_dc']]); // r
 * ```
 */
export interface OaiRequest {
  verb: OaiVerb;
  args: Partial<Record<Arg, string>>;
  /** `from` as ms since the epoch, the first instant it denotes. */
  from: number | undefined;
  /** `until` as ms since the epoch, the last instant it denotes (a day's last millisecond, a second's). */
  until: number | undefined;
}

// §3.4 metadataPrefix and the setSpec of the protocol's schema: [A-Za-z0-9\-_\.!~\*'\(\)]+
const SPEC_CHAR = /^[A-Za-z0-9\-_.!~*'()]+$/;

/**
 * True if `spec` is a setSpec (colon-separated parts of the schema's set
 * characters) or, with `prefix`, a metadataPrefix.
 *
 * @example
 * ```ts
 * isSpec('urn:nbn:de'); // true
 * isSpec('urn::x'); // false
 * isSpec('oai_dc', true); // true
 * ```
 */
export function isSpec(spec: string, prefix = false): boolean {
  if (prefix) return SPEC_CHAR.test(spec);
  return spec.split(':').every((part) => SPEC_CHAR.test(part));
}

/** RFC 3986 §3.2.3: a port is a decimal TCP/UDP port number, at most 65535. */
const PORT = /^\d{1,5}$/;

/**
 * §2.4: an item's identifier "must correspond to that of the URI syntax":
 * true for an RFC 3986 §3 URI (a scheme, no relative reference, no
 * characters outside US-ASCII, every `%` followed by two hex digits). A
 * written port must be a port number (1 to 5 digits, at most 65535): an
 * empty one or one past an `int` is RFC 3986 syntax but XML Schema
 * processors refuse it as an `xs:anyURI` (libxml2 does), and the
 * `identifier` attribute the response echoes must be one (the schema's
 * identifierType). An argument that is not an identifier has "an illegal
 * syntax": badArgument (§3.6), and then the response echoes nothing (§3.2).
 *
 * @example
 * ```ts
 * isOaiIdentifier('urn:nbn:de:101-2020071401'); // true
 * isOaiIdentifier('%zz'); // false
 * isOaiIdentifier('urn:ex:%zz'); // false
 * isOaiIdentifier('item-1'); // false
 * isOaiIdentifier('http://h:/x'); // false
 * ```
 */
export function isOaiIdentifier(text: string): boolean {
  const uri = tryParse(text, 'uri');
  if (uri === undefined) return false;
  return uri.port === undefined || (PORT.test(uri.port) && Number(uri.port) <= 65535);
}

/** Ms since the epoch of a UTC date and time; years 0 to 99 are those years, not 1900 to 1999 as `Date.UTC` reads them. */
function utcMs(y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d);
  t.setUTCHours(h, mi, s, 0);
  return t.getTime();
}

/**
 * §3.3.1: a UTCdatetime argument, `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ssZ`;
 * its granularity and the first and last millisecond it covers, or
 * undefined if it is neither.
 *
 * @example
 * ```ts
 * parseUtcDatetime('2026-11-24'); // { granularity: 'day', first: 1795478400000, last: 1795564799999 }
 * parseUtcDatetime('2026-11-24T12:00:00+01:00'); // undefined
 * parseUtcDatetime('0000-01-01'); // undefined
 * parseUtcDatetime('0099-12-31')?.first; // -59011545600000
 * ```
 */
export function parseUtcDatetime(text: string): { granularity: 'day' | 'second'; first: number; last: number } | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})Z)?$/.exec(text);
  if (m === null) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // XML Schema 1.0 (the protocol's schema, xs:date and xs:dateTime) has no year 0000
  if (y === 0) return undefined;
  const t = utcMs(y, mo, d, Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0));
  const back = new Date(t);
  // a date the calendar does not have (02-30, 24:00:00) is not silently moved to another
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || (m[4] !== undefined && back.getUTCHours() !== Number(m[4]))) return undefined;
  if (m[4] !== undefined && (back.getUTCMinutes() !== Number(m[5]) || back.getUTCSeconds() !== Number(m[6]))) return undefined;
  return m[4] === undefined ? { granularity: 'day', first: t, last: t + 86_400_000 - 1 } : { granularity: 'second', first: t, last: t + 999 };
}

/**
 * Reads the arguments of a request (a query string's or a form body's
 * pairs, §3.1.1) into a request, or the errors §3.6 asks for.
 *
 * @example
 * ```ts
 * parseOaiRequest([['verb', 'Identify']]); // { verb: 'Identify', args: {}, from: undefined, until: undefined }
 * parseOaiRequest([['verb', 'Frobnicate']]); // [{ code: 'badVerb', message: 'Frobnicate is not an OAI-PMH verb' }]
 * parseOaiRequest([['verb', 'ListRecords']]); // [{ code: 'badArgument', message: 'ListRecords requires metadataPrefix' }]
 * ```
 */
export function parseOaiRequest(pairs: Iterable<readonly [string, string]>): OaiRequest | OaiError[] {
  const seen = new Map<string, string>();
  const repeated: string[] = [];
  for (const [k, v] of pairs) {
    if (seen.has(k)) repeated.push(k);
    seen.set(k, v);
  }
  const verb = seen.get('verb');
  if (verb === undefined) return [{ code: 'badVerb', message: 'the request has no verb' }];
  if (repeated.includes('verb')) return [{ code: 'badVerb', message: 'the verb is repeated' }];
  if (!Object.hasOwn(VERBS, verb)) return [{ code: 'badVerb', message: `${verb} is not an OAI-PMH verb` }];
  const rule = VERBS[verb as OaiVerb];
  const errors: OaiError[] = [];
  const args: Partial<Record<Arg, string>> = {};
  for (const [k, v] of seen) {
    if (k === 'verb') continue;
    const allowed = rule.required.includes(k as Arg) || rule.optional.includes(k as Arg) || rule.exclusive === k;
    if (!allowed) errors.push({ code: 'badArgument', message: `${k} is not an argument of ${verb}` });
    else args[k as Arg] = v;
  }
  for (const k of new Set(repeated)) if (k !== 'verb') errors.push({ code: 'badArgument', message: `${k} is repeated` });
  if (rule.exclusive !== undefined && args[rule.exclusive] !== undefined) {
    if (Object.keys(args).length > 1) errors.push({ code: 'badArgument', message: `${rule.exclusive} is an exclusive argument` });
  } else {
    for (const k of rule.required) if (args[k] === undefined) errors.push({ code: 'badArgument', message: `${verb} requires ${k}` });
  }
  if (args.identifier !== undefined && !isOaiIdentifier(args.identifier)) errors.push({ code: 'badArgument', message: 'identifier is not a URI (§2.4)' });
  if (args.metadataPrefix !== undefined && !isSpec(args.metadataPrefix, true)) errors.push({ code: 'badArgument', message: 'metadataPrefix has characters §3.4 does not allow' });
  if (args.set !== undefined && !isSpec(args.set)) errors.push({ code: 'badArgument', message: 'set is not a setSpec' });
  const from = args.from === undefined ? undefined : parseUtcDatetime(args.from);
  const until = args.until === undefined ? undefined : parseUtcDatetime(args.until);
  if (args.from !== undefined && from === undefined) errors.push({ code: 'badArgument', message: 'from is not YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ' });
  if (args.until !== undefined && until === undefined) errors.push({ code: 'badArgument', message: 'until is not YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ' });
  // §3.3.1: "the from argument must be less than or equal to the until argument" and of the same granularity
  if (from && until && from.granularity !== until.granularity) errors.push({ code: 'badArgument', message: 'from and until have different granularities' });
  else if (from && until && from.first > until.first) errors.push({ code: 'badArgument', message: 'from is later than until' });
  if (errors.length > 0) return errors;
  return { verb: verb as OaiVerb, args, from: from?.first, until: until?.last };
}
