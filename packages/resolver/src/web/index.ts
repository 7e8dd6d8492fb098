// The web page at `/` of `urikit serve` and `urikit gateway` (DESIGN.md, "The resolver service").
export { registerWebPage } from './register.js';
export type { WebPageOptions } from './register.js';
export { renderPage } from './page.js';
export type { PageInput } from './page.js';
export { escapeHtml } from '../formats/html.js';
export { SECURITY_HEADERS, registerSecurityHeaders } from './headers.js';
