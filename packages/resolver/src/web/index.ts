// The web page at `/` of `urikit serve` and `urikit gateway` (issue 8).
export { registerWebPage } from './register.js';
export type { WebPageOptions } from './register.js';
export { renderPage } from './page.js';
export type { PageInput } from './page.js';
export { escapeHtml } from './escape.js';
