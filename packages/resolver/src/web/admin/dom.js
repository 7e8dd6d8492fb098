// @ts-check
/**
 * The cataloguers' page: building the DOM. Text always goes in as text
 * (never parsed as HTML), so that nothing a record holds can run or
 * restyle the page.
 */

/**
 * @typedef {string | number | Node | null | undefined | false} Child
 * @typedef {Record<string, string | number | boolean | undefined | null | ((e: Event) => void)>} Attrs
 */

/**
 * An element with attributes (`on<event>` ones are listeners) and children.
 * @param {string} tag
 * @param {Attrs} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(typeof c === 'string' || typeof c === 'number' ? String(c) : c);
  }
  return el;
}

let ids = 0;

/**
 * A labelled form field: the label points at the control (WCAG 1.3.1),
 * and a hint, when given, is its description.
 * @param {string} label
 * @param {HTMLElement} control
 * @param {string} [hint]
 */
export function field(label, control, hint) {
  if (!control.id) control.id = `f${++ids}`;
  const parts = [h('label', { for: control.id }, label), control];
  if (hint !== undefined) {
    const hintId = `${control.id}-hint`;
    control.setAttribute('aria-describedby', hintId);
    parts.push(h('p', { class: 'hint', id: hintId }, hint));
  }
  return h('div', { class: 'field' }, ...parts);
}

/**
 * A select with options [value, text].
 * @param {string} name
 * @param {Array<[string, string]>} options
 * @param {string} [value]
 */
export function select(name, options, value) {
  return /** @type {HTMLSelectElement} */ (h('select', { name }, ...options.map(([v, t]) => h('option', { value: v, selected: v === (value ?? '') }, t))));
}

/**
 * A table with a caption, a header row and rows of cells.
 * @param {string} caption
 * @param {string[]} head
 * @param {Child[][]} rows
 */
export function table(caption, head, rows) {
  if (rows.length === 0) return h('p', { class: 'empty' }, `${caption}: none.`);
  return h('div', { class: 'scroll' }, h('table', {},
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, ...head.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, ...rows.map((r) => h('tr', {}, ...r.map((c) => h('td', {}, c)))))));
}

/**
 * Replaces the view with a page: its heading gets the focus, so that a
 * keyboard or screen-reader user starts there.
 * @param {string} title
 * @param {...(Child | Child[])} content
 */
export function show(title, ...content) {
  const view = /** @type {HTMLElement} */ (document.getElementById('view'));
  const heading = h('h1', { tabindex: -1, id: 'view-title' }, title);
  view.replaceChildren(heading, ...content.flat().filter((c) => c !== null && c !== undefined && c !== false).map((c) => (typeof c === 'string' || typeof c === 'number' ? String(c) : /** @type {Node} */ (c))));
  view.hidden = false;
  document.title = `${title} · urikit`;
  heading.focus();
}

/**
 * Says something in the live region (screen readers announce it).
 * @param {string} text
 */
export function say(text) {
  const status = /** @type {HTMLElement} */ (document.getElementById('status'));
  status.textContent = text;
}

/**
 * An error box for a failed request: the problem's title and detail,
 * announced at once.
 * @param {unknown} e
 */
export function errorBox(e) {
  const p = /** @type {{ status?: number, problem?: { title?: string, detail?: string, pointer?: string } }} */ (e);
  const problem = p.problem ?? {};
  const text = problem.title !== undefined ? `${problem.title}${problem.detail ? `: ${problem.detail}` : ''}${problem.pointer ? ` (${problem.pointer})` : ''}` : String(e instanceof Error ? e.message : e);
  return h('p', { class: 'error', role: 'alert' }, text);
}

/**
 * A date as people read it here: ISO 8601, to the second, UTC.
 * @param {string | undefined} iso
 */
export function when(iso) {
  return iso === undefined ? '' : h('time', { datetime: iso }, iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'));
}

/**
 * The link to a name's page in this app.
 * @param {string} urn
 */
export function nameLink(urn) {
  return h('a', { href: `#/name/${encodeURIComponent(urn)}` }, urn);
}
