/**
 * What the routes of the admin API say about themselves beyond the body
 * schemas they validate with (admin-schemas.ts): a summary, a tag, the
 * query parameters and the answers. They go on the routes as
 * `schema` keywords; the OpenAPI document (openapi.ts) is generated from
 * the routes, so it says what the server does. Query parameters are
 * described, not constrained, here: each handler checks its own and
 * answers a bad one with its own problem (`Invalid limit`, `Invalid
 * cursor`, ...).
 */
import { MAX_METADATA_DEPTH } from '../../store/validate.js';

/**
 * An answer of RFC 9457 problem details, for the error statuses of a route.
 *
 * @example
 * ```ts
 * Object.keys(PROBLEM_RESPONSE.content); // ['application/problem+json']
 * ```
 */
export const PROBLEM_RESPONSE = {
  description: 'RFC 9457 problem details: a code and, where there is one, the offset of the first wrong character or the JSON pointer of the field at fault',
  content: {
    'application/problem+json': {
      schema: {
        type: 'object',
        additionalProperties: true,
        properties: {
          type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' },
          code: { type: 'string', description: 'what is wrong, stable (bad-nid, bad-month, redirect-cycle, precondition-failed...)' },
          offset: { type: 'integer', description: 'where in the value at fault (a URN, a date) the first wrong character is' },
          pointer: { type: 'string', description: 'the JSON Pointer (RFC 6901) of the body field at fault' },
          parameter: { type: 'string', description: 'the query parameter at fault' },
          from: { type: 'string', description: 'a lifecycle refusal (409): the name\'s status' },
          to: { type: 'string', description: 'a lifecycle refusal (409): the status the write asked for' },
          version: { type: 'integer', description: 'a stale If-Match (412): the name\'s version now' },
        },
      },
    },
  },
} as const;

/**
 * A record as the admin API returns it (render.ts `recordJson`).
 *
 * @example
 * ```ts
 * RECORD_SCHEMA.properties.status.enum; // ['active', 'moved', 'withdrawn', 'reserved']
 * ```
 */
export const RECORD_SCHEMA = {
  type: 'object',
  additionalProperties: true,
  properties: {
    urn: { type: 'string' }, key: { type: 'string' }, status: { type: 'string', enum: ['active', 'moved', 'withdrawn', 'reserved'] },
    locations: { type: 'array', items: { type: 'object', additionalProperties: true, properties: { url: { type: 'string' }, mediaType: { type: 'string' }, charset: { type: 'string' }, language: { type: 'string' }, meta: { type: 'string' }, preference: { type: 'number' }, preservation: { type: 'boolean' } } } },
    metadata: { type: 'object', additionalProperties: true },
    movedTo: { type: 'string' }, permanent: { type: 'boolean' }, successor: { type: 'string' }, reason: { type: 'string' },
    version: { type: 'integer' }, created: { type: 'string', format: 'date-time' }, updated: { type: 'string', format: 'date-time' },
  },
} as const;

/** What an import did (store/import.ts `ImportReport`), written or not: `ok` false, nothing was written. */
const IMPORT_REPORT_SCHEMA = {
  type: 'object',
  additionalProperties: true,
  required: ['ok', 'records', 'created', 'updated', 'unchanged', 'errors'],
  properties: {
    ok: { type: 'boolean', description: 'every record was written (or unchanged); false: none was' },
    records: { type: 'integer', description: 'records read (a CSV name over several rows counts once)' },
    created: { type: 'integer' }, updated: { type: 'integer' }, unchanged: { type: 'integer' },
    errors: {
      type: 'array',
      description: 'every bad line (at most 1000 reported)',
      items: {
        type: 'object',
        additionalProperties: true,
        required: ['line', 'message'],
        properties: { line: { type: 'integer', description: 'the line of the body, from 1 (0: the body as a whole)' }, message: { type: 'string' }, code: { type: 'string' }, offset: { type: 'integer' }, pointer: { type: 'string' } },
      },
    },
  },
} as const;

/** A partial-redirect rule (store/types.ts `PrefixRule`). */
const PREFIX_RULE_SCHEMA = {
  type: 'object',
  additionalProperties: true,
  required: ['prefix', 'target', 'created', 'updated'],
  properties: {
    prefix: { type: 'string', description: 'the URN prefix, normalized' },
    target: { type: 'string', description: 'the URL the rest of a name is appended to' },
    created: { type: 'integer', description: 'ms since 1970-01-01T00:00:00Z' },
    updated: { type: 'integer', description: 'ms since 1970-01-01T00:00:00Z' },
  },
} as const;

/** A naming authority of the registry (store/types.ts `Authority`). */
const AUTHORITY_SCHEMA = {
  type: 'object',
  additionalProperties: true,
  required: ['name', 'children', 'parents'],
  properties: {
    name: { type: 'string', description: 'urn:dns:<host> or urn:<nid>, normalized' },
    contact: { type: 'string' }, meta: { type: 'string' }, charset: { type: 'string' }, language: { type: 'string' },
    allUrl: { type: 'string' }, allMeta: { type: 'string' },
    children: { type: 'array', items: { type: 'string' } },
    parents: { type: 'array', items: { type: 'string' } },
    resolvers: { type: 'object', additionalProperties: { type: 'string' }, description: 'a child or parent authority to the base URL of the resolver that holds it' },
  },
} as const;

const json = (description: string, schema: object) => ({ description, content: { 'application/json': { schema } } });
const errors = { '4xx': PROBLEM_RESPONSE } as const;
const written = json('the change: create, update, move, withdraw, reinstate or unchanged, and the record after it', { type: 'object', additionalProperties: true, required: ['op', 'record'], properties: { op: { type: 'string' }, record: RECORD_SCHEMA } });
const text = (description: string) => ({ type: 'string', maxLength: 4096, description });
const query = (properties: Record<string, object>) => ({ type: 'object', properties });
/** `If-Match` on the writes of one name (RFC 9110 §13.1.1): 412 unless the name's ETag is listed (or `*` and the name exists). */
const conditional = query({ 'if-match': text('the ETag of the name as last read ("3"), or *: 412 Precondition Failed, nothing written, when the name has changed since') });
const page = { prefix: text('names under this prefix (default: the token\'s authority)'), limit: text('names per page, 1 to 10000 (default 100)'), after: text('the "next" of the page before') };

/**
 * The request body of `POST /admin/import`, for the OpenAPI document
 * only (openapi.ts makes it the operation's requestBody): the route reads
 * the body as a stream (routes.ts), which a body schema would have
 * fastify validate as a value.
 *
 * @example
 * ```ts
 * Object.keys(IMPORT_BODY.content); // ['application/x-ndjson', 'text/csv']
 * ```
 */
export const IMPORT_BODY = {
  content: {
    'application/x-ndjson': {
      schema: {
        type: 'string',
        description: 'NDJSON: one JSON object a line (LF or CRLF; blank lines skipped), each a whole record as `PUT /admin/names/{urn}` takes it, with its `urn` '
          + '(required): `locations` (URLs, or objects with `url`, `mediaType`, `charset`, `language`, `meta`, `preference`, `preservation`), `status` '
          + `(active, moved, withdrawn, reserved), \`movedTo\`, \`permanent\`, \`successor\`, \`reason\`, \`metadata\`. A line nests at most ${MAX_METADATA_DEPTH + 1} levels deep.`,
        examples: ['{"urn":"urn:isbn:0451450523","locations":["https://openlibrary.org/isbn/0451450523"]}\n{"urn":"urn:isbn:0140449132","status":"withdrawn","reason":"a duplicate"}\n'],
      },
    },
    'text/csv': {
      schema: {
        type: 'string',
        description: 'CSV (RFC 4180) with a header row naming its columns, in any order and case: `urn` (required), `url`, `mediatype`, `charset`, `language`, `meta`, `preference` '
          + '(a location each), `status`, `movedto`, `successor`, `reason`, `permanent` (true or false). A name with several locations is several rows in a row, one location each; '
          + 'an empty field is no value.',
        examples: ['urn,url,mediatype\r\nurn:isbn:0451450523,https://openlibrary.org/isbn/0451450523,text/html\r\nurn:isbn:0451450523,https://mirror.example/0451450523.pdf,application/pdf\r\n'],
      },
    },
  },
} as const;

/**
 * The `schema` keywords of each admin route besides its body schema.
 *
 * @example
 * ```ts
 * ADMIN_ROUTE_DOCS.withdraw.summary; // 'Withdraw a name: it answers 410 Gone with the reason from then on, and is never given to another resource'
 * ```
 */
export const ADMIN_ROUTE_DOCS = {
  putName: { summary: 'Create or replace a name\'s record (a whole record; the status of a moved, withdrawn or reserved name must be stated: 409 status-not-stated)', tags: ['names'], headers: conditional, response: { 200: written, 201: written, ...errors } },
  patchName: { summary: 'Change some fields of a name\'s record: a JSON Merge Patch (RFC 7396, application/merge-patch+json), null removes a field; the lifecycle checks a status it sets', tags: ['names'], consumes: ['application/merge-patch+json'], headers: conditional, response: { 200: written, ...errors } },
  getName: { summary: 'A name\'s current record, with its ETag (for If-Match) and Accept-Patch', tags: ['names'], response: { 200: json('the record', RECORD_SCHEMA), ...errors } },
  move: { summary: 'Move a name to another URN or URL, for good (301) or for now (302)', tags: ['names'], headers: conditional, response: { 200: written, ...errors } },
  withdraw: { summary: 'Withdraw a name: it answers 410 Gone with the reason from then on, and is never given to another resource', tags: ['names'], headers: conditional, response: { 200: written, ...errors } },
  reinstate: { summary: 'Give a withdrawn name its record back', tags: ['names'], headers: conditional, response: { 200: written, ...errors } },
  history: {
    summary: 'Every version of a name, oldest first, with the token that made each change',
    tags: ['names'],
    response: { 200: json('the history', { type: 'object', additionalProperties: true, properties: { key: { type: 'string' }, history: { type: 'array', items: { type: 'object', additionalProperties: true, properties: { seq: { type: 'integer' }, version: { type: 'integer' }, op: { type: 'string' }, at: { type: 'string', format: 'date-time' }, actor: { type: 'string' }, record: RECORD_SCHEMA } } } } }), ...errors },
  },
  list: {
    summary: 'The names under a prefix, a page at a time, in key order',
    tags: ['names'],
    querystring: query({
      ...page,
      status: text('only names of this status: active, moved, withdrawn or reserved'),
      links: { type: 'string', enum: ['healthy', 'failing', 'unchecked'], description: 'only active names of this link health: failing (a location failing, retrying or blocked), else unchecked (a location never checked), else healthy (every location answered). At most 20,000 names are read per request: a page may hold fewer names than asked and still have a "next"' },
    }),
    response: {
      200: json('a page of records; each active name with locations has its link health in "links"', {
        type: 'object',
        additionalProperties: true,
        properties: { prefix: { type: 'string' }, items: { type: 'array', items: { ...RECORD_SCHEMA, properties: { ...RECORD_SCHEMA.properties, links: { type: 'string', enum: ['healthy', 'failing', 'unchecked'] } } } }, next: { type: 'string' } },
      }),
      ...errors,
    },
  },
  export: {
    summary: 'Every name under a prefix, one record a line',
    tags: ['names'],
    querystring: query({ prefix: page.prefix }),
    response: { 200: { description: 'NDJSON: one record a line', content: { 'application/x-ndjson': { schema: { type: 'string' } } } }, ...errors },
  },
  changes: {
    summary: 'The change feed: every change after a change number or since a time, in commit order',
    tags: ['names'],
    querystring: query({ since: text('a change number (the "next" of the page before), or an RFC 3339 date-time (2026-11-24T12:00:00Z, an offset or Z required) or date (its first instant, UTC); '
      + 'a date or time the calendar does not have is 400 with `parameter`, `code` (bad-date, bad-month, bad-day, bad-time) and the `offset` of the part at fault'), limit: text('changes per page, 1 to 10000 (default 1000)') }),
    response: {
      200: json('a page of changes, oldest first', {
        type: 'object',
        additionalProperties: true,
        required: ['items', 'next'],
        properties: {
          items: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: true,
              required: ['seq', 'key', 'version', 'op', 'at', 'record'],
              properties: { seq: { type: 'integer', description: 'the change number' }, key: { type: 'string' }, version: { type: 'integer' }, op: { type: 'string' }, at: { type: 'string', format: 'date-time' }, record: RECORD_SCHEMA },
            },
          },
          next: { type: 'integer', description: 'the `since` of the next page' },
        },
      }),
      ...errors,
    },
  },
  import: {
    summary: 'Import names from NDJSON (a record a line) or CSV, in one transaction: all or nothing, every bad line reported',
    description: 'The body is read as it arrives (never held whole), UTF-8, at most the server\'s import limit (413 past it). '
      + 'Its format is the Content-Type\'s (`application/x-ndjson`, also `application/ndjson` or `application/jsonl`; `text/csv`), or `format` when given; any other is 415. '
      + 'Every record is checked as `PUT /admin/names/{urn}` checks one, and must be under the token\'s authority; a name may appear once. '
      + 'Importing the same body again changes nothing (each record is `unchanged`).',
    tags: ['names'],
    querystring: query({ format: text('ndjson or csv: the body\'s format, over what the Content-Type says') }),
    documentedBody: IMPORT_BODY,
    response: {
      200: json('every record written (or unchanged)', IMPORT_REPORT_SCHEMA),
      422: json('nothing written: the report lists every bad line with its number', IMPORT_REPORT_SCHEMA),
      ...errors,
    },
  },
  putRule: { summary: 'Add or replace a partial-redirect rule: names under the prefix that the store does not hold redirect to the target with the rest of the name appended', tags: ['registry'], response: { 200: json('the rule', PREFIX_RULE_SCHEMA), ...errors } },
  listRules: { summary: 'The partial-redirect rules within the token\'s authority', tags: ['registry'], response: { 200: json('the rules', { type: 'array', items: PREFIX_RULE_SCHEMA }), ...errors } },
  deleteRule: { summary: 'Remove a partial-redirect rule', tags: ['registry'], response: { 200: json('the prefix removed', { type: 'object', additionalProperties: true, properties: { deleted: { type: 'string' } } }), ...errors } },
  putAuthority: { summary: 'Add or replace a naming authority of the 1995 draft\'s registry (urn+m, urn+a, urn+c, urn+p)', tags: ['registry'], response: { 200: json('the authority', AUTHORITY_SCHEMA), ...errors } },
  listAuthorities: { summary: 'The naming authorities of the registry', tags: ['registry'], response: { 200: json('the authorities', { type: 'array', items: AUTHORITY_SCHEMA }), ...errors } },
} as const;
