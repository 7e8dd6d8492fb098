/**
 * The draft-1997 and draft-2003 profiles beyond their Appendix C tables:
 * the 1997 grammar's differences from RFC 3986, and the one-pass
 * resolution checked against a literal transcription of the drafts'
 * string-buffer steps on generated references (fast-check).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isValid, parse, resolve } from 'urikit';
import { literalDotSteps } from './oracle.js';

const p1997 = { profile: 'draft-1997' } as const;

describe('draft-1997 grammar (1997 draft Appendix A)', () => {
  it.each([
    ['1abc:foo', 'scheme = 1*( alpha | digit | "+" | "-" | "." ) may begin with a digit'],
    ['http://www.ics.uci.edu./x', 'a hostname may end with "."'],
    ['http://10.0.0.1/', 'hostnumber'],
    ['file:///etc/fstab', 'site = [ ... hostport ] may be empty'],
    ['http://a-b.c-d.com:8080/x;p?q#f', 'domainlabel with "-"'],
  ])('%s is valid (%s)', (input) => {
    expect(isValid(input, 'uri', p1997)).toBe(true);
  });
  it.each([
    ['http://[::1]/', 'no IPv6 literal ("[" and "]" are not URL characters in 1997)'],
    ['http://-a.com/', 'domainlabel begins with alphanum'],
    ['http://a-.com/', 'domainlabel ends with alphanum'],
    ['http://1.2.3/', 'toplabel begins with alpha; a hostnumber has four parts'],
    ['http://a.1b/', 'toplabel begins with alpha'],
    ['http://a_b.com/', '"_" is not in a hostname'],
    ['http://a b/', 'space'],
  ])('%s is invalid (%s)', (input) => {
    expect(isValid(input, 'uri', p1997)).toBe(false);
  });
  it('keeps the scheme that begins with a digit, and reports offsets in the input', () => {
    expect(parse('1abc:foo', 'uri', p1997)).toStrictEqual({ scheme: '1abc', path: 'foo' });
    expect(isValid('1abc:foo', 'uri')).toBe(false);
    let offset = -1;
    try { parse('1abc:fo o', 'uri', p1997); } catch (e) { offset = (e as { offset: number }).offset; }
    expect(offset).toBe(7);
  });
  it('knows no IRIs', () => {
    expect(isValid('http://example.com/caf\u00e9', 'iri', p1997)).toBe(false);
    expect(isValid('http://example.com/caf\u00e9', 'uri-reference', p1997)).toBe(false);
  });
  it('a base with a site and an empty path gains "/" (DEVIATION noted in draft-1997.ts)', () => {
    expect(resolve('http://a', 'g', p1997)).toBe('http://a/g');
  });
});

describe('draft-2003 grammar: RFC 3986 less IPvFuture and zone IDs (2003 draft Appendix A: IP-literal = "[" IPv6address "]")', () => {
  it.each(['http://[::1]/', 'http://[2001:db8::7]:8080/x', 'http://a/b?c#d', 'urn:example:x', '//[::ffff:1.2.3.4]/'])('%s parses as under RFC 3986', (input) => {
    expect(parse(input, 'uri-reference', { profile: 'draft-2003' })).toStrictEqual(parse(input, 'uri-reference'));
  });
  it.each([
    ['http://[v1.x]/', 'bad-host', 8, 'IPvFuture is RFC 3986 §3.2.2'],
    ['http://u@[vF.a:b]:80/', 'bad-host', 10, 'IPvFuture after userinfo'],
    ['//[v7.1]/', 'bad-host', 3, 'IPvFuture in a network-path reference'],
    ['http://[fe80::1%25eth0]/', 'bad-ipv6', 15, 'a zone ID is RFC 6874'],
  ])('%s is invalid (%s at %i: %s)', (input, code, offset) => {
    expect(isValid(input, 'uri-reference')).toBe(true);
    expect(isValid(input, 'uri-reference', { profile: 'draft-2003' })).toBe(false);
    expect(() => parse(input, 'uri-reference', { profile: 'draft-2003' })).toThrowError(expect.objectContaining({ code, offset }) as Error);
    expect(() => resolve('http://a/b', input, { profile: 'draft-2003' })).toThrowError(expect.objectContaining({ code }) as Error);
  });
});

// Segments the drafts' steps treat specially, and ordinary ones.
const segment = fc.constantFrom('.', '..', 'g', 'h;x', '', '.g', 'g..');
const relPath = fc.array(segment, { minLength: 1, maxLength: 8 }).map((s) => s.join('/'))
  .filter((p) => !p.startsWith('/') && p !== '');
const basePath = fc.array(segment, { minLength: 0, maxLength: 6 }).map((s) => `/${s.join('/')}`);
const query = fc.option(fc.array(segment, { maxLength: 4 }).map((s) => s.join('/')), { nil: undefined });

describe('resolution against the literal string-buffer steps', () => {
  it('draft-1997 §5.2 step 6 (the query joins the buffer, 6c)', () => {
    fc.assert(fc.property(basePath, relPath, query, (bp, rp, q) => {
      const ref = q === undefined ? rp : `${rp}?${q}`;
      let buffer = bp.slice(0, bp.lastIndexOf('/') + 1) + ref;
      buffer = literalDotSteps(buffer);
      const k = buffer.indexOf('?');
      const expected = `http://a${k < 0 ? buffer : `${buffer.slice(0, k)}?${buffer.slice(k + 1)}`}`;
      expect(resolve(`http://a${bp}?base`, ref, p1997)).toBe(expected);
    }));
  });
  it('draft-2003 §5.2 merge (the query stays apart)', () => {
    fc.assert(fc.property(basePath, relPath, query, (bp, rp, q) => {
      const ref = q === undefined ? rp : `${rp}?${q}`;
      const path = literalDotSteps(bp.slice(0, bp.lastIndexOf('/') + 1) + rp);
      expect(resolve(`http://a${bp}?base`, ref, { profile: 'draft-2003' })).toBe(`http://a${path}${q === undefined ? '' : `?${q}`}`);
    }));
  });
});
