// The web page: components coloured, userinfo apart (2003 draft §7.5),
// validity with the error position, lint, normalized form, comparison,
// URN resolution with clickable locations; hostile input stays text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import { escapeHtml, registerSecurityHeaders, registerWebPage, renderPage, type ResolveResult } from '@urikit/resolver';
import { attributeNames, documentText, elements, links } from '../gateway/html.js';

const hostile = JSON.parse(readFileSync(new URL('./hostile-inputs.json', import.meta.url), 'utf8')) as { cases: string[] };

/** The value attribute of the input with `id`, read back by an HTML parser. */
function inputValue(html: string, id: string): string | undefined {
  const m = html.match(new RegExp(`<input[^>]*id="${id}"[^>]*value="([^"]*)"`));
  return m ? m[1] : undefined;
}

describe('escapeHtml (HTML §13.1.2)', () => {
  it.each([
    ['<a href="x">', '&lt;a href=&quot;x&quot;&gt;'],
    ["it's & more", 'it&#39;s &amp; more'],
    ['plain', 'plain'],
    ['\u0000\u0007', '&#xFFFD;&#xFFFD;'],
  ])('%j', (input, out) => {
    expect(escapeHtml(input)).toBe(out);
  });
});

describe('the page for a URI (2003 draft §3, §6, §7)', () => {
  it('lays out the components, each in its colour', async () => {
    const html = await renderPage({ uri: 'foo://user@example.com:8042/over/there?name=ferret#nose', mode: 'serve' });
    for (const [cls, value] of [['scheme', 'foo'], ['userinfo', 'user'], ['host', 'example.com'], ['port', '8042'], ['path', '/over/there'], ['query', 'name=ferret'], ['fragment', 'nose']]) {
      expect(html).toContain(`<span class="c-${cls}" title="${cls}">${value}</span>`);
    }
    expect(documentText(html)).toContain('Valid URI');
  });

  it('shows the userinfo apart and names the real host (2003 draft §7.5 example)', async () => {
    const html = await renderPage({ uri: 'http://www.example.com&story=breaking_news@10.0.0.1/top_story.htm', mode: 'serve' });
    const text = documentText(html);
    expect(text).toContain('Userinfo, shown apart (2003 draft §7.5): www.example.com&story=breaking_news');
    expect(text).toContain('The host this URI really points to is 10.0.0.1');
    expect(html).toContain('class="lint"');
  });

  it('marks the position of an error', async () => {
    const html = await renderPage({ uri: 'http://a b/', mode: 'serve' });
    expect(documentText(html)).toContain('Invalid');
    expect(html).toContain('<span class="error-at" title="offset 8"> </span>');
  });

  it('reads an IRI when the input has non-ASCII characters (RFC 3987)', async () => {
    const html = await renderPage({ uri: 'http://bücher.example/ü', mode: 'serve' });
    expect(documentText(html)).toContain('Valid IRI (RFC 3987)');
    expect(html).toContain('<span class="c-host" title="host">bücher.example</span>');
  });

  it('tells undefined and empty components apart', async () => {
    const html = await renderPage({ uri: 'http://a?', mode: 'serve' });
    expect(html).toMatch(/>query<\/span><\/th><td><span class="note">\(empty\)<\/span>/);
    expect(html).toMatch(/>fragment<\/span><\/th><td><span class="note">\(undefined\)<\/span>/);
  });

  it('shows the normalized form (2003 draft §6.2.2)', async () => {
    const html = await renderPage({ uri: 'HTTP://www.Example.com/%7Euser/a/./b/../c', mode: 'serve' });
    expect(html).toContain('<code class="normalized">http://www.example.com/~user/a/c</code>');
  });

  it('compares two URIs on the ladder of §6.2', async () => {
    const html = await renderPage({ uri: 'http://example.com/', compare: 'http://example.com:80/', mode: 'serve' });
    const text = documentText(html);
    expect(text).toContain('simpledifferent');
    expect(text).toContain('schemeequivalent');
  });

  it('is a form a keyboard can use: labelled fields, GET, a submit button', async () => {
    const html = await renderPage({ mode: 'gateway' });
    expect(html).toContain('<form method="get" action="/"');
    expect(html).toContain('<label for="uri">');
    expect(html).toContain('<label for="compare">');
    expect(elements(html, 'button')).toBe(1);
    expect(html).toContain(':focus-visible');
    expect(elements(html, 'script')).toBe(0);
  });
});

describe('the page for a URN: its parts and its resolution (1995 draft §3)', () => {
  const result: ResolveResult = {
    status: 200,
    via: ['urn:example:a', 'urn:example:b'],
    locations: [
      { url: 'http://127.0.0.1:1/doc.html', meta: 'The <first> copy' },
      { url: 'javascript:alert(1)' },
    ],
  };
  it('lists the locations as links, the redirect chain too, dangerous schemes as text', async () => {
    const asked: string[] = [];
    const html = await renderPage({ uri: 'urn:example:a', mode: 'serve', resolveUrn: async (u) => { asked.push(u); return result; } });
    expect(asked).toEqual(['urn:example:a']);
    const hrefs = links(html).map((l) => l.href);
    expect(hrefs).toContain('http://127.0.0.1:1/doc.html');
    expect(hrefs).toContain('/?uri=urn%3Aexample%3Ab');
    expect(hrefs.some((h) => h.startsWith('javascript:'))).toBe(false);
    expect(documentText(html)).toContain('The <first> copy');
  });

  it('says why a resolution failed', async () => {
    const html = await renderPage({ uri: 'urn:example:a', mode: 'gateway', resolveUrn: async () => { throw new Error('no resolver for this URN could be reached'); } });
    expect(documentText(html)).toContain('Could not resolve: no resolver for this URN could be reached');
  });

  it('shows an invalid URN with the error and does not send it to a resolver', async () => {
    let called = false;
    const html = await renderPage({ uri: 'urn:a:b', mode: 'serve', resolveUrn: async () => { called = true; return result; } });
    expect(documentText(html)).toContain('Not a valid URN');
    expect(called).toBe(false);
  });
});

describe('hostile input is shown as text, never as markup', () => {
  it.each(hostile.cases)('%j', async (input) => {
    const resolve = async (): Promise<ResolveResult> => ({ status: 200, via: [input], locations: [{ url: input, meta: input }] });
    const html = await renderPage({ uri: input, compare: input, mode: 'serve', resolveUrn: resolve });
    expect(elements(html, 'script')).toBe(0);
    expect(elements(html, 'img') + elements(html, 'svg') + elements(html, 'iframe')).toBe(0);
    expect([...attributeNames(html)].filter((n) => n.startsWith('on'))).toEqual([]);
    expect(links(html).some((l) => /^\s*(javascript|data|vbscript):/i.test(l.href))).toBe(false);
    // The field gives back exactly what was typed.
    expect(inputValue(html, 'uri')).toBe(escapeHtml(input));
  });

  it('refuses input beyond its limit without analysing it', async () => {
    const html = await renderPage({ uri: `http://a/${'x'.repeat(10_000)}`, mode: 'serve' });
    expect(documentText(html)).toContain('longer than 8192 characters');
  });
});

describe('registerWebPage mounts the page at / of a Fastify app', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    registerSecurityHeaders(app);
    registerWebPage(app, { mode: 'serve' });
    await app.ready();
  });
  afterAll(async () => { await app.close(); });

  it('answers GET /?uri= with HTML and a strict Content-Security-Policy', async () => {
    const res = await app.inject({ url: '/?uri=' + encodeURIComponent('http://a/b?c') });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(String(res.headers['content-security-policy'])).toContain("default-src 'none'");
    expect(res.body).toContain('<span class="c-host" title="host">a</span>');
  });

  it('says a URN cannot be resolved when no resolver function was given', async () => {
    const res = await app.inject({ url: '/?uri=urn:example:a' });
    expect(documentText(res.body)).toContain('started without a way to resolve URNs');
  });
});
