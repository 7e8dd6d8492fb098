// @ts-check
/**
 * The cataloguers' page: the views other than a name's own page. Each
 * reads and writes through the admin API only.
 */
import { api } from './api.js';
import { errorBox, field, h, nameLink, say, select, show, table, when } from './dom.js';

const STATUSES = ['active', 'moved', 'withdrawn', 'reserved'];

/**
 * A form whose submit moves to `#/<view>?<its fields>`: the view's state is in the hash (never the token).
 * @param {string} view
 * @param {HTMLElement[]} fields
 * @param {string} button
 */
function queryForm(view, fields, button) {
  const form = h('form', { class: 'query', role: 'search' }, ...fields, h('button', { type: 'submit' }, button));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = new URLSearchParams();
    for (const [k, v] of new FormData(/** @type {HTMLFormElement} */ (form))) if (typeof v === 'string' && v !== '') q.set(k, v);
    location.hash = `#/${view}?${q}`;
  });
  return form;
}

/**
 * Fetches `path` with the token and offers it as a file to save (a plain link could not carry the token).
 * @param {string} text
 * @param {string} path
 * @param {string} filename
 */
function downloadButton(text, path, filename) {
  return h('button', { type: 'button', class: 'secondary', onclick: async () => {
    try {
      const { data } = await api('GET', path);
      const a = h('a', { href: URL.createObjectURL(new Blob([typeof data === 'string' ? data : JSON.stringify(data)], { type: 'text/csv' })), download: filename });
      a.click();
      say(`${filename} saved.`);
    } catch (e) { say(String(e)); }
  } }, text);
}

/** A name's link health as the admin API gives it: its locations' worst state. */
const LINK_HEALTH = /** @type {Array<[string, string]>} */ ([['', 'any'], ['healthy', 'healthy: every location answered'], ['failing', 'failing: a location fails'], ['unchecked', 'unchecked: a location never checked']]);

/**
 * The names under a prefix, by status and link health, a page at a time.
 * @param {string} authority
 * @param {URLSearchParams} params
 */
export async function listView(authority, params) {
  const prefix = params.get('prefix') ?? (authority === '' ? '' : `${authority}:`);
  const status = params.get('status') ?? '';
  const links = params.get('links') ?? '';
  const form = queryForm('names', [
    field('Prefix', h('input', { name: 'prefix', type: 'text', value: prefix, spellcheck: 'false', autocomplete: 'off' }), 'names that start with this'),
    field('Status', select('status', [['', 'any'], ...STATUSES.map((s) => /** @type {[string, string]} */ ([s, s]))], status)),
    field('Link health', select('links', LINK_HEALTH, links), 'as the link checker last found the locations'),
  ], 'Search');
  const q = new URLSearchParams({ limit: '50' });
  if (prefix !== '') q.set('prefix', prefix);
  if (status !== '') q.set('status', status);
  if (links !== '') q.set('links', links);
  const after = params.get('after');
  if (after !== null) q.set('after', after);
  let result;
  try {
    const { data } = await api('GET', `/admin/names?${q}`);
    const rows = data.items.map((/** @type {any} */ r) => [nameLink(r.urn), h('span', { class: `badge ${r.status}` }, r.status), String(r.locations.length),
      r.links !== undefined ? h('span', { class: `badge ${r.links}` }, r.links) : '', when(r.updated)]);
    const next = data.next !== undefined ? h('p', {}, h('a', { href: `#/names?${new URLSearchParams({ ...(prefix ? { prefix } : {}), ...(status ? { status } : {}), ...(links ? { links } : {}), after: data.next })}` },
      // a search by link health reads a bounded number of names per page: it may find none in them and go on
      data.items.length === 0 ? `None among the names read up to ${data.next}: search on` : 'Next page')) : null;
    const caption = `Names under ${data.prefix || 'every authority'}${status ? `, ${status}` : ''}${links ? `, links ${links}` : ''}`;
    result = [table(caption, ['Name', 'Status', 'Locations', 'Link health', 'Last change'], rows), next];
  } catch (e) { result = [errorBox(e)]; }
  show('Names', form, ...result);
}

/** @param {string} s */
const intOrUndefined = (s) => (s.trim() === '' ? undefined : Number(s));

/**
 * Mint the next free name under a prefix (the NBN check digit appended where the country has one).
 * @param {string} authority
 */
export function mintView(authority) {
  const prefix = /** @type {HTMLInputElement} */ (h('input', { name: 'prefix', type: 'text', required: true, spellcheck: 'false', autocomplete: 'off', value: authority === '' ? 'urn:' : `${authority}:` }));
  const mode = select('mode', [['counter', 'the next number of the prefix\'s counter'], ['random', 'random characters']]);
  const start = /** @type {HTMLInputElement} */ (h('input', { name: 'start', type: 'text', inputmode: 'numeric', autocomplete: 'off' }));
  const out = h('div', { 'aria-live': 'polite' });
  const form = h('form', { class: 'record' },
    field('Prefix', prefix, 'everything before the new part, e.g. urn:nbn:de:101-'),
    field('How', mode),
    field('First number (optional)', start, 'for a prefix that has no counter yet'),
    h('button', { type: 'submit' }, 'Mint'), out);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    out.replaceChildren();
    const n = intOrUndefined(start.value);
    try {
      const { data } = await api('POST', '/admin/mint', { json: { prefix: prefix.value.trim(), mode: mode.value, ...(n !== undefined ? { start: n } : {}) } });
      out.append(h('p', { class: 'done' }, 'Minted ', nameLink(data.record.urn), ` (${data.record.status}).`));
      say(`Minted ${data.record.urn}.`);
    } catch (err) { out.append(errorBox(err)); }
  });
  show('Mint a name', form);
}

/** Import a CSV or NDJSON file: all or nothing, with the report of every bad line. */
export function importView() {
  const file = /** @type {HTMLInputElement} */ (h('input', { name: 'file', type: 'file', accept: '.csv,.ndjson,.jsonl,.json,text/csv,application/x-ndjson', required: true }));
  const out = h('div', { id: 'import-report' });
  const form = h('form', { class: 'record' },
    field('File (CSV or NDJSON)', file, 'CSV: urn,url[,mediaType,...], a header line first; NDJSON: one record a line. If any line is bad, nothing is written.'),
    h('button', { type: 'submit' }, 'Import'), out);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    out.replaceChildren();
    const f = file.files?.[0];
    if (f === undefined) { out.append(h('p', { class: 'error', role: 'alert' }, 'Choose a file first.')); return; }
    const type = /\.csv$/i.test(f.name) || f.type === 'text/csv' ? 'text/csv' : 'application/x-ndjson';
    try {
      const { status, data } = await api('POST', '/admin/import', { body: f, type, accept: [422] });
      if (status === 200) {
        out.append(h('p', { class: 'done', role: 'status' }, `Imported ${data.records} records: ${data.created} created, ${data.updated} updated, ${data.unchanged} unchanged.`));
      } else {
        out.append(h('p', { class: 'error', role: 'alert' }, `Nothing was written: ${data.errors.length} bad line${data.errors.length === 1 ? '' : 's'} of ${f.name}.`),
          table('Bad lines', ['Line', 'Problem', 'Code'], data.errors.map((/** @type {any} */ x) => [String(x.line), x.message, x.code ?? ''])));
      }
    } catch (err) { out.append(errorBox(err)); }
  });
  show('Import names', form);
}

const LINK_STATES = ['failing', 'broken', 'retry', 'blocked', 'unchecked', 'ok'];

/**
 * The health of the locations, by state (default: failing).
 * @param {string} authority
 * @param {URLSearchParams} params
 */
export async function linksView(authority, params) {
  const prefix = params.get('prefix') ?? (authority === '' ? '' : `${authority}:`);
  const state = params.get('state') ?? 'failing';
  const form = queryForm('links', [
    field('Prefix', h('input', { name: 'prefix', type: 'text', value: prefix, spellcheck: 'false', autocomplete: 'off' })),
    field('State', select('state', LINK_STATES.map((s) => /** @type {[string, string]} */ ([s, s])), state), 'broken: failing so many times in a row that the owner should be told'),
  ], 'Show');
  const q = new URLSearchParams({ state, limit: '500' });
  if (prefix !== '') q.set('prefix', prefix);
  let result;
  try {
    const { data } = await api('GET', `/admin/links?${q}`);
    const rows = data.lines.map((/** @type {any} */ l) => [nameLink(l.urn), h('a', { href: l.url, rel: 'noreferrer' }, l.url), h('span', { class: `badge ${l.state}` }, l.broken ? 'broken' : l.state), l.status !== undefined ? String(l.status) : '', String(l.failures), when(l.lastCheck), l.error ?? '']);
    result = [table(`Locations ${state} under ${data.prefix || 'every authority'}`, ['Name', 'Location', 'State', 'HTTP', 'Failures in a row', 'Last check', 'Error'], rows),
      downloadButton('Download as CSV', `/admin/links?${q}&format=csv`, `links-${state}.csv`)];
  } catch (e) { result = [errorBox(e)]; }
  show('Link health', form, ...result);
}

/**
 * Resolution counts under a prefix over a range of days.
 * @param {string} authority
 * @param {URLSearchParams} params
 */
export async function statsView(authority, params) {
  const prefix = params.get('prefix') ?? (authority === '' ? '' : `${authority}:`);
  const by = params.get('by') ?? 'name';
  const from = params.get('from') ?? '';
  const until = params.get('until') ?? '';
  const form = queryForm('stats', [
    field('Prefix', h('input', { name: 'prefix', type: 'text', value: prefix, spellcheck: 'false', autocomplete: 'off' })),
    field('From (UTC day)', h('input', { name: 'from', type: 'date', value: from })),
    field('Until (UTC day)', h('input', { name: 'until', type: 'date', value: until })),
    field('Sum by', select('by', [['name', 'name'], ['day', 'day'], ['service', 'service']], by)),
  ], 'Show');
  const q = new URLSearchParams({ by, limit: '200' });
  if (prefix !== '') q.set('prefix', prefix);
  if (from !== '') q.set('from', from);
  if (until !== '') q.set('until', until);
  let result;
  try {
    const { data } = await api('GET', `/admin/stats?${q}`);
    result = [h('p', {}, `Resolutions: ${data.totals.human} by people and programs, ${data.totals.robot} by robots.`),
      table(`Resolutions by ${by}`, [by === 'name' ? 'Name' : by === 'day' ? 'Day' : 'Service', 'People and programs', 'Robots'],
        data.groups.map((/** @type {any} */ g) => [by === 'name' ? nameLink(g.group) : g.group, String(g.human), String(g.robot)])),
      downloadButton('Download as CSV', `/admin/stats?${q}&format=csv`, `stats-by-${by}.csv`)];
  } catch (e) { result = [errorBox(e)]; }
  show('Resolution statistics', form, ...result);
}

/**
 * The OAI-PMH repositories harvested into this resolver (`urikit harvest`,
 * `serve --harvest`): per repository the authority it may write, the last
 * harvest and where the next one starts, a harvest under way, the totals,
 * and the newest records refused with the reason.
 */
export async function harvestsView() {
  let result;
  try {
    const { data } = await api('GET', '/admin/harvests');
    const repositories = /** @type {any[]} */ (data.repositories);
    if (repositories.length === 0) {
      result = [h('p', {}, 'No repository has been harvested under this token\'s authority.')];
    } else {
      result = [table('Repositories', ['Repository', 'Authority', 'Last harvest', 'Applied, unchanged, refused', 'Next'],
        repositories.map((r) => [
          h('span', {}, h('code', {}, r.baseUrl), ` ${r.metadataPrefix}${r.set !== undefined ? `, set ${r.set}` : ''}`), r.authority,
          r.lastHarvest === undefined ? 'never finished' : h('span', {}, h('span', { class: `badge ${r.lastHarvest.status === 'ok' ? 'healthy' : 'failing'}` }, r.lastHarvest.status), ' ', when(r.lastHarvest.finished),
            r.lastHarvest.error !== undefined ? ` ${r.lastHarvest.error.code}: ${r.lastHarvest.error.message}` : ''),
          r.lastHarvest === undefined ? '' : `${r.lastHarvest.applied}, ${r.lastHarvest.unchanged}, ${r.lastHarvest.refused}`,
          r.running !== undefined ? h('span', {}, 'under way since ', when(r.running.began), `, ${r.running.applied} applied`) : `from ${r.nextFrom ?? 'the beginning'}`,
        ])),
      ...repositories.filter((r) => r.refusals.length > 0).map((r) => table(`Refused from ${r.baseUrl} (${r.metadataPrefix}), newest first`, ['When', 'Record', 'Name', 'Why'],
        r.refusals.map((/** @type {any} */ x) => [when(x.at), x.identifier ?? '', x.urn ?? '', `${x.code}: ${x.reason}`])))];
    }
  } catch (e) { result = [errorBox(e)]; }
  show('Harvests', ...result);
}
