/**
 * The resolver's error codes are its own: the core's table (urikit's
 * ERROR_MESSAGES) holds only what can be wrong with a URI, the resolver's
 * (RESOLVER_ERROR_MESSAGES) what can go wrong reading a text/urc-0 body
 * or asking resolvers; each code the resolver throws is in its table.
 */
import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, UriError } from 'urikit';
import { ResolutionError } from '../../src/client/resolve-urn.js';
import { RESOLVER_ERROR_MESSAGES, ResolverError, isResolverError } from '../../src/errors/resolver-error.js';
import { parseUrc0, Urc0SyntaxError } from '../../src/formats/urc0.js';

describe('the resolver\'s error codes', () => {
  it('are not in the core\'s table, and the core\'s are not in theirs', () => {
    const core = new Set(Object.keys(ERROR_MESSAGES));
    expect(Object.keys(RESOLVER_ERROR_MESSAGES).filter((c) => core.has(c))).toEqual([]);
    expect(Object.keys(RESOLVER_ERROR_MESSAGES).sort()).toEqual(['bad-resolver-answer', 'bad-urc0', 'no-resolver', 'redirect-loop', 'resolver-unreachable', 'too-many-redirects']);
  });

  it('are thrown as ResolverErrors, not UriErrors, with the UriError\'s shape', () => {
    let caught: unknown;
    try { parseUrc0('=====\r\nhttp://a/\r\n=====\r\n'); } catch (e) { caught = e; }
    expect(caught).toBeInstanceOf(Urc0SyntaxError);
    expect(caught).toBeInstanceOf(ResolverError);
    expect(caught).not.toBeInstanceOf(UriError);
    expect(isResolverError(caught, 'bad-urc0')).toBe(true);
    expect(JSON.parse(JSON.stringify(caught))).toEqual({ code: 'bad-urc0', offset: (caught as ResolverError).offset, message: (caught as Error).message });
    const failed = new ResolutionError('redirect-loop', ['urn:example:a', 'urn:example:b'], [], 'urn:example:a -> urn:example:b -> urn:example:a');
    expect(failed).toBeInstanceOf(ResolverError);
    expect(failed.name).toBe('ResolutionError');
    expect(failed.message).toBe(`${RESOLVER_ERROR_MESSAGES['redirect-loop']} (urn:example:a -> urn:example:b -> urn:example:a)`);
  });

  it('show the offending character, as the core\'s messages do', () => {
    expect(new ResolverError('bad-urc0', 3, 'ab c').message).toBe(`${RESOLVER_ERROR_MESSAGES['bad-urc0']} at offset 3: "c"`);
    expect(new ResolverError('bad-urc0', 2, 'ab').message).toMatch(/at offset 2: end of input$/);
  });
});
