/**
 * The `@example` of every export of src/schemes and src/profiles, run
 * (STYLE §11: "an @example that a test runs").
 */
import { describe, expect, it } from 'vitest';
import {
  afsScheme, dataScheme, fileScheme, fileUriToPath, ftpScheme, genericCodec, getScheme, getSchemeRules,
  gopherScheme, httpScheme, httpsScheme, isAnonymousFtp, listSchemes, mailtoScheme, newsScheme, nntpScheme,
  parse, pathToFileUri, PROFILES, prosperoScheme, rloginScheme, telnetScheme, tn3270Scheme, urnScheme,
  waisScheme, wsScheme, wssScheme, urnCodec,
} from 'urikit';
import { authorityText, joinUserinfo, portNumber, requireHost, splitUserinfo } from '../../src/schemes/login.js';
import { decodeOctets, decodeText, encodeText } from '../../src/schemes/octets.js';
import { BUILTIN_RULES, driveLetterAt, typecodeAt } from '../../src/schemes/rules.js';
import { target } from '../../src/profiles/target.js';
import { serialize } from 'urikit';
import { parseWithProfile, resolveWithProfile } from '../../src/profiles.js';
import { removeDraftDotSegments } from '../../src/profiles/dot-segments.js';
import { resolve2003 } from '../../src/profiles/draft-2003.js';
import { check1997Host, parse1997, resolve1997 } from '../../src/profiles/draft-1997.js';
import { parse1993, resolve1993 } from '../../src/profiles/url-1993.js';

describe('schemes', () => {
  it('registry', () => {
    expect(getScheme('HTTP')?.defaultPort).toBe(80);
    expect(getScheme('ftp')?.parse(parse('ftp://host/a;type=i'))).toStrictEqual({ host: 'host', directories: [], name: 'a', typecode: 'i' });
    expect(getSchemeRules('HTTP')?.defaultPort).toBe(80);
    expect(listSchemes().includes('ftp')).toBe(true);
  });
  it('codecs', () => {
    expect(httpScheme.parse(parse('http://example.com:8080/a?b'))).toStrictEqual({ scheme: 'http', host: 'example.com', port: 8080, path: '/a', query: 'b' });
    expect(httpsScheme.defaultPort).toBe(443);
    expect(wsScheme.build({ scheme: 'ws', host: 'h', path: '/chat' })).toBe('ws://h/chat');
    expect(wssScheme.defaultPort).toBe(443);
    expect(ftpScheme.parse(parse('ftp://foo:@host.com/pub/a.txt;type=i'))).toStrictEqual({ user: 'foo', password: '', host: 'host.com', directories: ['pub'], name: 'a.txt', typecode: 'i' });
    expect(isAnonymousFtp(ftpScheme.parse(parse('ftp://host.com/')))).toBe(true);
    expect(isAnonymousFtp(ftpScheme.parse(parse('ftp://@host.com/')))).toBe(false);
    expect(gopherScheme.parse(parse('gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles'))).toStrictEqual({ host: 'spinaltap.micro.umn.edu', type: '0', selector: '0/Weather/California/Los Angeles' });
    expect(newsScheme.parse(parse('news:comp.infosystems.www.servers.unix'))).toStrictEqual({ kind: 'group', group: 'comp.infosystems.www.servers.unix' });
    expect(nntpScheme.parse(parse('nntp://news.example.com/comp.lang.c/42'))).toStrictEqual({ host: 'news.example.com', group: 'comp.lang.c', articleNumber: 42 });
    expect(waisScheme.parse(parse('wais://quake.think.com/wais-discussion-archives?lynch'))).toStrictEqual({ host: 'quake.think.com', database: 'wais-discussion-archives', search: 'lynch' });
    expect(prosperoScheme.parse(parse('prospero://host/a/b%001%00x%00y'))).toStrictEqual({ host: 'host', hsoname: 'a/b', version: '1', attributes: ['x', 'y'] });
    expect(telnetScheme.parse(parse('telnet://melvyl.ucop.edu/'))).toStrictEqual({ scheme: 'telnet', host: 'melvyl.ucop.edu' });
    expect(rloginScheme.build({ scheme: 'rlogin', user: 'guest', host: 'h' })).toBe('rlogin://guest@h/');
    expect(tn3270Scheme.defaultPort).toBe(23);
    expect(fileScheme.parse(parse('file:///c:/path/to/file.txt'))).toStrictEqual({ host: '', path: '/c:/path/to/file.txt', drive: 'c:' });
    expect(mailtoScheme.parse(parse('mailto:infobot@example.com?subject=current-issue'))).toStrictEqual({ to: ['infobot@example.com'], headers: [['subject', 'current-issue']] });
    expect(new TextDecoder().decode(dataScheme.parse(parse('data:,A%20brief%20note')).data)).toBe('A brief note');
    expect(urnScheme.parse(parse('urn:example:a123,z456'))).toMatchObject({ profile: 'rfc8141', nid: 'example', nss: 'a123,z456' });
    expect(urnCodec('urn-2012').parse(parse('urn:isbn:0-395-36341-1?s=I2U')).qComponent).toBe('s=I2U');
    expect(urnCodec('yaurn-1995').parse(parse('urn:dns:urn.flixco.com:urn+m')).reservedRequest).toBe('m');
    expect(afsScheme.experimental).toBe(true);
    expect(genericCodec('x-foo', true).experimental).toBe(true);
  });
  it('file paths', () => {
    expect(fileUriToPath('file:///etc/fstab')).toBe('/etc/fstab');
    expect(fileUriToPath('file:///c:/path/to/file.txt', { windows: true })).toBe('c:\\path\\to\\file.txt');
    expect(fileUriToPath('file://server/share/a.txt', { windows: true })).toBe('\\\\server\\share\\a.txt');
    expect(pathToFileUri('/tmp/a b#1')).toBe('file:///tmp/a%20b%231');
    expect(pathToFileUri('C:\\Program Files\\x', { windows: true })).toBe('file:///C:/Program%20Files/x');
    expect(pathToFileUri('\\\\server\\share\\a.txt', { windows: true })).toBe('file://server/share/a.txt');
  });
  it('internals', () => {
    expect(splitUserinfo('foo:')).toStrictEqual({ user: 'foo', password: '' });
    expect(joinUserinfo('foo', '')).toBe('foo:');
    expect(portNumber({ path: '', host: 'a', port: '8080' })).toBe(8080);
    expect(() => requireHost({ scheme: 'http', path: '/' })).toThrow(/host/);
    expect(authorityText('u', 'a', '21')).toBe('//u@a:21');
    expect([...decodeOctets('a%20b')]).toEqual([0x61, 0x20, 0x62]);
    expect(decodeText('Los%20Angeles')).toBe('Los Angeles');
    expect(encodeText('a b/c', (c) => c !== 0x2f && c > 0x20)).toBe('a%20b%2Fc');
    expect(driveLetterAt('/c:/x', 1)).toBe(true);
    expect(typecodeAt('/a;type=i')).toBe(2);
    expect(BUILTIN_RULES.find((r) => r.name === 'ftp')?.defaultPort).toBe(21);
  });
});

describe('profiles', () => {
  it('entry points', () => {
    expect(PROFILES.includes('draft-1997')).toBe(true);
    expect(resolveWithProfile('http://a/b/c/d;p?q', '?y', 'draft-1997', true)).toBe('http://a/b/c/?y');
    expect(parseWithProfile('news:comp.infosystems.www', 'uri', 'url-1993').path).toBe('comp.infosystems.www');
  });
  it('each generation', () => {
    expect(removeDraftDotSegments('/b/c/../../../g', true)).toBe('/../g');
    expect(resolve2003('http://a/b/c/d;p?q', '../../../g', true)).toBe('http://a/../g');
    expect(parse1997('http://a/b/c/d;p?q', 'uri').host).toBe('a');
    expect(check1997Host('www.ics.uci.edu')).toBe(-1);
    expect(check1997Host('a.1b')).toBe(2);
    expect(serialize(target({ scheme: 'http', host: 'a', path: '/' }, { host: 'g', path: '' }, '/x', undefined, 's'))).toBe('http://g/x#s');
    expect(resolve1997('http://a/b/c/d;p?q', '?y')).toBe('http://a/b/c/?y');
    expect(resolve1997('http://a/b/c/d;p?q', 'g?y/../x')).toBe('http://a/b/c/x');
    expect(parse1993('wais://quake.think.com/wais-discussion-archives?lynch', 'uri').query).toBe('lynch');
    expect(resolve1993('http://a/b/c/d', '../g')).toBe('http://a/b/g');
  });
});
