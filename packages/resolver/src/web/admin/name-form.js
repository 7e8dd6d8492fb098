// @ts-check
/**
 * The cataloguers' page: registering a name, and editing one in any
 * state. An edit sends only what the cataloguer changed (PATCH with a
 * JSON Merge Patch, RFC 7396) and only over the version the form was
 * opened on (If-Match with the name's ETag, RFC 9110 §13.1.1): a field
 * the form does not change is never erased, and a change someone else
 * made since is never overwritten (412: the form says so and offers
 * their version).
 */
import { api, ApiError, namePath } from './api.js';
import { errorBox, field, h, nameLink, say, select, show } from './dom.js';
import { holdsNull, mergePatchBetween } from './merge-patch.js';

/**
 * The statuses a write may give a name in each state (`none`: a new
 * name): the changes, not the refusals, of the lifecycle's table
 * (store/lifecycle.ts `LIFECYCLE`; a withdrawn name changes only by
 * being reinstated, on its page).
 * @type {Readonly<Record<string, readonly string[]>>}
 */
export const NEXT_STATUSES = {
  none: ['active', 'reserved', 'moved', 'withdrawn'],
  reserved: ['reserved', 'active', 'withdrawn'],
  active: ['active', 'moved', 'withdrawn'],
  moved: ['moved', 'active', 'withdrawn'],
  withdrawn: ['withdrawn'],
};

/** @type {Readonly<Record<string, string>>} */
const STATUS_TEXT = {
  active: 'active: resolves to its locations',
  reserved: 'reserved: held, not yet resolvable',
  moved: 'moved: redirects to another name or URL',
  withdrawn: 'withdrawn: answers 410 Gone with the reason',
};

const MERGE_PATCH = 'application/merge-patch+json';

/**
 * One location a line: the URL. Locations the record had keep what else
 * they said (media type, metainformation, preference).
 * @param {string} text
 * @param {any[]} before
 */
function locationsFrom(text, before) {
  return text.split('\n').map((l) => l.trim()).filter((l) => l !== '').map((url) => before.find((b) => b.url === url) ?? { url });
}

/**
 * The fields of a record the form edits, as the admin API reads them
 * (undefined: the record has none).
 * @param {any} r
 * @returns {Record<string, unknown>}
 */
function editable(r) {
  return { status: r.status, locations: r.locations, metadata: r.metadata, movedTo: r.movedTo, permanent: r.movedTo !== undefined ? r.permanent : undefined, successor: r.successor, reason: r.reason };
}

/** @param {string} s */
const textOrUndefined = (s) => (s.trim() === '' ? undefined : s.trim());

/**
 * Create a name, or edit one (`urn`): its status, locations, metadata,
 * successor, and what its status needs (where it moved to, why).
 * @param {string} authority
 * @param {string} [urn]
 */
export async function nameForm(authority, urn) {
  /** @type {any} */
  let record;
  /** @type {string | null} */
  let etag = null;
  if (urn !== undefined) ({ data: record, etag } = await api('GET', namePath('names', urn)));
  const from = record?.status ?? 'none';
  const urnInput = /** @type {HTMLInputElement} */ (h('input', { name: 'urn', type: 'text', required: true, spellcheck: 'false', autocomplete: 'off', value: record?.urn ?? (authority === '' ? 'urn:' : `${authority}:`), readonly: record !== undefined }));
  const statusSelect = select('status', (NEXT_STATUSES[from] ?? []).map((s) => /** @type {[string, string]} */ ([s, STATUS_TEXT[s] ?? s])), record?.status ?? 'active');
  const movedTo = /** @type {HTMLInputElement} */ (h('input', { name: 'movedTo', type: 'text', spellcheck: 'false', autocomplete: 'off', value: record?.movedTo ?? '' }));
  const permanent = /** @type {HTMLInputElement} */ (h('input', { name: 'permanent', type: 'checkbox', id: 'form-permanent', checked: record?.movedTo !== undefined ? record.permanent === true : true }));
  const locations = /** @type {HTMLTextAreaElement} */ (h('textarea', { name: 'locations', rows: 4, spellcheck: 'false' }, (record?.locations ?? []).map((/** @type {any} */ l) => l.url).join('\n')));
  const metadata = /** @type {HTMLTextAreaElement} */ (h('textarea', { name: 'metadata', rows: 5, spellcheck: 'false' }, record?.metadata !== undefined ? JSON.stringify(record.metadata, null, 2) : ''));
  const successor = /** @type {HTMLInputElement} */ (h('input', { name: 'successor', type: 'text', spellcheck: 'false', autocomplete: 'off', value: record?.successor ?? '' }));
  const reason = /** @type {HTMLTextAreaElement} */ (h('textarea', { name: 'reason', rows: 2 }, record?.reason ?? ''));
  const moveFields = h('div', {}, field('Moved to (a URN or URL)', movedTo), h('div', { class: 'field check' }, permanent, h('label', { for: 'form-permanent' }, 'Permanently (301)')));
  const reasonField = field('Reason', reason, 'shown to everyone who asks for a moved or withdrawn name');
  // What a status needs is shown with it; a record's reason is always shown, so that it can be seen and kept.
  const showFields = () => {
    moveFields.hidden = statusSelect.value !== 'moved';
    reasonField.hidden = statusSelect.value !== 'moved' && statusSelect.value !== 'withdrawn' && record?.reason === undefined;
  };
  statusSelect.addEventListener('change', showFields);
  showFields();
  const problems = h('div', {});
  const form = h('form', { class: 'record' },
    field('URN', urnInput, record ? 'a name never changes: move it to another instead' : 'the whole name, e.g. urn:nbn:de:101-2020071401'),
    field('Status', statusSelect, from === 'withdrawn' ? 'a withdrawn name keeps the record it was withdrawn with: reinstate it on its page to change it' : undefined),
    moveFields,
    field('Locations', locations, 'one URL a line, the preferred first'),
    field('Metadata (JSON object, optional)', metadata, 'e.g. {"title": "Annual report 2026"}'),
    field('Successor (optional)', successor, 'the name of the resource that replaces this one'),
    reasonField,
    problems,
    h('button', { type: 'submit' }, record ? 'Save' : 'Create'));

  /**
   * The record as the form now says it, or undefined (a problem shown).
   * @returns {Record<string, unknown> | undefined}
   */
  const values = () => {
    const status = statusSelect.value;
    /** @type {unknown} */
    let meta;
    if (metadata.value.trim() !== '') {
      try { meta = JSON.parse(metadata.value); } catch { meta = null; }
      if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) { problems.append(h('p', { class: 'error', role: 'alert' }, 'Metadata: not a JSON object')); metadata.focus(); return undefined; }
      if (record && holdsNull(meta)) { problems.append(h('p', { class: 'error', role: 'alert' }, 'Metadata: a member cannot be null (leave it out instead)')); metadata.focus(); return undefined; }
    }
    // A move stays as it was unless the status is changed away from it.
    const keepMove = record?.movedTo !== undefined && status === record.status;
    return {
      status,
      locations: locationsFrom(locations.value, record?.locations ?? []),
      metadata: meta,
      movedTo: status === 'moved' ? textOrUndefined(movedTo.value) : keepMove ? record.movedTo : undefined,
      permanent: status === 'moved' ? permanent.checked : keepMove ? record.permanent : undefined,
      successor: textOrUndefined(successor.value),
      reason: reasonField.hidden ? record?.reason : textOrUndefined(reason.value),
    };
  };

  /**
   * Sends the changes over the version `tag`: the name's page when
   * written, the other editor's version when someone changed it since.
   * @param {Record<string, unknown>} patch
   * @param {string | null} tag
   */
  const save = async (patch, tag) => {
    try {
      const { data } = await api('PATCH', namePath('names', record.urn), { json: patch, type: MERGE_PATCH, ...(tag !== null ? { ifMatch: tag } : {}) });
      say(data.op === 'unchanged' ? `${data.record.urn}: nothing changed.` : `${data.record.urn} saved (${data.op}).`);
      location.hash = `#/name/${encodeURIComponent(data.record.urn)}`;
    } catch (err) {
      if (err instanceof ApiError && err.status === 412) await changedElsewhere(patch);
      else problems.append(errorBox(err));
    }
  };

  /**
   * Someone changed the name since the form was opened: nothing was
   * written; their version is shown, to take up or to apply these changes to.
   * @param {Record<string, unknown>} patch
   */
  const changedElsewhere = async (patch) => {
    const { data: theirs, etag: theirTag } = await api('GET', namePath('names', record.urn));
    problems.replaceChildren(h('div', { class: 'conflict', role: 'alert', id: 'changed-elsewhere' },
      h('p', { class: 'error' }, `Changed by someone else: ${theirs.urn} is now version ${theirs.version} (this form opened version ${record.version}). Your changes are not saved.`),
      h('dl', { class: 'record' }, ...[['Status', theirs.status], ['Locations', theirs.locations.map((/** @type {any} */ l) => l.url).join(' ') || 'none'],
        ['Successor', theirs.successor ?? ''], ['Metadata', theirs.metadata !== undefined ? JSON.stringify(theirs.metadata) : '']].flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
      h('p', {},
        h('button', { type: 'button', onclick: () => { void nameForm(authority, record.urn); } }, 'Load their version'), ' ',
        h('button', { type: 'button', class: 'secondary', onclick: () => { problems.replaceChildren(); void save(patch, theirTag); } }, 'Apply my changes to their version'))));
    say(`Changed by someone else: ${theirs.urn} is now version ${theirs.version}.`);
  };

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    problems.replaceChildren();
    const after = values();
    if (after === undefined) return;
    if (record) { await save(mergePatchBetween(editable(record), after), etag); return; }
    try {
      // A new name only: If-None-Match * (RFC 9110 §13.1.2) never replaces one registered meanwhile.
      const { data } = await api('PUT', namePath('names', urnInput.value.trim()), { json: after, ifNoneMatch: '*' });
      say(`${data.record.urn} created.`);
      location.hash = `#/name/${encodeURIComponent(data.record.urn)}`;
    } catch (err) {
      if (err instanceof ApiError && err.status === 412) problems.append(h('p', { class: 'error', role: 'alert' }, 'This name is registered already: ', nameLink(urnInput.value.trim())));
      else problems.append(errorBox(err));
    }
  });
  show(record ? `Edit ${record.urn}` : 'New name', form);
  if (!record) urnInput.focus();
}
