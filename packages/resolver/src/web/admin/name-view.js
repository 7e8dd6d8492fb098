// @ts-check
/**
 * The cataloguers' page: one name. Its record, how it resolves, what
 * can be done to it (edit, move, withdraw with a reason, reinstate), its
 * history, its resolution counts and the health of its locations, each
 * read from and written through the admin API.
 */
import { api, namePath } from './api.js';
import { errorBox, field, h, nameLink, say, show, table, when } from './dom.js';

/**
 * A definition list of the record's fields.
 * @param {any} r
 */
function recordList(r) {
  /** @type {Array<[string, import('./dom.js').Child]>} */
  const rows = [['Status', h('span', { class: `badge ${r.status}` }, r.status)]];
  if (r.movedTo !== undefined) rows.push([r.permanent ? 'Moved permanently to' : 'Moved for now to', r.movedTo.startsWith('urn:') ? nameLink(r.movedTo) : r.movedTo]);
  if (r.successor !== undefined) rows.push(['Successor', r.successor]);
  if (r.reason !== undefined) rows.push(['Reason', r.reason]);
  rows.push(['Locations', r.locations.length === 0 ? 'none' : h('ol', {}, ...r.locations.map((/** @type {any} */ l) => h('li', {}, h('a', { href: l.url, rel: 'noreferrer' }, l.url), l.preservation ? ' (preservation copy)' : '')))]);
  if (r.metadata !== undefined) rows.push(['Metadata', h('pre', {}, JSON.stringify(r.metadata, null, 2))]);
  rows.push(['Version', String(r.version)], ['Created', when(r.created)], ['Last change', when(r.updated)]);
  return h('dl', { class: 'record' }, ...rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
}

/**
 * A small form that posts one change and reloads the page.
 * @param {string} title
 * @param {HTMLElement[]} fields
 * @param {string} button
 * @param {() => Promise<void>} act
 * @param {string} [cls]
 */
function actionForm(title, fields, button, act, cls = '') {
  const out = h('div', {});
  const form = h('form', { class: `action ${cls}` }, h('h3', {}, title), ...fields, h('button', { type: 'submit' }, button), out);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    out.replaceChildren();
    try { await act(); } catch (err) { out.append(errorBox(err)); }
  });
  return form;
}

/**
 * The actions a name's status allows (store/lifecycle.ts decides; a refusal shows as its 409).
 * @param {any} r
 */
function actions(r) {
  const urn = r.urn;
  const done = async (/** @type {string} */ what) => { say(what); await nameView(urn); };
  // Every state opens in the form with all its fields (a PATCH of what changes, name-form.js).
  const edit = h('p', {}, h('a', { href: `#/edit/${encodeURIComponent(urn)}`, class: 'button' }, 'Edit locations and metadata'));
  if (r.status === 'withdrawn') {
    const why = /** @type {HTMLTextAreaElement} */ (h('textarea', { name: 'reason', rows: 2 }));
    return [edit, actionForm('Reinstate', [field('Why', why)], 'Reinstate', async () => {
      await api('POST', namePath('reinstate', urn), { json: why.value.trim() === '' ? {} : { reason: why.value.trim() } });
      await done(`${urn} reinstated.`);
    })];
  }
  const reason = /** @type {HTMLTextAreaElement} */ (h('textarea', { name: 'reason', rows: 2, required: true }));
  const to = /** @type {HTMLInputElement} */ (h('input', { name: 'to', type: 'text', required: true, spellcheck: 'false', autocomplete: 'off' }));
  const permanent = /** @type {HTMLInputElement} */ (h('input', { name: 'permanent', type: 'checkbox', checked: true, id: 'move-permanent' }));
  const moveWhy = /** @type {HTMLInputElement} */ (h('input', { name: 'reason', type: 'text' }));
  return [
    edit,
    actionForm('Move', [field('To (a URN or URL)', to), h('div', { class: 'field check' }, permanent, h('label', { for: 'move-permanent' }, 'Permanently (301)')), field('Why (optional)', moveWhy)], 'Move', async () => {
      await api('POST', namePath('move', urn), { json: { to: to.value.trim(), permanent: permanent.checked, ...(moveWhy.value.trim() !== '' ? { reason: moveWhy.value.trim() } : {}) } });
      await done(`${urn} moved to ${to.value.trim()}.`);
    }),
    actionForm('Withdraw', [field('Reason (shown to everyone who asks for the name)', reason, 'the name stays assigned: it answers 410 Gone with this reason')], 'Withdraw', async () => {
      await api('POST', namePath('withdraw', urn), { json: { reason: reason.value.trim() } });
      await done(`${urn} withdrawn.`);
    }, 'danger'),
  ];
}

/**
 * A section that fills itself from the API (a failure shows in it, not over the page).
 * @param {string} title
 * @param {() => Promise<import('./dom.js').Child[]>} load
 * @param {string} id
 */
function section(title, load, id) {
  const body = h('div', {}, h('p', { class: 'loading' }, 'Loading…'));
  void load().then((c) => body.replaceChildren(...c.filter((x) => x !== null && x !== undefined && x !== false).map((x) => (typeof x === 'string' || typeof x === 'number' ? String(x) : /** @type {Node} */ (x)))), (e) => body.replaceChildren(errorBox(e)));
  return h('section', { id, 'aria-labelledby': `${id}-title` }, h('h2', { id: `${id}-title` }, title), body);
}

/**
 * A name's page.
 * @param {string} urn
 */
export async function nameView(urn) {
  let r;
  try {
    r = (await api('GET', namePath('names', urn))).data;
  } catch (e) {
    show(urn, errorBox(e), h('p', {}, h('a', { href: '#/new' }, 'Register a name')));
    return;
  }
  const resolve = h('p', { class: 'resolve' },
    h('a', { href: `/${r.urn}`, id: 'resolve-link' }, 'Resolve it'), ' · ',
    h('a', { href: `/${r.urn}?info` }, 'Its record as the public sees it'), ' · ',
    h('a', { href: `/${r.urn}?history` }, 'Its public history'));
  show(r.urn,
    recordList(r), resolve,
    h('section', { id: 'actions', 'aria-label': 'Change it' }, h('h2', {}, 'Change it'), ...actions(r)),
    section('History', async () => {
      const { data } = await api('GET', namePath('history', r.key));
      return [table('Every version, oldest first', ['Version', 'When', 'Change', 'Status', 'By (token)', 'Reason'],
        data.history.map((/** @type {any} */ e) => [String(e.version), when(e.at), e.op, e.record.status, e.actor ?? '', e.record.reason ?? '']))];
    }, 'history'),
    section('Resolutions', async () => {
      const q = new URLSearchParams({ name: r.key, by: 'day' });
      const { data } = await api('GET', `/admin/stats?${q}`);
      return [h('p', {}, `${data.totals.human} by people and programs, ${data.totals.robot} by robots.`),
        table('By day', ['Day', 'People and programs', 'Robots'], data.groups.map((/** @type {any} */ g) => [g.group, String(g.human), String(g.robot)]))];
    }, 'resolutions'),
    section('Link health', async () => {
      const q = new URLSearchParams({ prefix: r.key, limit: '100' });
      const { data } = await api('GET', `/admin/links?${q}`);
      const mine = data.lines.filter((/** @type {any} */ l) => l.urn === r.key);
      return [table('Its locations as the link checker found them', ['Location', 'State', 'HTTP', 'Failures in a row', 'Last check', 'Error'],
        mine.map((/** @type {any} */ l) => [l.url, h('span', { class: `badge ${l.state}` }, l.broken ? 'broken' : l.state), l.status !== undefined ? String(l.status) : '', String(l.failures), when(l.lastCheck), l.error ?? '']))];
    }, 'link-health'));
}
