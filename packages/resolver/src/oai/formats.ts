/**
 * The metadata formats this data provider disseminates (§3.4): `oai_dc`,
 * which every OAI-PMH repository must offer (§5, unqualified Dublin
 * Core), and `urn_locations`, which carries what a resolver knows and Dublin
 * Core cannot say: the status of a name, where it moved, its successor,
 * and its locations in order of preference.
 */
import { xmlAttrs, xmlElement, xmlEscape } from './xml.js';

/**
 * One name as the data provider sees it.
 *
 * @example
 * ```ts
 * const item: OaiItem = { identifier: 'urn:isbn:0451450523', datestamp: 0, sets: ['urn:isbn'], status: 'active',
 *   locations: [{ url: 'https://openlibrary.org/isbn/0451450523' }], metadata: { title: 'The Last Unicorn' } };
 * OAI_DC.render(item).includes('<dc:title>The Last Unicorn</dc:title>'); // true
 * ```
 */
export interface OaiItem {
  /** The URN (§2.4: the unique identifier is a URI). */
  identifier: string;
  /** When the name last changed (ms since the epoch). */
  datestamp: number;
  /** The setSpecs the item is in (its authority). */
  sets: string[];
  status: 'active' | 'moved' | 'withdrawn' | 'reserved';
  locations: Array<{ url: string; mediaType?: string; preference?: number; charset?: string; language?: string; meta?: string; preservation?: boolean }>;
  metadata?: Record<string, unknown>;
  movedTo?: string;
  /** For a move: 301 (true) or 302. */
  permanent?: boolean;
  successor?: string;
  /** The names of the store that moved to this one. */
  movedFrom?: string[];
  /** The names whose successor this one is (earlier versions). */
  predecessors?: string[];
  reason?: string;
  /** How many times the name was written (1: never changed since it was registered). */
  version?: number;
  /** When the name was registered (ms since the epoch). */
  created?: number;
  /** The kind of change that made this version (the history's: create, update, move, withdraw, reinstate). */
  change?: string;
}

/**
 * A metadata format: its prefix, schema and namespace (§4.4), and how an
 * item is written in it.
 *
 * @example
 * ```ts
 * OAI_DC.prefix; // 'oai_dc'
 * ```
 */
export interface OaiMetadataFormat {
  prefix: string;
  schema: string;
  namespace: string;
  render(item: OaiItem): string;
  /**
   * The format states every state of a name: a withdrawn name is a record
   * of it (its tombstone), not a deleted one, and a reserved name is
   * disseminated too; a mirror reads it (DESIGN.md, docs/resolver.md
   * "Mirrors").
   */
  everyState?: boolean;
}

// DCMES 1.1: the fifteen elements of unqualified Dublin Core, in the order oai_dc lists them.
const DC_ELEMENTS = ['title', 'creator', 'subject', 'description', 'publisher', 'contributor', 'date', 'type', 'format', 'identifier', 'source', 'language', 'relation', 'coverage', 'rights'] as const;

/** A metadata value as the strings Dublin Core repeats an element for. */
function values(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v.flatMap(values);
  if (typeof v === 'object') return [];
  return [String(v)];
}

/**
 * `oai_dc` (§5): the name's Dublin Core elements from its metadata (keys
 * named like the fifteen elements), the URN and its locations as
 * `dc:identifier`, a move or successor as `dc:relation`.
 *
 * @example
 * ```ts
 * OAI_DC.render({ identifier: 'urn:ex:a', datestamp: 0, sets: [], status: 'active', locations: [{ url: 'http://a/' }], metadata: { title: 'A' } }).includes('<dc:title>A</dc:title>'); // true
 * ```
 */
export const OAI_DC: OaiMetadataFormat = {
  prefix: 'oai_dc',
  schema: 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd',
  namespace: 'http://www.openarchives.org/OAI/2.0/oai_dc/',
  render(item) {
    const md = item.metadata ?? {};
    let body = '';
    for (const el of DC_ELEMENTS) {
      const vs = values(md[el]);
      if (el === 'identifier') vs.unshift(item.identifier, ...item.locations.map((l) => l.url));
      if (el === 'relation') vs.push(...[item.movedTo, item.successor].filter((x): x is string => x !== undefined));
      for (const v of vs) body += xmlElement(`dc:${el}`, v);
    }
    return `<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/oai_dc/ http://www.openarchives.org/OAI/2.0/oai_dc.xsd">${body}</oai_dc:dc>`;
  },
};

/**
 * The namespace of the `urn_locations` format; its schema is served beside
 * the endpoint (`<baseURL>/urn_locations.xsd`).
 *
 * @example
 * ```ts
 * URN_LOCATIONS_NAMESPACE.startsWith('https://'); // true
 * ```
 */
export const URN_LOCATIONS_NAMESPACE = 'https://urikit.org/ns/oai/urn-locations/1.0/';

/**
 * The XML Schema of `urn_locations`, served at `<baseURL>/urn_locations.xsd`.
 *
 * @example
 * ```ts
 * URN_LOCATIONS_XSD.includes('name="urn"'); // true
 * ```
 */
export const URN_LOCATIONS_XSD = `<?xml version="1.0" encoding="UTF-8"?>
<schema xmlns="http://www.w3.org/2001/XMLSchema" xmlns:u="${URN_LOCATIONS_NAMESPACE}" targetNamespace="${URN_LOCATIONS_NAMESPACE}" elementFormDefault="qualified" attributeFormDefault="unqualified">
  <element name="urn">
    <complexType>
      <sequence>
        <element name="name" type="anyURI"/>
        <element name="status">
          <simpleType><restriction base="string"><enumeration value="active"/><enumeration value="moved"/><enumeration value="withdrawn"/><enumeration value="reserved"/></restriction></simpleType>
        </element>
        <element name="movedTo" type="anyURI" minOccurs="0"/>
        <element name="permanent" type="boolean" minOccurs="0"/>
        <element name="successor" type="anyURI" minOccurs="0"/>
        <element name="reason" type="string" minOccurs="0"/>
        <element name="location" minOccurs="0" maxOccurs="unbounded">
          <complexType>
            <sequence>
              <element name="meta" type="string" minOccurs="0"/>
            </sequence>
            <attribute name="url" type="anyURI" use="required"/>
            <attribute name="mediaType" type="string" use="optional"/>
            <attribute name="preference" type="integer" use="optional"/>
            <attribute name="charset" type="string" use="optional"/>
            <attribute name="language" type="language" use="optional"/>
            <attribute name="preservation" type="boolean" use="optional"/>
          </complexType>
        </element>
        <element name="metadata" minOccurs="0">
          <complexType><simpleContent><extension base="string"><attribute name="type" type="string" use="required"/></extension></simpleContent></complexType>
        </element>
        <element name="movedFrom" type="anyURI" minOccurs="0" maxOccurs="unbounded"/>
        <element name="predecessor" type="anyURI" minOccurs="0" maxOccurs="unbounded"/>
        <element name="version" type="positiveInteger" minOccurs="0"/>
        <element name="change" minOccurs="0">
          <simpleType><restriction base="string"><enumeration value="create"/><enumeration value="update"/><enumeration value="move"/><enumeration value="withdraw"/><enumeration value="reinstate"/></restriction></simpleType>
        </element>
        <element name="created" type="dateTime" minOccurs="0"/>
        <element name="updated" type="dateTime" minOccurs="0"/>
      </sequence>
    </complexType>
  </element>
</schema>
`;

/** A time as xs:dateTime with milliseconds (a mirror keeps the source's times to the millisecond). */
function dateTimeMs(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * `urn_locations`: the name, its status, where it moved (and whether for
 * good), its successor, the reason of a move or withdrawal, its locations
 * in order of preference with their metainformation (1995 draft §3.4.2),
 * its metadata (as JSON), the names that point at it, its version and
 * times: all a resolver answers from, so that a mirror answers as the
 * source does (1995 draft §6A: resolution handed over to other hosts).
 * Every state is a record of it ({@link OaiMetadataFormat.everyState}).
 *
 * @example
 * ```ts
 * urnLocationsFormat('https://r.example/oai').render({ identifier: 'urn:ex:a', datestamp: 0, sets: [], status: 'active', locations: [{ url: 'http://a/', preference: 1 }] })
 *   .includes('<u:location url="http://a/" preference="1"/>'); // true
 * ```
 */
export function urnLocationsFormat(baseUrl: string): OaiMetadataFormat {
  return {
    prefix: 'urn_locations',
    schema: `${baseUrl}/urn_locations.xsd`,
    namespace: URN_LOCATIONS_NAMESPACE,
    everyState: true,
    render(item) {
      let body = xmlElement('u:name', item.identifier) + xmlElement('u:status', item.status);
      body += xmlElement('u:movedTo', item.movedTo) + xmlElement('u:permanent', item.permanent !== undefined ? String(item.permanent) : undefined);
      body += xmlElement('u:successor', item.successor) + xmlElement('u:reason', item.reason);
      // in the order the store holds them, each with its preference: a mirror keeps both (the answer orders by preference)
      for (const l of item.locations) {
        const attrs = xmlAttrs({ url: l.url, mediaType: l.mediaType, preference: l.preference, charset: l.charset, language: l.language, preservation: l.preservation === true ? 'true' : undefined });
        body += l.meta === undefined ? `<u:location${attrs}/>` : `<u:location${attrs}>${xmlElement('u:meta', l.meta)}</u:location>`;
      }
      if (item.metadata !== undefined) body += xmlElement('u:metadata', JSON.stringify(item.metadata), { type: 'application/json' });
      for (const m of item.movedFrom ?? []) body += xmlElement('u:movedFrom', m);
      for (const p of item.predecessors ?? []) body += xmlElement('u:predecessor', p);
      if (item.version !== undefined) body += xmlElement('u:version', String(item.version));
      body += xmlElement('u:change', item.change);
      if (item.created !== undefined) body += xmlElement('u:created', dateTimeMs(item.created));
      body += xmlElement('u:updated', dateTimeMs(item.datestamp));
      return `<u:urn xmlns:u="${xmlEscape(URN_LOCATIONS_NAMESPACE)}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${xmlEscape(`${URN_LOCATIONS_NAMESPACE} ${baseUrl}/urn_locations.xsd`)}">${body}</u:urn>`;
    },
  };
}
