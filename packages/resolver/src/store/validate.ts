/**
 * Checking what a client sends before it reaches the store: the URN, the
 * status, every location's URL and metainformation (1995 draft §3.4.2), as
 * the admin API and bulk import both need.
 */
import { parse, schemeOf, UriError } from 'urikit';
import { urc0Charset } from '../formats/charset.js';
import { ResolverError } from '../errors/resolver-error.js';
import { jsonDeeperThan } from '../formats/json-depth.js';
import { mediaTypeError } from '../formats/media-type.js';
import { formatUrc0Text } from '../formats/urc0.js';
import { nameKey, type NameKey } from './keys.js';
import type { NameInput, NameLocation, NameStatus } from './types.js';

/**
 * A record a client sent that cannot be stored: a message, and for a bad
 * URN or URL its error code and offset.
 *
 * @example
 * ```ts
 * validateNameInput({ locations: ['https://a.example/'] }) // throws InputError
 * // A bad URN or URL gives its code and the offset within that field.
 * validateNameInput({ urn: 'urn:a:x' }) // throws InputError bad-nid at offset 5
 * validateNameInput({ urn: 'urn:ex:a', locations: ['javascript:alert(1)'] }) // throws InputError scheme-not-allowed at offset 0
 * new InputError('"urn" is required').name // 'InputError'
 * ```
 */
export class InputError extends Error {
  constructor(message: string, readonly code?: string, readonly offset?: number, readonly pointer?: string) {
    super(message);
    this.name = 'InputError';
  }
}

/**
 * The members of a record a client writes (the admin API's bodies, an
 * import's lines), and those a read returns that a write takes back and
 * ignores (so that a record read, or a line of an export, can be written
 * again as it is). Any other member is refused: a misspelt field must
 * never be taken for an absent one and erase what it meant to set.
 *
 * @example
 * ```ts
 * RECORD_MEMBERS.includes('movedTo'); // true
 * validateNameInput({ urn: 'urn:ex:a', locatons: [] }); // throws InputError unknown-field, pointer '/locatons'
 * ```
 */
export const RECORD_MEMBERS: readonly string[] = ['urn', 'status', 'locations', 'url', 'metadata', 'movedTo', 'successor', 'reason', 'permanent'];
/**
 * The members of a record as read that a write ignores (see {@link RECORD_MEMBERS}).
 *
 * @example
 * ```ts
 * READ_ONLY_MEMBERS.includes('version'); // true (a precondition is If-Match, not a member)
 * ```
 */
export const READ_ONLY_MEMBERS: readonly string[] = ['key', 'version', 'created', 'updated'];
/**
 * The members of a location given as an object (1995 draft §3.4.2: the
 * URL and its metainformation).
 *
 * @example
 * ```ts
 * LOCATION_MEMBERS[0]; // 'url'
 * ```
 */
export const LOCATION_MEMBERS: readonly string[] = ['url', 'mediaType', 'charset', 'language', 'meta', 'preference', 'preservation'];

const KNOWN_RECORD: ReadonlySet<string> = new Set([...RECORD_MEMBERS, ...READ_ONLY_MEMBERS]);
const KNOWN_LOCATION: ReadonlySet<string> = new Set(LOCATION_MEMBERS);

/**
 * A JSON Pointer (RFC 6901 §3) to the member `name` of the value at `base`.
 *
 * @example
 * ```ts
 * jsonPointer('', 'locatons'); // '/locatons'
 * jsonPointer('/locations/0', 'a/b~c'); // '/locations/0/a~1b~0c'
 * ```
 */
export function jsonPointer(base: string, name: string | number): string {
  // RFC 6901 §3: "~" is written "~0" and "/" is written "~1".
  return `${base}/${String(name).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** Refuses the first member of `o` not in `known`: 400 `unknown-field` with its pointer. */
function refuseUnknown(o: Record<string, unknown>, known: ReadonlySet<string>, base: string): void {
  for (const k of Object.keys(o)) {
    if (!known.has(k)) {
      const pointer = jsonPointer(base, k);
      throw new InputError(`"${pointer}" is not a field of ${base === '' ? 'a record' : 'a location'} (${[...(base === '' ? RECORD_MEMBERS : LOCATION_MEMBERS)].join(', ')})`, 'unknown-field', undefined, pointer);
    }
  }
}

const STATUSES: ReadonlySet<string> = new Set<NameStatus>(['active', 'moved', 'withdrawn', 'reserved']);
const MAX_LOCATIONS = 100;
const MAX_TEXT = 8192;

/**
 * The schemes a location, a move's target, a successor or a rule's
 * target may have unless the operator adds more: what a resolver hands a
 * client to follow (2003 draft §7: a `javascript:`, `data:` or `file:`
 * location would be a semantic attack on whoever follows it).
 *
 * @example
 * ```ts
 * DEFAULT_LOCATION_SCHEMES; // ['http', 'https', 'ftp', 'urn']
 * ```
 */
export const DEFAULT_LOCATION_SCHEMES: readonly string[] = ['http', 'https', 'ftp', 'urn'];

/**
 * The deepest a record's `metadata` may nest (the record object around
 * it is one level more: a record body is at most 64 levels deep, as the
 * admin API's JSON bodies are).
 *
 * @example
 * ```ts
 * MAX_METADATA_DEPTH; // 63
 * ```
 */
export const MAX_METADATA_DEPTH = 63;

/**
 * How records are checked: the schemes a URL that a client will be sent
 * to may have (default {@link DEFAULT_LOCATION_SCHEMES}).
 *
 * @example
 * ```ts
 * const opts: ValidateOptions = { schemes: new Set(['http', 'https', 'ftp', 'urn', 'gopher']) };
 * validateNameInput({ urn: 'urn:ex:a', locations: ['gopher://a/'] }, opts).input.locations; // [{ url: 'gopher://a/' }]
 * ```
 */
export interface ValidateOptions {
  schemes?: ReadonlySet<string>;
}

const DEFAULT_SCHEMES: ReadonlySet<string> = new Set(DEFAULT_LOCATION_SCHEMES);

/**
 * Refuses a URL whose scheme is not in `schemes` (lower case): an
 * {@link InputError} with code `scheme-not-allowed` at offset 0, the
 * scheme's first character.
 *
 * @example
 * ```ts
 * checkScheme('https://a.example/', 'url', new Set(['https'])); // undefined
 * checkScheme('javascript:alert(1)', 'url', new Set(['https'])); // throws InputError scheme-not-allowed
 * ```
 */
export function checkScheme(url: string, field: string, schemes: ReadonlySet<string> = DEFAULT_SCHEMES): void {
  const scheme = schemeOf(url) ?? '';
  if (!schemes.has(scheme)) {
    throw new InputError(`"${field}": the scheme "${scheme}" is not one this resolver sends clients to (${[...schemes].join(', ')})`, 'scheme-not-allowed', 0);
  }
}

/**
 * The longest name the store takes, in characters: the longest every
 * resolution form can ask for. Each form carries the URN whole in its
 * target (`/<urn>`, `/uri-res/I2Ls?<urn>`, `/<ElementID>` shorter), the
 * resolver answers 414 past its URN limit (`ServerLimits.urnLength`,
 * whose default is this number and which may not be set lower), and the
 * longest of those request lines, `GET /uri-res/I2Ls?<urn> HTTP/1.1`
 * with 4,096 characters of URN, is 4,128 bytes: within the 8 KiB first
 * line the server reads (front.ts, request-lines.ts) and its 16 KiB head
 * (`ServerLimits.headerBytes`). A longer name could be registered but
 * never resolved, so it is refused when it is written.
 *
 * @example
 * ```ts
 * MAX_NAME_LENGTH; // 4096
 * ```
 */
export const MAX_NAME_LENGTH = 4096;

/**
 * Checks a URN that is about to become a name (every write path: the
 * admin API, import, minting, the cataloguers' page through the API) and
 * returns its key: an {@link InputError} for a URN that does not parse
 * (the parser's code and offset), one longer than {@link MAX_NAME_LENGTH}
 * (`urn-too-long`), or one whose ElementID begins `urn+`
 * (`reserved-element-id`: 1995 draft §2.3, "Elements that begin with
 * exactly "urn+" are reserved for special resolution", §3.5; the resolver
 * answers such a request itself, so the name would never be reached).
 *
 * @example
 * ```ts
 * checkNewName('urn:dns:library.bigstate.edu:aj17-mcc').key; // 'urn:dns:library.bigstate.edu:aj17-mcc'
 * checkNewName('urn:dns:library.bigstate.edu:urn+m'); // throws InputError reserved-element-id at offset 29
 * checkNewName(`urn:example:${'a'.repeat(5000)}`); // throws InputError urn-too-long at offset 4096
 * ```
 */
export function checkNewName(urn: string): NameKey {
  if (urn.length > MAX_NAME_LENGTH) {
    throw new InputError(`"urn" is longer than ${MAX_NAME_LENGTH} characters, the longest name every resolution form can ask for (a longer one would answer 414 URI Too Long)`, 'urn-too-long', MAX_NAME_LENGTH);
  }
  let nk: NameKey;
  try {
    nk = nameKey(urn);
  } catch (e) {
    if (e instanceof UriError) throw new InputError(`"urn": ${e.message}`, e.code, e.offset);
    throw e;
  }
  // The same test the resolver makes of a request's key (server/resolve.ts).
  if (nk.elementId.startsWith('urn+')) {
    throw new InputError(`"urn": ElementIDs beginning "urn+" are reserved for the resolver's own requests (1995 draft §2.3, §3.5)`, 'reserved-element-id', nk.key.length - nk.elementId.length);
  }
  return nk;
}

function str(v: unknown, field: string, max = MAX_TEXT): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new InputError(`"${field}" must be a string`);
  if (v.length > max) throw new InputError(`"${field}" is longer than ${max} characters`);
  return v;
}

function checkUri(v: string, field: string): void {
  try {
    parse(v, 'uri');
  } catch (e) {
    if (e instanceof UriError) throw new InputError(`"${field}" is not an absolute URI (RFC 3986 §4.3): ${e.message}`, e.code, e.offset);
    throw e;
  }
}

function location(v: unknown, i: number, schemes: ReadonlySet<string>, at: string): NameLocation {
  if (typeof v === 'string') v = { url: v };
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new InputError(`locations[${i}] must be a URL or an object with "url"`);
  const o = v as Record<string, unknown>;
  refuseUnknown(o, KNOWN_LOCATION, at);
  const url = str(o.url, `locations[${i}].url`);
  if (url === undefined) throw new InputError(`locations[${i}].url is required`);
  checkUri(url, `locations[${i}].url`);
  checkScheme(url, `locations[${i}].url`, schemes);
  const loc: NameLocation = { url };
  const mediaType = str(o.mediaType, `locations[${i}].mediaType`, 200);
  if (mediaType !== undefined) {
    const bad = mediaTypeError(mediaType);
    if (bad) throw new InputError(`"locations[${i}].mediaType" is not a media type: ${bad.reason}`, 'bad-media-type', bad.offset);
    loc.mediaType = mediaType;
  }
  const cs = str(o.charset, `locations[${i}].charset`, 20);
  if (cs !== undefined) {
    const c = urc0Charset(cs);
    if (!c) throw new InputError(`locations[${i}].charset must be US-ASCII or ISO-8859-1..9 (1995 draft §3.4.2)`);
    loc.charset = c;
  }
  const language = str(o.language, `locations[${i}].language`, 100);
  if (language !== undefined) loc.language = language;
  const meta = str(o.meta, `locations[${i}].meta`);
  if (meta !== undefined) loc.meta = meta.replace(/\r\n/g, '\n');
  if (o.preference !== undefined && o.preference !== null && o.preference !== '') {
    const p = typeof o.preference === 'number' || typeof o.preference === 'string' ? Number(o.preference) : NaN;
    if (!Number.isFinite(p)) throw new InputError(`locations[${i}].preference must be a number`);
    loc.preference = p;
  }
  if (o.preservation !== undefined && o.preservation !== null) {
    if (typeof o.preservation !== 'boolean') throw new InputError(`locations[${i}].preservation must be true or false`);
    if (o.preservation) loc.preservation = true;
  }
  try {
    formatUrc0Text([loc.charset === undefined && loc.language === undefined ? { url, ...(loc.meta !== undefined ? { meta: loc.meta } : {}) } : loc]);
  } catch (e) {
    // What text/urc-0 cannot carry (1995 draft §3.4.2) is refused when written, not when served.
    if (e instanceof ResolverError) throw new InputError(`locations[${i}]: ${e.message}`, e.code, e.offset);
    throw e;
  }
  return loc;
}

/**
 * Checks one record a client sent (admin API body or import line) and
 * returns its key and the input to store; throws {@link InputError}.
 *
 * @example
 * ```ts
 * validateNameInput({ urn: 'urn:isbn:0451450523', locations: ['https://example.org/'] }).key // 'urn:isbn:0451450523'
 * ```
 */
export function validateNameInput(raw: unknown, opts: ValidateOptions = {}): { key: string; input: NameInput } {
  const schemes = opts.schemes ?? DEFAULT_SCHEMES;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new InputError('a record must be a JSON object');
  const o = raw as Record<string, unknown>;
  refuseUnknown(o, KNOWN_RECORD, '');
  // Its length is checkNewName's to refuse, with the limit and a code.
  const urn = str(o.urn, 'urn', Number.MAX_SAFE_INTEGER);
  if (urn === undefined) throw new InputError('"urn" is required');
  const key = checkNewName(urn).key;
  const input: NameInput = { urn };
  const status = str(o.status, 'status', 20);
  if (status !== undefined) {
    if (!STATUSES.has(status)) throw new InputError('"status" must be active, moved, withdrawn or reserved');
    input.status = status as NameStatus;
  }
  // "url" is a shorthand for one location; both at once would leave one of them unread.
  const hasUrl = o.url !== undefined && o.url !== null;
  if (hasUrl && o.locations !== undefined && o.locations !== null) throw new InputError('give "locations" or its shorthand "url", not both');
  const locs = hasUrl ? [o.url] : o.locations;
  if (locs !== undefined && locs !== null) {
    if (!Array.isArray(locs)) throw new InputError('"locations" must be an array');
    if (locs.length > MAX_LOCATIONS) throw new InputError(`at most ${MAX_LOCATIONS} locations`);
    input.locations = locs.map((l, i) => location(l, i, schemes, hasUrl ? '/url' : `/locations/${i}`));
  }
  if (o.metadata !== undefined && o.metadata !== null) {
    if (typeof o.metadata !== 'object' || Array.isArray(o.metadata)) throw new InputError('"metadata" must be an object');
    // Measured before anything walks it recursively (JSON.stringify would overflow the stack).
    if (jsonDeeperThan(o.metadata, MAX_METADATA_DEPTH)) throw new InputError(`"metadata" is nested more than ${MAX_METADATA_DEPTH} levels deep`, 'too-deep');
    if (JSON.stringify(o.metadata).length > 65536) throw new InputError('"metadata" is larger than 64 KiB');
    input.metadata = o.metadata as Record<string, unknown>;
  }
  for (const f of ['movedTo', 'successor'] as const) {
    const v = str(o[f], f, 4096);
    if (v !== undefined) {
      checkUri(v, f);
      checkScheme(v, f, schemes);
      input[f] = v;
    }
  }
  const reason = str(o.reason, 'reason', 1000);
  if (reason !== undefined) input.reason = reason;
  if (o.permanent !== undefined) {
    if (typeof o.permanent !== 'boolean') throw new InputError('"permanent" must be true or false');
    input.permanent = o.permanent;
  }
  if (input.status === 'moved' && input.movedTo === undefined) throw new InputError('a moved name needs "movedTo"');
  if (input.movedTo !== undefined && input.status === undefined) input.status = 'moved';
  return { key, input };
}
