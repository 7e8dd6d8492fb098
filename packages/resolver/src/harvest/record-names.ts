/**
 * What a harvested record says of a name, per metadata format: its URN
 * and the URLs it delivers. `epicur` (xepicur 1.0: `record/identifier`,
 * each `resource/identifier scheme="url"` with its `format scheme="imt"`,
 * the `role="primary"` one first), `oai_dc` (the one `dc:identifier` that
 * is a URN under the repository's authority, the `dc:identifier`s that are
 * http or https URLs), and urikit's own `urn_locations` (`name`, each
 * `location`). Nothing else of a record is taken.
 */
import { EPICUR_NAMESPACE } from '../oai/epicur.js';
import { URN_LOCATIONS_NAMESPACE } from '../oai/formats.js';
import type { ChangeOp, NameLocation, NameStatus } from '../store/types.js';
import { jsonTooDeepAt } from '../formats/json-depth.js';
import { MAX_METADATA_DEPTH } from '../store/validate.js';
import type { MetadataElement } from './oai-page.js';

/**
 * The metadata formats the harvester reads.
 *
 * @example
 * ```ts
 * HARVEST_FORMATS.includes('epicur'); // true
 * ```
 */
export const HARVEST_FORMATS = ['epicur', 'oai_dc', 'urn_locations'] as const;

/**
 * One of {@link HARVEST_FORMATS}.
 *
 * @example
 * ```ts
 * const f: HarvestFormat = 'oai_dc';
 * f; // 'oai_dc'
 * ```
 */
export type HarvestFormat = (typeof HARVEST_FORMATS)[number];

/**
 * A record's name and locations, or why none can be taken from it.
 *
 * @example
 * ```ts
 * const n: RecordName = { urn: 'urn:nbn:de:101-2020071401', locations: [{ url: 'https://repo.example/1' }] };
 * 'urn' in n; // true
 * ```
 */
export type RecordName = { urn: string; locations: NameLocation[]; status?: NameStatus } | { refused: string; reason: string; urn?: string };

const OAI_DC_NS = 'http://www.openarchives.org/OAI/2.0/oai_dc/';
const DC_NS = 'http://purl.org/dc/elements/1.1/';

const isUrn = (s: string) => s.slice(0, 4).toLowerCase() === 'urn:';
const isHttpUrl = (s: string) => /^https?:\/\//i.test(s);

function epicurName(md: readonly MetadataElement[]): RecordName {
  const urns = md.filter((e) => e.ns === EPICUR_NAMESPACE && e.path === 'epicur/record/identifier');
  if (urns.length === 0) return { refused: 'no-urn', reason: 'the epicur record has no record/identifier' };
  if (urns.length > 1) return { refused: 'several-urns', reason: `the epicur document holds ${urns.length} records: one OAI-PMH record is one name` };
  const locations: Array<NameLocation & { primary?: boolean }> = [];
  let url: { url: string; primary: boolean } | undefined;
  let mediaType: string | undefined;
  // elements come as they close: a resource's identifier and format, then the resource
  for (const e of md) {
    if (e.ns !== EPICUR_NAMESPACE) continue;
    if (e.path === 'epicur/record/resource/identifier' && e.attrs.get('scheme') === 'url') url = { url: e.text, primary: e.attrs.get('role') === 'primary' };
    else if (e.path === 'epicur/record/resource/format' && e.attrs.get('scheme') === 'imt' && e.text !== '') mediaType = e.text;
    else if (e.path === 'epicur/record/resource') {
      if (url !== undefined) locations.push({ url: url.url, ...(mediaType !== undefined ? { mediaType } : {}), ...(url.primary ? { primary: true } : {}) });
      url = undefined;
      mediaType = undefined;
    }
  }
  // the primary URL first, the others as delivered (a stable sort)
  locations.sort((a, b) => Number(b.primary === true) - Number(a.primary === true));
  return { urn: urns[0]!.text, locations: locations.map(({ primary: _, ...l }) => l) };
}

function oaiDcName(md: readonly MetadataElement[], inAuthority: (urn: string) => boolean): RecordName {
  if (!md.some((e) => e.ns === OAI_DC_NS && e.path === 'dc')) return { refused: 'wrong-format', reason: 'the metadata is not an oai_dc:dc element' };
  const ids = md.filter((e) => e.ns === DC_NS && e.path === 'dc/identifier').map((e) => e.text);
  const urns = [...new Set(ids.filter(isUrn))];
  if (urns.length === 0) return { refused: 'no-urn', reason: 'no dc:identifier of the record is a URN' };
  const ours = urns.filter(inAuthority);
  if (ours.length === 0) return { refused: 'outside-authority', reason: `no URN of the record is under the repository's authority (${urns.slice(0, 3).join(', ')})`, urn: urns[0]! };
  if (ours.length > 1) return { refused: 'several-urns', reason: `the record names ${ours.length} URNs under the authority (${ours.slice(0, 3).join(', ')}): which one its URLs are of is unknown` };
  return { urn: ours[0]!, locations: [...new Set(ids.filter(isHttpUrl))].map((url) => ({ url })) };
}

function urnLocationsName(md: readonly MetadataElement[]): RecordName {
  const name = md.find((e) => e.ns === URN_LOCATIONS_NAMESPACE && e.path === 'urn/name');
  if (name === undefined) return { refused: 'no-urn', reason: 'the urn_locations record has no name' };
  const locations: NameLocation[] = [];
  for (const e of md) {
    if (e.ns !== URN_LOCATIONS_NAMESPACE || e.path !== 'urn/location') continue;
    const url = e.attrs.get('url');
    if (url === undefined) continue;
    const loc: NameLocation = { url };
    const mediaType = e.attrs.get('mediaType');
    const preference = e.attrs.get('preference');
    if (mediaType !== undefined) loc.mediaType = mediaType;
    if (preference !== undefined && /^-?\d{1,9}$/.test(preference)) loc.preference = Number(preference);
    locations.push(loc);
  }
  const status = md.find((e) => e.ns === URN_LOCATIONS_NAMESPACE && e.path === 'urn/status')?.text;
  return { urn: name.text, locations, ...(status === 'withdrawn' || status === 'reserved' ? { status: status as NameStatus } : {}) };
}

/**
 * Everything a `urn_locations` record states of a name, as a mirror takes
 * it: the record as a client would send it (`input`, checked by the
 * caller as any write is), the names the source holds that point at it,
 * and its version and times at the source.
 *
 * @example
 * ```ts
 * const u = 'https://urikit.org/ns/oai/urn-locations/1.0/';
 * const el = (path: string, text: string, attrs: Array<[string, string]> = []) => ({ path, ns: u, attrs: new Map(attrs), text });
 * const md = [el('urn/name', 'urn:ex:a'), el('urn/status', 'withdrawn'), el('urn/reason', 'retracted'), el('urn/location/meta', 'the first'),
 *   el('urn/location', '', [['url', 'http://a/'], ['preservation', 'true']]), el('urn/version', '3'), el('urn/created', '2026-01-01T00:00:00.000Z'), el('urn/updated', '2026-02-01T00:00:00.000Z'), el('urn', '')];
 * const s = urnLocationsState(md) as StatedName;
 * s.input; // { urn: 'urn:ex:a', status: 'withdrawn', reason: 'retracted', locations: [{ url: 'http://a/', preservation: true, meta: 'the first' }] }
 * [s.version, s.created, s.updated]; // [3, 1767225600000, 1769904000000]
 * ```
 */
export function urnLocationsState(md: readonly MetadataElement[]): StatedName | { refused: string; reason: string; urn?: string } {
  const mine = md.filter((e) => e.ns === URN_LOCATIONS_NAMESPACE);
  const one = (p: string) => mine.find((e) => e.path === `urn/${p}`)?.text;
  const urn = one('name');
  if (urn === undefined) return { refused: 'no-urn', reason: 'the urn_locations record has no name' };
  const status = one('status') as NameStatus | undefined;
  const version = Number(one('version'));
  const created = Date.parse(one('created') ?? '');
  const updated = Date.parse(one('updated') ?? '');
  if (!Number.isSafeInteger(version) || version < 1 || !Number.isFinite(created) || !Number.isFinite(updated)) {
    return { refused: 'not-a-mirror-record', reason: `the urn_locations record of ${urn} has no version, created and updated: the repository is not a urikit resolver that a mirror can follow`, urn };
  }
  const input: Record<string, unknown> = { urn };
  if (status !== undefined) input.status = status;
  const movedTo = one('movedTo');
  if (movedTo !== undefined) input.movedTo = movedTo;
  const permanent = one('permanent');
  if (permanent !== undefined) input.permanent = permanent === 'true';
  for (const f of ['successor', 'reason'] as const) { const v = one(f); if (v !== undefined) input[f] = v; }
  const locations: Array<Record<string, unknown>> = [];
  let meta: string | undefined;
  // elements come as they close: a location's meta, then the location
  for (const e of mine) {
    if (e.path === 'urn/location/meta') meta = e.text;
    else if (e.path === 'urn/location') {
      const l: Record<string, unknown> = { url: e.attrs.get('url') ?? '' };
      for (const a of ['mediaType', 'charset', 'language'] as const) { const v = e.attrs.get(a); if (v !== undefined) l[a] = v; }
      const preference = e.attrs.get('preference');
      if (preference !== undefined) l.preference = Number(preference);
      if (e.attrs.get('preservation') === 'true') l.preservation = true;
      if (meta !== undefined) l.meta = meta;
      meta = undefined;
      locations.push(l);
    }
  }
  input.locations = locations;
  const metadata = one('metadata');
  if (metadata !== undefined) {
    // the admin API's bound of metadata depth, before the parser recurses into it
    if (jsonTooDeepAt(metadata, MAX_METADATA_DEPTH) >= 0) return { refused: 'metadata-too-deep', reason: `the metadata of ${urn} nests deeper than ${MAX_METADATA_DEPTH} levels`, urn };
    try {
      input.metadata = JSON.parse(metadata);
    } catch {
      return { refused: 'bad-metadata', reason: `the metadata of ${urn} is not JSON`, urn };
    }
  }
  const all = (p: string) => mine.filter((e) => e.path === `urn/${p}`).map((e) => e.text);
  const change = one('change');
  return { input, movedFrom: all('movedFrom'), predecessors: all('predecessor'), version, created, updated, ...(change !== undefined && CHANGE_OPS.has(change) ? { change: change as ChangeOp } : {}) };
}

/**
 * What {@link urnLocationsState} reads: the record as input, the names
 * pointing at it, version and times (ms since the epoch).
 *
 * @example
 * ```ts
 * const s: StatedName = { input: { urn: 'urn:ex:a' }, movedFrom: [], predecessors: [], version: 1, created: 0, updated: 0 };
 * s.version; // 1
 * ```
 */
export interface StatedName {
  input: Record<string, unknown>;
  movedFrom: string[];
  predecessors: string[];
  version: number;
  created: number;
  updated: number;
  /** The kind of change that made this version at the source, when it says. */
  change?: ChangeOp;
}

const CHANGE_OPS: ReadonlySet<string> = new Set(['create', 'update', 'move', 'withdraw', 'reinstate']);

/**
 * The name a record's metadata states, in `format`; `inAuthority` chooses
 * among the URNs of an `oai_dc` record.
 *
 * @example
 * ```ts
 * const md: MetadataElement[] = [
 *   { path: 'dc/identifier', ns: 'http://purl.org/dc/elements/1.1/', attrs: new Map(), text: 'urn:nbn:de:101-2020071401' },
 *   { path: 'dc/identifier', ns: 'http://purl.org/dc/elements/1.1/', attrs: new Map(), text: 'https://repo.example/1' },
 *   { path: 'dc', ns: 'http://www.openarchives.org/OAI/2.0/oai_dc/', attrs: new Map(), text: '' },
 * ];
 * recordName('oai_dc', md, () => true); // { urn: 'urn:nbn:de:101-2020071401', locations: [{ url: 'https://repo.example/1' }] }
 * ```
 */
export function recordName(format: HarvestFormat, md: readonly MetadataElement[], inAuthority: (urn: string) => boolean): RecordName {
  if (format === 'epicur') return epicurName(md);
  if (format === 'oai_dc') return oaiDcName(md, inAuthority);
  return urnLocationsName(md);
}
