/**
 * The admin API's route schemas are never stricter than the record
 * checks that bulk import runs (`validateNameInput`): a record an import
 * takes is a body the API takes.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Ajv } from 'ajv';
import { NAME_BODY_SCHEMA } from '../../src/server/admin/schemas.js';
import { InputError, LOCATION_MEMBERS, READ_ONLY_MEMBERS, RECORD_MEMBERS, validateNameInput } from '../../src/store/validate.js';

const anyScalar = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(''));
const url = fc.constantFrom('http://a.example/', 'ftp://b.example/x', 'urn:ex:other', 'javascript:x', 'not a url', '');
/** Mostly a value of the right kind, now and then any scalar. */
const mostly = <T>(good: fc.Arbitrary<T>) => fc.oneof({ arbitrary: good, weight: 6 }, { arbitrary: anyScalar, weight: 1 });
const location = fc.oneof(
  url,
  fc.record({
    url: mostly(url),
    mediaType: mostly(fc.constantFrom('text/html', 'text/html; charset=utf-8', 'bad type')),
    charset: mostly(fc.constantFrom('US-ASCII', 'ISO-8859-1', 'UTF-8')),
    language: mostly(fc.constantFrom('en', 'de-CH')),
    meta: mostly(fc.constantFrom('a note', 'two\nlines', '=====x')),
    preference: mostly(fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom('1', '2.5', 'x'))),
  }, { requiredKeys: [] }),
  anyScalar,
);
const record = fc.record({
  status: mostly(fc.constantFrom('active', 'moved', 'withdrawn', 'reserved', 'lost')),
  locations: mostly(fc.array(location, { maxLength: 3 })),
  url: mostly(location),
  metadata: mostly(fc.oneof(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }), fc.array(fc.integer()))),
  movedTo: mostly(url),
  successor: mostly(url),
  reason: anyScalar,
  permanent: mostly(fc.boolean()),
}, { requiredKeys: [] });

describe('admin route schemas', () => {
  const check = new Ajv({ coerceTypes: false, strict: false }).compile(NAME_BODY_SCHEMA);
  it('PUT /admin/names: every record validateNameInput accepts, the schema accepts', () => {
    let accepted = 0;
    fc.assert(fc.property(record, (body) => {
      let ok = true;
      try { validateNameInput({ ...body, urn: 'urn:ex:a' }); } catch { ok = false; }
      if (ok) {
        accepted++;
        expect(check(body), JSON.stringify(check.errors)).toBe(true);
      }
    }), { numRuns: 5000 });
    // The property said something: some of the generated records were valid.
    expect(accepted).toBeGreaterThan(30);
  });

  it('knows the members validateNameInput knows, and refuses any other at the same pointer', () => {
    const recordSchema = NAME_BODY_SCHEMA.properties;
    expect(Object.keys(recordSchema).sort()).toEqual([...RECORD_MEMBERS, ...READ_ONLY_MEMBERS].sort());
    expect(Object.keys(NAME_BODY_SCHEMA.properties.locations.items.oneOf[1].properties).sort()).toEqual([...LOCATION_MEMBERS].sort());
    const known = new Set([...RECORD_MEMBERS, ...READ_ONLY_MEMBERS, ...LOCATION_MEMBERS]);
    const extra = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !known.has(k) && k !== '__proto__');
    fc.assert(fc.property(extra, fc.boolean(), (k, inLocation) => {
      const body = inLocation ? { locations: [{ url: 'http://a.example/', [k]: 1 }] } : { locations: [], [k]: 1 };
      expect(check(body)).toBe(false);
      const pointer = `${inLocation ? '/locations/0' : ''}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      expect(check.errors!.some((e) => e.keyword === 'additionalProperties' && `${e.instancePath}/${String(e.params.additionalProperty).replace(/~/g, '~0').replace(/\//g, '~1')}` === pointer)).toBe(true);
      try { validateNameInput({ ...body, urn: 'urn:ex:a' }); expect.unreachable(); } catch (e) { expect(e).toMatchObject({ code: 'unknown-field', pointer }); expect(e).toBeInstanceOf(InputError); }
    }), { numRuns: 500 });
  });
});
