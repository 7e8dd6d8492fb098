/**
 * The HTML document around every page of the web page and the gateway:
 * one stylesheet, no script, a visible focus ring for keyboard users
 * (WCAG 2.2 §2.4.7 Focus Visible) and a skip link.
 */
import { escapeHtml } from '../formats/html.js';

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#1a1a1a;background:#fff}
a{color:#0645ad}
a:focus-visible,input:focus-visible,button:focus-visible,summary:focus-visible{outline:3px solid #e0a800;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.25rem}
label{display:block;font-weight:600;margin-top:.75rem}
input[type=text]{width:100%;box-sizing:border-box;font:15px monospace;padding:.4rem}
button{margin-top:.75rem;font-size:1rem;padding:.4rem 1rem}
.diagram{font:17px monospace;padding:.5rem;background:#f6f6f6;overflow-wrap:anywhere}
.c-scheme{background:#ffd6d6}.c-userinfo{background:#ffb347;outline:2px dashed #b35c00}.c-host{background:#c8f7c5}
.c-port{background:#fff3b0}.c-path{background:#cfe3ff}.c-query{background:#e8d4ff}.c-fragment{background:#d4f4f4}.c-delim{color:#777}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left;vertical-align:top}
.good{color:#0a6b0a}.bad{color:#a00000}.warn{color:#8a5a00}.note{color:#555;font-size:.9em}
.error-at{background:#a00000;color:#fff}
.apart{border:2px dashed #b35c00;padding:.5rem;margin:.5rem 0}
pre.meta{white-space:pre-wrap;background:#f6f6f6;padding:.4rem;margin:.2rem 0}
`;

/**
 * Wraps a body fragment in a complete HTML document; `title` is escaped.
 *
 * @example
 * ```ts
 * htmlDocument('a <b>', '<p>hi</p>').includes('<title>a &lt;b&gt;</title>') // true
 * ```
 */
export function htmlDocument(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<main id="main">
${body}
</main>
</body>
</html>
`;
}
