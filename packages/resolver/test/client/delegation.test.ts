/**
 * resolveUrn across the web of resolvers: a parent authority's resolver
 * redirects a name of a delegated child to the child's resolver, and the
 * client asks there (1995 draft §4, §3.5.3), bounded by maxRedirects and
 * stopped at a loop.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveUrn, ResolutionError } from '../../src/client/index.js';
import { startWebOfResolvers, type WebOfResolvers } from '../helpers/web-of-resolvers.js';

describe('resolveUrn follows delegations', () => {
  let web: WebOfResolvers;
  beforeAll(async () => { web = await startWebOfResolvers(); });
  afterAll(async () => { await web?.close(); });

  it('goes from the parent\'s resolver to the child\'s and on to the grandchild\'s', async () => {
    const r = await resolveUrn('urn:example:a:b:c:doc', { resolvers: [web.a.url] });
    expect(r.status).toBe(302);
    expect(r.locations.map((l) => l.url)).toEqual(['http://example.org/c/doc']);
    expect(r.resolver).toBe(`${web.c.url}/uri-res/I2L?urn:example:a:b:c:doc`);
    expect(r.via).toEqual(['urn:example:a:b:c:doc']);
  });

  it('stops at a delegation loop, after maxRedirects hops, and at a child resolver that does not answer', async () => {
    const failure = (urn: string, opts = {}) => resolveUrn(urn, { resolvers: [web.a.url], timeout: 5000, ...opts }).then(() => undefined, (e: unknown) => e);
    const cases: Array<[string, string, object, string]> = [
      ['a loop A -> B -> C -> A', 'urn:example:a:b:c:loop:x', {}, 'redirect-loop'],
      ['one hop allowed, two needed', 'urn:example:a:b:c:doc', { maxRedirects: 1 }, 'too-many-redirects'],
      ['a child whose resolver is down', 'urn:example:a:gone:x', {}, 'resolver-unreachable'],
    ];
    for (const [what, urn, opts, code] of cases) {
      const e = await failure(urn, opts);
      expect(e, what).toBeInstanceOf(ResolutionError);
      expect((e as ResolutionError).code, what).toBe(code);
    }
  });
});
