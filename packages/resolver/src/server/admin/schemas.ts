/**
 * The JSON Schemas (draft 2020-12 keywords that Ajv 8 and OpenAPI 3.1
 * share) of the admin API's request bodies, set on the routes
 * (`schema.body`) and checked by a strict validator before a handler
 * runs: shapes, types, lengths and counts. What needs a grammar and an
 * offset (URNs, URLs, their schemes, media types, charsets, the
 * 1995 draft's "=====" rule) is checked after, by `validateNameInput`,
 * which bulk import uses too; these schemas are never stricter than it.
 */
import { Ajv } from 'ajv';
import type { FastifyInstance } from 'fastify';

const text = (max: number) => ({ type: ['string', 'null'], maxLength: max });

/**
 * One location: a URL, or an object with the URL and its
 * metainformation (1995 draft §3.4.2).
 *
 * @example
 * ```ts
 * LOCATION_SCHEMA.oneOf.length; // 2
 * ```
 */
export const LOCATION_SCHEMA = {
  oneOf: [
    { type: 'string', maxLength: 8192 },
    {
      type: 'object',
      required: ['url'],
      additionalProperties: false,
      properties: {
        url: { type: 'string', maxLength: 8192 },
        mediaType: text(200),
        charset: text(20),
        language: text(100),
        meta: text(8192),
        preference: { type: ['number', 'string', 'null'], maxLength: 32 },
        preservation: { type: ['boolean', 'null'] },
      },
    },
  ],
} as const;

/**
 * The body of `PUT /admin/names/<urn>`: a record (the URN is the path's).
 *
 * @example
 * ```ts
 * NAME_BODY_SCHEMA.properties.status.enum; // ['active', 'moved', 'withdrawn', 'reserved', '', null]
 * ```
 */
export const NAME_BODY_SCHEMA = {
  type: 'object',
  // A misspelt field is refused, never taken for an absent one (validate.ts RECORD_MEMBERS).
  additionalProperties: false,
  properties: {
    status: { enum: ['active', 'moved', 'withdrawn', 'reserved', '', null] },
    locations: { type: ['array', 'null'], maxItems: 100, items: LOCATION_SCHEMA },
    url: { anyOf: [LOCATION_SCHEMA, { type: 'null' }] },
    metadata: { type: ['object', 'null'] },
    movedTo: text(4096),
    successor: text(4096),
    reason: text(1000),
    permanent: { type: 'boolean' },
    // What a read returns beside the record: taken back and ignored (the URN is the path's; a precondition is If-Match).
    urn: { type: 'string', maxLength: 8192, readOnly: true },
    key: { type: 'string', maxLength: 8192, readOnly: true },
    version: { type: 'integer', readOnly: true },
    created: { type: 'string', maxLength: 40, readOnly: true },
    updated: { type: 'string', maxLength: 40, readOnly: true },
  },
  // "url" is a shorthand for one location: not both.
  not: { required: ['locations', 'url'], properties: { locations: { type: 'array' }, url: { not: { type: 'null' } } } },
} as const;

const { urn: _urn, key: _key, version: _version, created: _created, updated: _updated, ...WRITABLE } = NAME_BODY_SCHEMA.properties;

/**
 * The body of `PATCH /admin/names/<urn>`: a JSON Merge Patch (RFC 7396)
 * of the record's writable members; null removes one. The status can be
 * changed, never removed (a name always has one).
 *
 * @example
 * ```ts
 * NAME_PATCH_SCHEMA.properties.status.enum; // ['active', 'moved', 'withdrawn', 'reserved']
 * 'version' in NAME_PATCH_SCHEMA.properties; // false
 * ```
 */
export const NAME_PATCH_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { ...WRITABLE, status: { enum: ['active', 'moved', 'withdrawn', 'reserved'] }, permanent: { type: ['boolean', 'null'] } },
  not: NAME_BODY_SCHEMA.not,
} as const;

/**
 * The body of `POST /admin/move/<urn>`: where the name goes, for good or
 * for now, and why.
 *
 * @example
 * ```ts
 * MOVE_BODY_SCHEMA.required; // ['to']
 * ```
 */
export const MOVE_BODY_SCHEMA = {
  type: 'object',
  required: ['to'],
  additionalProperties: false,
  properties: { to: { type: 'string', minLength: 1, maxLength: 4096 }, permanent: { type: 'boolean' }, reason: text(1000) },
} as const;

/**
 * The body of `POST /admin/withdraw/<urn>` and `POST /admin/reinstate/<urn>`
 * (optional: the reason).
 *
 * @example
 * ```ts
 * REASON_BODY_SCHEMA.properties.reason.maxLength; // 1000
 * ```
 */
export const REASON_BODY_SCHEMA = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { reason: text(1000) },
} as const;

/**
 * The body of `PUT /admin/prefix-rules`: a URN prefix and the URL the rest
 * of a name is appended to.
 *
 * @example
 * ```ts
 * PREFIX_RULE_BODY_SCHEMA.required; // ['prefix', 'target']
 * ```
 */
export const PREFIX_RULE_BODY_SCHEMA = {
  type: 'object',
  required: ['prefix', 'target'],
  additionalProperties: false,
  properties: { prefix: { type: 'string', maxLength: 1024 }, target: { type: 'string', maxLength: 4096 } },
} as const;

const NAMES = { type: 'array', maxItems: 1000, items: { type: 'string', maxLength: 1023 } } as const;

/**
 * The body of `PUT /admin/authorities`: a naming authority of the 1995
 * draft §3.5 registry.
 *
 * @example
 * ```ts
 * AUTHORITY_BODY_SCHEMA.required; // ['name']
 * ```
 */
export const AUTHORITY_BODY_SCHEMA = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', maxLength: 1024 },
    contact: { type: 'string', maxLength: 4096 },
    allUrl: { type: 'string', maxLength: 4096 },
    meta: text(8192),
    allMeta: text(8192),
    language: text(64),
    charset: { type: 'string', maxLength: 20 },
    children: NAMES,
    parents: NAMES,
    resolvers: { type: 'object', maxProperties: 2000, additionalProperties: { type: 'string', maxLength: 4096 } },
  },
} as const;

/**
 * Makes the routes of `app` (an encapsulated admin context) check their
 * schemas with Ajv as written: no type coercion, no defaults, nothing
 * removed, so that the API takes exactly what a bulk import takes.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const app = Fastify();
 * await app.register(async (admin) => {
 *   useStrictSchemas(admin);
 *   admin.post('/move', { schema: { body: MOVE_BODY_SCHEMA } }, async () => 'ok');
 * });
 * (await app.inject({ method: 'POST', url: '/move', payload: { to: 'urn:ex:b', permanent: 'yes' } })).statusCode; // 400
 * (await app.inject({ method: 'POST', url: '/move', payload: { to: 'urn:ex:b', permanent: true } })).statusCode; // 200
 * await app.close();
 * ```
 */
export function useStrictSchemas(app: FastifyInstance): void {
  const ajv = new Ajv({ allErrors: false, coerceTypes: false, useDefaults: false, removeAdditional: false, strict: false });
  app.setValidatorCompiler(({ schema }) => ajv.compile(schema));
}
