/**
 * `epicur`: the German National Library's xepicur format (version 1.0,
 * namespace `urn:nbn:de:1111-2004033116`), in which URN:NBN resolvers
 * harvest URN–URL pairs from repositories. Under the library's current
 * rules a record states every current URL of its URN (URLs no longer
 * delivered are removed), so a record here is the whole present state of
 * a name: its URN, each location as a `resource`, and the version links.
 *
 * ```
 * <epicur>
 *   <administrative_data><delivery><update_status type="urn_new"/></delivery></administrative_data>
 *   <record>
 *     <identifier scheme="urn:nbn:de">urn:nbn:de:101-2020071401</identifier>
 *     <isVersionOf scheme="urn:nbn:de">...</isVersionOf>            (a predecessor, if any)
 *     <resource>
 *       <identifier scheme="url" role="primary">https://repo.example/1</identifier>
 *       <format scheme="imt">application/pdf</format>                 (when the media type is known)
 *     </resource>
 *   </record>
 * </epicur>
 * ```
 */
import type { OaiItem, OaiMetadataFormat } from './formats.js';
import { xmlElement } from './xml.js';

/**
 * The namespace of xepicur 1.0 (itself a URN:NBN).
 *
 * @example
 * ```ts
 * EPICUR_NAMESPACE; // 'urn:nbn:de:1111-2004033116'
 * ```
 */
export const EPICUR_NAMESPACE = 'urn:nbn:de:1111-2004033116';

/**
 * Where the German National Library publishes the schema.
 *
 * @example
 * ```ts
 * EPICUR_SCHEMA.endsWith('/xepicur.xsd'); // true
 * ```
 */
export const EPICUR_SCHEMA = 'http://www.persistent-identifier.de/xepicur/version1.0/xepicur.xsd';

const NBN_COUNTRY = /^urn:nbn:([a-z]{2})[:-]/i;

/**
 * The `scheme` of a URN in xepicur: `urn:nbn:<country>` for a National
 * Bibliography Number (the library's own values: `urn:nbn:de`,
 * `urn:nbn:ch`, `urn:nbn:at`), `urn:<nid>` for any other namespace.
 *
 * @example
 * ```ts
 * epicurScheme('urn:nbn:de:101-2020071401'); // 'urn:nbn:de'
 * epicurScheme('urn:isbn:0451450523'); // 'urn:isbn'
 * ```
 */
export function epicurScheme(urn: string): string {
  const nbn = NBN_COUNTRY.exec(urn);
  if (nbn !== null) return `urn:nbn:${nbn[1]!.toLowerCase()}`;
  const colon = urn.indexOf(':', 4);
  return `urn:${urn.slice(4, colon < 0 ? undefined : colon).toLowerCase()}`;
}

/** The locations in the order a resolver answers them: by preference, then as written. */
function preferred(item: OaiItem): OaiItem['locations'] {
  return item.locations.map((l, i) => ({ l, i })).sort((a, b) => (b.l.preference ?? 0) - (a.l.preference ?? 0) || a.i - b.i).map((x) => x.l);
}

/**
 * xepicur's `update_status`: `urn_new` for a name never changed since it
 * was registered, `url_update_general` (the record states all current
 * URLs) after any change.
 */
function updateStatus(item: OaiItem): string {
  return item.version === 1 ? 'urn_new' : 'url_update_general';
}

/**
 * The `epicur` metadata format: the URN, its locations as resources (the
 * preferred one `role="primary"`), a name moved to a URL with that URL as
 * its one resource, a predecessor as `isVersionOf` and a successor as
 * `hasVersion`.
 *
 * @example
 * ```ts
 * const xml = EPICUR.render({ identifier: 'urn:nbn:de:101-2020071401', datestamp: 0, sets: [], status: 'active', version: 1,
 *   locations: [{ url: 'https://repo.example/1', mediaType: 'application/pdf' }] });
 * xml.includes('<identifier scheme="urn:nbn:de">urn:nbn:de:101-2020071401</identifier>'); // true
 * xml.includes('<resource><identifier scheme="url" role="primary">https://repo.example/1</identifier><format scheme="imt">application/pdf</format></resource>'); // true
 * ```
 */
export const EPICUR: OaiMetadataFormat = {
  prefix: 'epicur',
  schema: EPICUR_SCHEMA,
  namespace: EPICUR_NAMESPACE,
  render(item) {
    let record = xmlElement('identifier', item.identifier, { scheme: epicurScheme(item.identifier) });
    const predecessor = item.predecessors?.[0];
    if (predecessor !== undefined) record += xmlElement('isVersionOf', predecessor, { scheme: epicurScheme(predecessor) });
    if (item.successor !== undefined && item.successor.slice(0, 4).toLowerCase() === 'urn:') record += xmlElement('hasVersion', item.successor, { scheme: epicurScheme(item.successor) });
    const locations = item.status === 'moved' ? (item.movedTo !== undefined && item.movedTo.slice(0, 4).toLowerCase() !== 'urn:' ? [{ url: item.movedTo }] : []) : preferred(item);
    locations.forEach((l, i) => {
      record += `<resource>${xmlElement('identifier', l.url, { scheme: 'url', role: i === 0 ? 'primary' : undefined })}${xmlElement('format', 'mediaType' in l ? l.mediaType : undefined, { scheme: 'imt' })}</resource>`;
    });
    const admin = `<administrative_data><delivery><update_status type="${updateStatus(item)}"/></delivery></administrative_data>`;
    return `<epicur xmlns="${EPICUR_NAMESPACE}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${EPICUR_NAMESPACE} ${EPICUR_SCHEMA}">${admin}<record>${record}</record></epicur>`;
  },
};
