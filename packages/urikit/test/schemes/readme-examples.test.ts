/**
 * The examples of docs/readme/30-schemes-profiles.md, run as written.
 */
import { describe, expect, it } from 'vitest';
import {
  dataScheme, equivalent, fileUriToPath, getScheme, isValid, listSchemes, mailtoScheme, normalize, parse,
  pathToFileUri, registerScheme, resolve, UriError, type SchemeCodec,
} from 'urikit';

describe('docs/readme/30-schemes-profiles.md', () => {
  it('the scheme registry', () => {
    expect(getScheme('HTTP')?.defaultPort).toBe(80);
    expect(getScheme('ftp')?.parse(parse('ftp://foo:@host.com/pub/a.txt;type=i'))).toStrictEqual({ user: 'foo', password: '', host: 'host.com', directories: ['pub'], name: 'a.txt', typecode: 'i' });
    expect(listSchemes().slice(0, 18)).toEqual(['http', 'https', 'ws', 'wss', 'ftp', 'gopher', 'news', 'nntp', 'wais', 'prospero', 'telnet', 'rlogin', 'tn3270', 'file', 'mailto', 'data', 'urn', 'afs']);
    expect(normalize('HTTP://Example.COM:80', { level: 'scheme' })).toBe('http://example.com/');
    expect(normalize('ftp://host:21/a;type=I', { level: 'scheme' })).toBe('ftp://host/a;type=i');
    expect(normalize('file://localhost/etc', { level: 'scheme' })).toBe('file:///etc');
    expect(equivalent('gopher://h/', 'gopher://h:70/1')).toBe(true);
  });
  it('typed views', () => {
    expect(mailtoScheme.parse(parse('mailto:?to=joe@example.com%2C%20bob@example.com&subject=caf%C3%A9'))).toStrictEqual({ to: [], headers: [['to', 'joe@example.com, bob@example.com'], ['subject', 'café']] });
    expect(new TextDecoder().decode(dataScheme.parse(parse('data:;base64,SGVsbG8=')).data)).toBe('Hello');
  });
  it('your own scheme', () => {
    const acme: SchemeCodec<{ tenant: string; id: number }> = {
      name: 'acme-doc', defaultPort: 4040, authority: 'required', emptyPathIsSlash: true,
      validate(ref) { if (!/^\/[0-9]+$/.test(ref.path)) throw new UriError('bad-scheme-specific-part', 0, ref.path); },
      parse(ref) { this.validate(ref); return { tenant: ref.host!, id: Number(ref.path.slice(1)) }; },
      build: (f) => `acme-doc://${f.tenant}/${f.id}`,
      normalize: (ref) => ({ ...ref, path: `/${Number(ref.path.slice(1))}` }),
    };
    registerScheme(acme);
    expect(normalize('ACME-DOC://Corp:4040/0042')).toBe('acme-doc://corp/42');
    expect(equivalent('acme-doc://corp/007', 'acme-doc://corp:4040/7')).toBe(true);
  });
  it('file URIs and local paths', () => {
    expect(fileUriToPath('file:///etc/fstab')).toBe('/etc/fstab');
    expect(fileUriToPath('file://localhost/etc/fstab')).toBe('/etc/fstab');
    expect(fileUriToPath('file:///c:/path/to/file.txt', { windows: true })).toBe('c:\\path\\to\\file.txt');
    expect(fileUriToPath('file://server/share/a.txt', { windows: true })).toBe('\\\\server\\share\\a.txt');
    expect(pathToFileUri('/tmp/a b#1')).toBe('file:///tmp/a%20b%231');
    expect(pathToFileUri('C:\\Program Files\\x', { windows: true })).toBe('file:///C:/Program%20Files/x');
    expect(pathToFileUri('\\\\?\\UNC\\server\\share\\x', { windows: true })).toBe('file://server/share/x');
  });
  it('profiles', () => {
    const base = 'http://a/b/c/d;p?q';
    expect(resolve(base, '../../../g')).toBe('http://a/g');
    expect(resolve(base, '../../../g', { profile: 'draft-2003' })).toBe('http://a/../g');
    expect(resolve(base, 'http:g', { profile: 'draft-2003', strict: false })).toBe('http://a/b/c/g');
    expect(resolve(base, '?y', { profile: 'draft-1997' })).toBe('http://a/b/c/?y');
    expect(resolve(base, 'g?y/../x', { profile: 'draft-1997' })).toBe('http://a/b/c/x');
    expect(isValid('wais://quake.think.com/wais-discussion-archives?lynch', 'uri', { profile: 'url-1993' })).toBe(true);
    expect(isValid('ftp://host:21/a', 'uri', { profile: 'url-1993' })).toBe(false);
    expect(isValid('telnet://host/', 'uri', { profile: 'url-1993' })).toBe(false);
    expect(isValid('prospero://host/a%001%00attr', 'uri', { profile: 'url-1993' })).toBe(true);
    expect(isValid('../g', 'uri-reference', { profile: 'url-1993' })).toBe(true);
  });
});
