/**
 * The cataloguers' page at `/admin/`: a page for the people who mint and
 * keep names, on the same server as the admin API and writing only
 * through it (no second way to write). The page itself holds no data and
 * needs no token; the browser code (`src/web/admin/*.js`, shipped with the
 * package) asks for one, keeps it in the tab's session storage (never in a
 * URL or a cookie) and sends it as `Authorization: Bearer` to the admin
 * API of the same origin.
 *
 * The page is served under a strict Content-Security-Policy: scripts and
 * styles from this origin only, no inline script or style, connections to
 * this origin only, no framing.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { packageRoot } from './package-root.js';

/**
 * The Content-Security-Policy of the page and its files (CSP Level 3):
 * nothing inline, nothing from elsewhere, no plugins, no framing, no
 * `<base>`, forms only to this origin.
 *
 * @example
 * ```ts
 * ADMIN_PAGE_CSP.includes("script-src 'self'"); // true
 * ADMIN_PAGE_CSP.includes('unsafe-inline'); // false
 * ```
 */
export const ADMIN_PAGE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** The files of the browser code, as served: name, media type. */
const FILES: ReadonlyArray<readonly [string, string]> = [
  ['app.js', 'text/javascript; charset=utf-8'],
  ['api.js', 'text/javascript; charset=utf-8'],
  ['dom.js', 'text/javascript; charset=utf-8'],
  ['views.js', 'text/javascript; charset=utf-8'],
  ['name-view.js', 'text/javascript; charset=utf-8'],
  ['name-form.js', 'text/javascript; charset=utf-8'],
  ['merge-patch.js', 'text/javascript; charset=utf-8'],
  ['app.css', 'text/css; charset=utf-8'],
  ['icon.svg', 'image/svg+xml'],
];

/**
 * The page's HTML: the sign-in form and an empty view that the script
 * fills. Without script it says that it needs one.
 *
 * @example
 * ```ts
 * const html = adminPageHtml();
 * html.includes('<script type="module" src="/admin/app.js"></script>'); // true
 * html.includes('<script>'); // false
 * ```
 */
export function adminPageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Names · urikit</title>
<link rel="stylesheet" href="/admin/app.css">
<link rel="icon" href="/admin/icon.svg" type="image/svg+xml">
<script type="module" src="/admin/app.js"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<p class="brand">urikit · <span>names</span></p>
<nav id="nav" aria-label="Sections" hidden>
<ul>
<li><a href="#/names">Names</a></li>
<li><a href="#/new">New name</a></li>
<li><a href="#/mint">Mint</a></li>
<li><a href="#/import">Import</a></li>
<li><a href="#/links">Broken links</a></li>
<li><a href="#/stats">Statistics</a></li>
<li><a href="#/harvests">Harvests</a></li>
</ul>
<p id="who"></p>
<button type="button" id="sign-out">Sign out</button>
</nav>
</header>
<main id="main" tabindex="-1">
<section id="sign-in" aria-labelledby="sign-in-title">
<h1 id="sign-in-title">Sign in</h1>
<p>Paste an admin token (<code>urikit token create --authority &lt;prefix&gt;</code>). It is kept in this tab only, until you sign out or close it.</p>
<form id="sign-in-form">
<label for="token">Token</label>
<input id="token" name="token" type="password" autocomplete="off" spellcheck="false" required autofocus>
<button type="submit">Sign in</button>
</form>
<p id="sign-in-error" class="error" role="alert"></p>
<noscript><p class="error">This page needs JavaScript. Without it, use the admin API (docs/resolver.md).</p></noscript>
</section>
<div id="view" hidden></div>
</main>
<p id="status" class="status" role="status" aria-live="polite"></p>
</body>
</html>
`;
}

/** Reads the browser files from the package's sources (it ships them; they are served as they are). */
function readFiles(): Map<string, { body: string; type: string }> {
  const dir = new URL('src/web/admin/', packageRoot().root);
  return new Map(FILES.map(([name, type]) => [name, { body: readFileSync(new URL(name, dir), 'utf8'), type }]));
}

/**
 * Registers `GET /admin/` (the page) and its files (`/admin/app.js`,
 * `/admin/app.css`, ...) on a fastify app, with {@link ADMIN_PAGE_CSP}.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const app = Fastify();
 * registerAdminPage(app);
 * const page = await app.inject({ url: '/admin/' });
 * [page.statusCode, page.headers['content-security-policy'] === ADMIN_PAGE_CSP]; // [200, true]
 * (await app.inject({ url: '/admin/app.js' })).headers['content-type']; // 'text/javascript; charset=utf-8'
 * await app.close();
 * ```
 */
export function registerAdminPage(app: FastifyInstance): void {
  const files = readFiles();
  const html = adminPageHtml();
  const headers = { 'content-security-policy': ADMIN_PAGE_CSP, 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY', 'cache-control': 'no-cache' };
  const summary = 'The cataloguers\' page (HTML; it signs in with a token and works through this API)';
  app.get('/admin/', { schema: { summary, tags: ['page'], security: [], response: { 200: { description: 'the page', content: { 'text/html': { schema: { type: 'string' } } } } } } }, (_request, reply) => reply.headers(headers).type('text/html; charset=utf-8').send(html));
  for (const [name, file] of files) {
    app.get(`/admin/${name}`, { schema: { summary: `A file of the cataloguers' page (${name})`, tags: ['page'], security: [], response: { 200: { description: name, content: { [file.type.split(';')[0]!]: { schema: { type: 'string' } } } } } } }, (_request, reply) => reply.headers(headers).type(file.type).send(file.body));
  }
}
