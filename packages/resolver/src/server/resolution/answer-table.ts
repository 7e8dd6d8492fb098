/**
 * The answer of the resolver for every state of a name, every request
 * form and every result format, as two tables (STYLE §14: "the answer
 * for each state × request form × format is a table too, printed in the
 * docs"): {@link ASKED_BY_FORM} says what a request form asks for, and
 * {@link ANSWERS} what each state of a name answers to it — status,
 * Reason-Phrase, `Location`, `Link` and the body, which every one of the
 * five formats can carry. `docs/resolver.md` prints both, generated from
 * here by {@link answerTableMarkdown} (a test keeps them equal).
 *
 * Sources: the 1995 draft §3.3 (forms), §3.4 (formats, the Reason-Phrase
 * of 301/302), §4 (a client substitutes the new URN), §3.3 with HTTP/1.0
 * §4.1 (Simple-Requests); RFC 2169 §2 and RFC 2483 §4 (services);
 * 2012 draft §2.3 (`s=`); RFC 5829 (`successor-version`,
 * `predecessor-version`); RFC 6249 §3 (`duplicate`: the other places the
 * same resource is); RFC 9110 §15 (statuses).
 */

/**
 * Where a name stands, as the answer sees it: `moved` splits by what it
 * moved to (a client substitutes a URN, 1995 draft §4; a URL is the
 * resource's place); `rule` is a name the store does not hold under a
 * partial-redirect rule; `delegated` a name the store does not hold of a
 * child authority that another resolver holds (1995 draft §3.5.3, §6A);
 * `handed-over` any name of an authority whose resolution was handed
 * over to another resolver (§6A), whatever its state here.
 *
 * @example
 * ```ts
 * const s: AnswerState = 'moved-urn';
 * ANSWERS[s].locate.status; // 301
 * ```
 */
export type AnswerState = 'active' | 'moved-urn' | 'moved-url' | 'withdrawn' | 'reserved' | 'unknown' | 'rule' | 'delegated' | 'handed-over';

/**
 * What a request asks for (RFC 2483 §4): `locate` (I2L: be sent to the
 * resource), `list` (I2Ls: every location), `describe` (I2C, `?info`:
 * the record), `name` (I2N: a URN of the same resource), `names` (I2Ns:
 * every such URN), `history` (`?history`: every version of the record,
 * what changed and when, never who).
 *
 * @example
 * ```ts
 * const a: Asked = 'list';
 * ANSWERS.active[a].status; // 200
 * ANSWERS.withdrawn.history.body; // 'history'
 * ```
 */
export type Asked = 'locate' | 'list' | 'describe' | 'name' | 'names' | 'history';

/**
 * The body an answer carries (in any of the five formats):
 * `locations` (the list of the 1995 draft §3.4), `record` (the metadata),
 * `names` (a list of URNs), `moved` (where the name went, why and when),
 * `tombstone` (why and when it was withdrawn), `history` (every change:
 * when, what kind, which fields and the record after it), `reserved`
 * and `unknown` (a message; urc-0 has no part to give for an unknown
 * name).
 *
 * @example
 * ```ts
 * const b: BodyKind = ANSWERS.withdrawn.locate.body;
 * b; // 'tombstone'
 * ```
 */
export type BodyKind = 'locations' | 'record' | 'names' | 'moved' | 'tombstone' | 'history' | 'reserved' | 'unknown' | 'delegated' | 'handed-over';

/**
 * One cell of {@link ANSWERS}: the status (301/302 of a move follow the
 * record's `permanent`: the table gives the permanent one), the
 * Reason-Phrase (`{to}` is the new URN, URL or resolver, `{authority}`
 * the child authority), where `Location` points, and the body.
 *
 * @example
 * ```ts
 * const row: AnswerRow = ANSWERS.reserved.list;
 * row; // { status: 404, reason: 'Not Found (reserved)', body: 'reserved' }
 * ```
 */
export interface AnswerRow {
  status: number;
  reason: string;
  /**
   * `preferred`: the preferred location; `target`: what the name moved to
   * (a URN: this resolver's URL for it, in the same request form);
   * `delegate`: the child's resolver, asked the same service for the same URN;
   * `handover`: the resolver the authority was handed over to, asked the
   * same request (the whole URN for a bare ElementID).
   */
  location?: 'preferred' | 'target' | 'delegate' | 'handover';
  body: BodyKind;
}

const MOVED: AnswerRow = { status: 301, reason: 'Moved Permanently to {to}', location: 'target', body: 'moved' };
const GONE: AnswerRow = { status: 410, reason: 'Gone', body: 'tombstone' };
const RESERVED: AnswerRow = { status: 404, reason: 'Not Found (reserved)', body: 'reserved' };
const UNKNOWN: AnswerRow = { status: 404, reason: 'Not Found', body: 'unknown' };
const RECORD: AnswerRow = { status: 200, reason: 'OK', body: 'record' };
const HISTORY: AnswerRow = { status: 200, reason: 'OK', body: 'history' };
// RFC 2169 §2: a 302 to the resolver that holds the name is a delegation the client follows (1995 draft §4).
const DELEGATED: AnswerRow = { status: 302, reason: 'Found at the resolver of {authority}', location: 'delegate', body: 'delegated' };
// 1995 draft §6A: resolution handed over for good, so 301, with a relevant Reason-Phrase (§3.4.1).
const HANDED_OVER: AnswerRow = { status: 301, reason: 'Moved Permanently to {to}', location: 'handover', body: 'handed-over' };

/**
 * The answer of each state of a name to each thing a request can ask.
 * Headers beside these: `Link: <…>; rel="successor-version"` wherever the
 * record names a successor or the name moved (RFC 5829 §3.3),
 * `rel="predecessor-version"` for each name of the store that moved here
 * or names this one its successor, `rel="duplicate"` for every location
 * but the preferred one of a redirect (RFC 6249 §3), `ETag` and
 * `Last-Modified` of the record's version (1995 draft §5), `Vary: Accept`.
 *
 * @example
 * ```ts
 * ANSWERS.active.locate; // { status: 302, reason: 'Found', location: 'preferred', body: 'locations' }
 * ANSWERS.withdrawn.describe.status; // 410
 * ANSWERS['moved-urn'].name.body; // 'names'
 * ```
 */
export const ANSWERS: Readonly<Record<AnswerState, Readonly<Record<Asked, AnswerRow>>>> = {
  active: {
    locate: { status: 302, reason: 'Found', location: 'preferred', body: 'locations' },
    list: { status: 200, reason: 'OK', body: 'locations' },
    describe: RECORD,
    name: { status: 200, reason: 'OK', body: 'names' },
    names: { status: 200, reason: 'OK', body: 'names' },
    history: HISTORY,
  },
  // 1995 draft §3.4.1, §4: the new URN or URL in the Reason-Phrase, and a body saying the same.
  'moved-urn': { locate: MOVED, list: MOVED, describe: RECORD, name: { status: 200, reason: 'OK', body: 'names' }, names: { status: 200, reason: 'OK', body: 'names' }, history: HISTORY },
  'moved-url': { locate: MOVED, list: MOVED, describe: RECORD, name: { status: 200, reason: 'OK', body: 'names' }, names: { status: 200, reason: 'OK', body: 'names' }, history: HISTORY },
  // DESIGN.md: nothing is erased; a withdrawn name answers 410 with its tombstone, whatever is asked;
  // its history is still public (410 with the history as the body: what it was, and when it was withdrawn).
  withdrawn: { locate: GONE, list: GONE, describe: GONE, name: GONE, names: GONE, history: { status: 410, reason: 'Gone', body: 'history' } },
  reserved: { locate: RESERVED, list: RESERVED, describe: RECORD, name: RESERVED, names: RESERVED, history: HISTORY },
  unknown: { locate: UNKNOWN, list: UNKNOWN, describe: UNKNOWN, name: UNKNOWN, names: UNKNOWN, history: UNKNOWN },
  rule: {
    locate: { status: 302, reason: 'Found', location: 'preferred', body: 'locations' },
    list: { status: 200, reason: 'OK', body: 'locations' },
    describe: { status: 200, reason: 'OK', body: 'locations' },
    name: { status: 200, reason: 'OK', body: 'names' },
    names: { status: 200, reason: 'OK', body: 'names' },
    // A rule's name is not held: the store keeps no history of it.
    history: UNKNOWN,
  },
  // The child's resolver answers whatever is asked, its history too (I2C there: RFC 2483 has no history service).
  delegated: { locate: DELEGATED, list: DELEGATED, describe: DELEGATED, name: DELEGATED, names: DELEGATED, history: DELEGATED },
  // The new resolver answers every request for the authority's names, as it was asked here.
  'handed-over': { locate: HANDED_OVER, list: HANDED_OVER, describe: HANDED_OVER, name: HANDED_OVER, names: HANDED_OVER, history: HANDED_OVER },
};

/**
 * The RFC 2483 service that asks a child's resolver what a request asked
 * here (RFC 2169 §2 request form), when the request named none.
 *
 * @example
 * ```ts
 * DELEGATED_SERVICE.list; // 'I2Ls'
 * ```
 */
export const DELEGATED_SERVICE: Readonly<Record<Asked, string>> = { locate: 'I2L', list: 'I2Ls', describe: 'I2C', name: 'I2N', names: 'I2Ns', history: 'I2C' };

/**
 * The formats an answer is offered in, in the server's order of
 * preference (the first is sent when `Accept` has no preference): all
 * five, always; the order depends on what is asked and, for a list, on
 * the form (1995 draft §3.4.2: "resolution servers should prefer"
 * text/urc-0; RFC 2169 §3: text/uri-list for `/uri-res/`).
 *
 * @example
 * ```ts
 * FORMAT_ORDER.list; // ['urc-0', 'plain', 'html', 'json', 'uri-list']
 * FORMAT_ORDER.names[0]; // 'uri-list'
 * ```
 */
export const FORMAT_ORDER = {
  locate: ['plain', 'html', 'json', 'urc-0', 'uri-list'],
  list: ['urc-0', 'plain', 'html', 'json', 'uri-list'],
  listUriRes: ['uri-list', 'urc-0', 'plain', 'html', 'json'],
  describe: ['json', 'html', 'plain', 'urc-0', 'uri-list'],
  name: ['uri-list', 'plain', 'json', 'html', 'urc-0'],
  names: ['uri-list', 'plain', 'json', 'html', 'urc-0'],
  history: ['json', 'html', 'plain', 'urc-0', 'uri-list'],
  error: ['plain', 'html', 'json', 'urc-0', 'uri-list'],
  // 1995 draft §3.5: "any of the known formats", urc-0 preferred (§3.4.2); §3.5.3, §3.5.4 write authorities a line each.
  reserved: ['urc-0', 'plain', 'html', 'json', 'uri-list'],
  authorities: ['plain', 'urc-0', 'html', 'json', 'uri-list'],
} as const;

/**
 * The reserved requests of the 1995 draft §3.5 (ElementIDs beginning
 * `urn+`, §2.3): what each answers, its status and its formats in order
 * (`urn+a?list` is the list urn+a points at, one ElementID a CRLF line;
 * any other `urn+` is reserved and not defined: 501).
 *
 * @example
 * ```ts
 * RESERVED_ANSWERS['urn+c'].formats[0]; // 'plain'
 * RESERVED_ANSWERS.other.status; // 501
 * ```
 */
export const RESERVED_ANSWERS = {
  'urn+m': { status: 200, reason: 'OK', what: 'meta-information: the contact of the authority or resolver (§3.5.1)', formats: FORMAT_ORDER.reserved },
  'urn+a': { status: 200, reason: 'OK', what: 'a pointer to the list of all ElementIDs, with their count (§3.5.2)', formats: FORMAT_ORDER.reserved },
  'urn+a?list': { status: 200, reason: 'OK', what: 'that list: every ElementID that resolves here, one a CRLF line', formats: ['plain'] },
  'urn+c': { status: 200, reason: 'OK', what: 'the child naming authorities, each with its resolver when another holds it (§3.5.3); for the whole resolver, every authority it holds', formats: FORMAT_ORDER.authorities },
  'urn+p': { status: 200, reason: 'OK', what: 'the parent naming authorities, each with its resolver (§3.5.4)', formats: FORMAT_ORDER.authorities },
  other: { status: 501, reason: 'Not Implemented', what: 'reserved (§2.3) but not defined', formats: FORMAT_ORDER.error },
} as const satisfies Record<string, { status: number; reason: string; what: string; formats: readonly string[] }>;

/**
 * The request forms and what each asks for (the second table): the
 * services of RFC 2483 as RFC 2169 and the 2012 draft name them, and,
 * without one, what `Accept` says.
 *
 * @example
 * ```ts
 * ASKED_BY_FORM.length; // 5
 * ASKED_BY_FORM[0]!.form; // '1995 bare form: `GET /<ElementID>`'
 * ```
 */
export const ASKED_BY_FORM: ReadonlyArray<{ form: string; example: string; asked: string }> = [
  { form: '1995 bare form: `GET /<ElementID>`', example: '/aj17-mcc', asked: 'by `Accept`: a format named in it that a browser does not name first (text/urc-0, text/plain, text/uri-list) asks `list`, application/json `describe`, text/html, `*/*` or none `locate`; `?info` asks `describe`, `?history` `history`. The authority is the `Host`\'s among those the server holds, else the configured one' },
  { form: 'HTTP/0.9 Simple-Request: `GET <ElementID>`', example: 'GET alb002', asked: '`list`, in text/urc-0 (1995 draft §3.3); the body alone, no status line' },
  { form: 'whole URN: `GET /urn:<nid>:<nss>`', example: '/urn:ietf:rfc:2141', asked: 'as the 1995 bare form' },
  { form: 'RFC 2169: `GET /uri-res/<service>?<urn>`', example: '/uri-res/N2Ls?urn:ietf:rfc:2141', asked: 'I2L/N2L `locate`, I2Ls/N2Ls `list`, I2C/I2Cs/N2C/N2Cs `describe`, I2N/N2N `name`, I2Ns/N2Ns `names`, I=I/N=N same name?; I2R, I2Rs, N2R, N2Rs, L2x and the other RFC 2483 services: 501 Not Implemented; any other name: I2L (2012 draft §2.3.1)' },
  { form: '2012 draft directive: `GET /urn:<nid>:<nss>?s=<service>`', example: '/urn:isbn:0451450523?s=I2C', asked: 'the service, as in the RFC 2169 form (also RFC 8141 `?=s=`)' },
];

const LOCATION_TEXT: Readonly<Record<NonNullable<AnswerRow['location']>, string>> = {
  preferred: 'the preferred location',
  target: 'the new URN (this resolver\'s URL for it) or URL',
  delegate: 'the child\'s resolver, `/uri-res/<service>?<urn>` with the service asked (I2L, I2Ls, I2C, I2N, I2Ns)',
  handover: 'the same request at the resolver the authority was handed over to (a bare ElementID as the whole URN)',
};

/** A cell of the printed table: the status, Reason-Phrase, Location and body. */
function cell(row: AnswerRow): string {
  const loc = row.location === undefined ? '' : `; Location: ${LOCATION_TEXT[row.location]}`;
  return `${row.status} ${row.reason.replace('{to}', row.location === 'handover' ? '*new resolver*' : '*new URN or URL*').replace('{authority}', '*child authority*')}${loc}; body: ${row.body}`;
}

/** What each body is in each format, for the printed table. */
const BODY_IN_FORMATS: Readonly<Record<BodyKind, string>> = {
  locations: 'urc-0: a part per location; plain, html, json: the list with metainformation; uri-list: a line each',
  record: 'json: the record; html, plain: its fields; urc-0, uri-list: the locations',
  names: 'uri-list, plain: a URN a line; json: `{title, names}`; html: links; urc-0: a part per URN',
  moved: 'urc-0: one part, the new URN or URL, with the reason and date; uri-list: that URI; plain, html, json: the same with the reason and date',
  tombstone: 'the reason and the date of withdrawal in all five (urc-0: a part pointing at the record, `?s=I2C`; uri-list: `#` comment lines)',
  history: 'every version, oldest first: its date, the kind of change (create, update, move, withdraw, reinstate) and the fields it altered, never who made it; json: each with the record after it; html: a list; plain: a heading line per change, the fields indented; urc-0: one part pointing at the history (`?history`), the changes as its metainformation; uri-list: `#` comment lines',
  reserved: 'a message in all five (urc-0: a part pointing at the record; uri-list: a comment)',
  unknown: 'a message in plain, html, json; uri-list: a comment; urc-0: no part',
  delegated: 'one location, the child\'s resolver asked the same (the `Location`), its metainformation naming the child authority and its resolver; json: `delegation: {authority, resolver}` too',
  'handed-over': 'one location, the same request at the new resolver (the `Location`), its metainformation saying the authority was handed over; json: `handover: {authority, to}` too',
};

/**
 * Both tables as Markdown, as `docs/resolver.md` prints them.
 *
 * @example
 * ```ts
 * answerTableMarkdown().split('\n')[0]; // '| request form | example | what it asks |'
 * ```
 */
export function answerTableMarkdown(): string {
  const lines = ['| request form | example | what it asks |', '|---|---|---|'];
  for (const f of ASKED_BY_FORM) lines.push(`| ${f.form.replaceAll('|', '\\|')} | \`${f.example}\` | ${f.asked} |`);
  lines.push('');
  const asked: Asked[] = ['locate', 'list', 'describe', 'name', 'names', 'history'];
  lines.push(`| state | ${asked.join(' | ')} |`, `|---|${asked.map(() => '---').join('|')}|`);
  for (const [state, row] of Object.entries(ANSWERS) as Array<[AnswerState, Record<Asked, AnswerRow>]>) {
    lines.push(`| ${state} | ${asked.map((a) => cell(row[a])).join(' | ')} |`);
  }
  lines.push('');
  lines.push('| reserved request | status | answers | formats, preferred first |', '|---|---|---|---|');
  for (const [request, row] of Object.entries(RESERVED_ANSWERS)) {
    lines.push(`| ${request === 'other' ? 'any other `urn+`' : `\`${request}\``} | ${row.status} ${row.reason} | ${row.what} | ${row.formats.join(', ')} |`);
  }
  lines.push('');
  lines.push('| body | in the five formats (text/urc-0, text/plain, text/html, application/json, text/uri-list) |', '|---|---|');
  for (const [body, text] of Object.entries(BODY_IN_FORMATS)) lines.push(`| ${body} | ${text} |`);
  return lines.join('\n');
}
