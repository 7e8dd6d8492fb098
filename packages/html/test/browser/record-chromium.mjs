#!/usr/bin/env node
/**
 * Records headless Chromium's answer for every document of
 * chromium-cases.json: the document's base URL (`document.baseURI`) and,
 * for each URL-valued attribute of @urikit/html's tables (the same
 * elements and attributes, in tree order, `<template>` contents in place,
 * an `<iframe srcdoc>` document right after its iframe), the URL the
 * browser makes of it: the element's own reflecting IDL attribute where it
 * has one (`a.href`, `img.src`, `form.action`, `button.formAction`...),
 * else `new URL(value, baseURI)` (SVG `href` and `xlink:href`, template
 * contents, which resolve against the document once the template is used);
 * null where the browser's URL parser fails.
 *
 * Each document is served at its own `documentUri` through Playwright's
 * request interception (no network), so `document.URL` is that URI.
 *
 *   npm run build && node packages/html/test/browser/record-chromium.mjs [path to chromium]
 *
 * Run once; the answers are committed in chromium-cases.json with the
 * browser's version and the date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { URL_ATTRIBUTES, SVG_URL_ATTRIBUTES } from '@urikit/html';

const file = new URL('./chromium-cases.json', import.meta.url);
const data = JSON.parse(readFileSync(file, 'utf8'));
const executablePath = process.argv[2] ?? '/usr/bin/chromium';
const tables = {
  html: Object.fromEntries([...URL_ATTRIBUTES].map(([el, m]) => [el, Object.fromEntries(m)])),
  svg: Object.fromEntries([...SVG_URL_ATTRIBUTES].map(([el, m]) => [el, Object.fromEntries(m)])),
};

/** Runs in the page: the browser's reading of the document (see the header). */
function readPage(tables) {
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
        if (el.namespaceURI === SVG && tables.svg[el.localName]) {
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

const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
try {
  const version = browser.version();
  for (const c of data.cases) {
    const page = await browser.newPage();
    await page.route('**/*', (route) => {
      if (route.request().url() === c.documentUri) return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: c.html });
      return route.fulfill({ status: 404, body: '' });
    });
    await page.goto(c.documentUri, { waitUntil: 'load' });
    const answer = await page.evaluate(readPage, tables);
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
