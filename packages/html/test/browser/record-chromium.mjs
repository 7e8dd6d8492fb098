#!/usr/bin/env node
/**
 * Records headless Chromium's answer for every document of
 * chromium-cases.json: the document's base URL (`document.baseURI`) and,
 * for each URL-valued attribute of @urikit/html's HTML table and the
 * `href` of every SVG element the browser reads one on (its `href` IDL
 * attribute is an SVGAnimatedString, SVG 2 SVGURIReference: the browser,
 * not urikit's SVG table, says which), in tree order (`<template>`
 * contents in place, an `<iframe srcdoc>` document right after its
 * iframe), the URL the browser makes of it: the element's own reflecting
 * IDL attribute where it has one (`a.href`, `img.src`, `form.action`,
 * `button.formAction`...; `form.action` for a form without the attribute
 * too), else `new URL(value, baseURI)` (SVG `href` and
 * `xlink:href`, template contents, which resolve against the document once
 * the template is used; `new URL` parses as UTF-8, so a document in a
 * legacy encoding puts its non-ASCII queries in reflected attributes
 * only); null where the browser's URL parser fails.
 *
 * A `<meta http-equiv>` is the browser's to read: the navigation its
 * refresh starts (HTML "shared declarative refresh steps") is caught on
 * its way out, answered 204 No Content (so the document stays), and its
 * URL is the link of the first `<meta http-equiv>` of the document (the
 * browser runs one refresh; it must not be to the document URL with a
 * fragment, which requests nothing); no navigation within REFRESH_WAIT_MS
 * of the load, no link.
 *
 * Each document is served at its own `documentUri` through Playwright's
 * request interception (no network), so `document.URL` is that URI, as
 * UTF-8 unless the case says otherwise: its `bytes` is the encoding its
 * text is served in (encoded here by the platform's TextDecoder inverted,
 * not by urikit), its `context` the Content-Type (`headers`) or the
 * charset (`encoding`) sent with it, which urikit is given too.
 *
 *   npm run build && node packages/html/test/browser/record-chromium.mjs [path to chromium]
 *
 * Run once; the answers are committed in chromium-cases.json with the
 * browser's version and the date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { URL_ATTRIBUTES } from '@urikit/html';

const file = new URL('./chromium-cases.json', import.meta.url);
const data = JSON.parse(readFileSync(file, 'utf8'));
const executablePath = process.argv[2] ?? '/usr/bin/chromium';
const tables = {
  html: Object.fromEntries([...URL_ATTRIBUTES].map(([el, m]) => [el, Object.fromEntries(m)])),
};

/** Runs in the page: the browser's reading of the document (see the header). */
function readPage([tables, REFRESH]) {
  const HTML = 'http://www.w3.org/1999/xhtml';
  const SVG = 'http://www.w3.org/2000/svg';
  const XLINK = 'http://www.w3.org/1999/xlink';
  const IDL = { href: 'href', src: 'src', action: 'action', formaction: 'formAction', cite: 'cite', poster: 'poster', data: 'data', longdesc: 'longDesc', codebase: 'codeBase', background: 'background', manifest: 'manifest', icon: 'icon', usemap: 'useMap' };
  const resolve = (value, base) => {
    try {
      return new URL(value, base).href;
    } catch {
      return null;
    }
  };
  const readDocument = (doc, inSrcdoc) => {
    const links = [];
    const visit = (parent, inTemplate) => {
      for (const el of parent.children) {
        const flags = [];
        if (el.namespaceURI === SVG) flags.push('svg');
        if (inTemplate) flags.push('template');
        if (inSrcdoc) flags.push('srcdoc');
        const push = (attr, href) => links.push([el.localName, attr, href, ...flags]);
        if (el.namespaceURI === SVG && el.href instanceof SVGAnimatedString) {
          const href = el.getAttribute('href');
          const xlink = el.getAttributeNS(XLINK, 'href');
          if (href !== null) push('href', resolve(href.trim(), doc.baseURI));
          else if (xlink !== null) push('xlink:href', resolve(xlink.trim(), doc.baseURI));
        } else if (el.namespaceURI === HTML && el.localName !== 'base' && tables.html[el.localName]) {
          for (const attr of el.getAttributeNames()) {
            const kind = tables.html[el.localName][attr];
            if (kind === undefined) continue;
            const value = el.getAttribute(attr);
            if (kind === 'urls') {
              for (const part of value.split(/[ \t\n\f\r]+/)) if (part !== '') push(attr, resolve(part, doc.baseURI));
            } else if (kind === 'url') {
              const prop = IDL[attr];
              const own = !inTemplate && prop !== undefined && typeof el[prop] === 'string';
              push(attr, own ? el[prop] : resolve(value, doc.baseURI));
            }
          }
        }
        // A form without action submits to its action IDL attribute's URL (HTML: the document's URL).
        if (el.namespaceURI === HTML && el.localName === 'form' && !el.hasAttribute('action') && !inTemplate) push('action', el.action);
        if (el.namespaceURI === HTML && el.localName === 'meta' && el.hasAttribute('http-equiv') && !inTemplate && !inSrcdoc) push('content', REFRESH);
        if (el.namespaceURI === HTML && el.localName === 'iframe' && el.hasAttribute('srcdoc') && el.contentDocument) {
          links.push(...readDocument(el.contentDocument, true).links);
        }
        if (el.namespaceURI === HTML && el.localName === 'template') visit(el.content, true);
        else visit(el, inTemplate);
      }
    };
    visit(doc, false);
    return { base: doc.baseURI, url: doc.URL, links };
  };
  return readDocument(document, false);
}

/** The bytes of `text` in `encoding` (a label), from the platform's decoder of that encoding; a character it cannot hold throws. */
function encode(text, encoding) {
  const decoded = new TextDecoder(encoding).decode(Uint8Array.from({ length: 256 }, (_, i) => i));
  const byteOf = new Map([...decoded].map((c, i) => [c, i]));
  return Buffer.from([...text].map((c) => {
    const b = byteOf.get(c);
    if (b === undefined) throw new Error(`${JSON.stringify(c)} is not in ${encoding}`);
    return b;
  }));
}

/** The Content-Type and body a case's document is served with. */
function response(c) {
  const headers = c.context?.headers ?? {};
  const type = Object.entries(headers).find(([n]) => n.toLowerCase() === 'content-type')?.[1];
  const contentType = type ?? `text/html; charset=${c.context?.encoding ?? 'utf-8'}`;
  return { contentType, body: c.bytes === undefined ? c.html : encode(c.html, c.bytes) };
}

/** The stand-in for the URL of a refresh in readPage's answer, until the navigation shows it. */
const REFRESH = '(refresh)';
/** How long after the load a refresh is waited for (the documents' refreshes are due at once). */
const REFRESH_WAIT_MS = 1500;

const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
try {
  const version = browser.version();
  for (const c of data.cases) {
    const page = await browser.newPage();
    let served = false;
    let refreshTo;
    let refreshed;
    const refresh = new Promise((r) => (refreshed = r));
    await page.route('**/*', (route) => {
      const request = route.request();
      if (!served && request.url() === c.documentUri.replace(/#.*/s, '')) {
        served = true;
        return route.fulfill({ status: 200, ...response(c) });
      }
      if (served && request.isNavigationRequest() && request.frame() === page.mainFrame()) {
        refreshTo ??= request.url();
        refreshed();
        return route.fulfill({ status: 204, body: '' });
      }
      return route.fulfill({ status: 404, body: '' });
    });
    await page.goto(c.documentUri, { waitUntil: 'load' });
    const answer = await page.evaluate(readPage, [tables, REFRESH]);
    if (answer.links.some((l) => l[2] === REFRESH)) await Promise.race([refresh, new Promise((r) => setTimeout(r, REFRESH_WAIT_MS))]);
    let first = true;
    answer.links = answer.links.flatMap((l) => {
      if (l[2] !== REFRESH) return [l];
      const link = first && refreshTo !== undefined ? [[l[0], l[1], refreshTo, ...l.slice(3)]] : [];
      first = false;
      return link;
    });
    c.chromium = { base: answer.base, links: answer.links };
    await page.close();
  }
  data.recorded = {
    browser: `Chromium ${version} (headless, ${executablePath})`,
    with: 'playwright-core, packages/html/test/browser/record-chromium.mjs',
    date: new Date().toISOString().slice(0, 10),
  };
} finally {
  await browser.close();
}
writeFileSync(file, JSON.stringify(data, null, 1) + '\n');
console.log(`${data.cases.length} documents recorded with ${data.recorded.browser}`);
