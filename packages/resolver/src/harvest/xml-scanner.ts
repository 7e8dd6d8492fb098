/**
 * A streaming XML scanner for what a harvester reads: elements,
 * attributes, text and CDATA (XML 1.0 §2.4, §2.7, §3.1), namespaces
 * resolved (Namespaces in XML 1.0 §5), fed a chunk at a time so that a
 * response is never held whole. It never reads a document type
 * declaration: a `<!DOCTYPE` is refused (OAI-PMH responses are XML Schema
 * documents, §3.2, and have none), so no entity is ever declared, and none
 * expanded (no "billion laughs", no external entity reaching a file or a
 * host). Only the five predefined entities and character references are
 * read (XML 1.0 §4.6, §4.1). What it holds is bounded: the markup of one
 * tag, comment or CDATA section, the depth, the attributes of a tag; text
 * is passed on as it arrives.
 */

/**
 * Why a document was refused: not well-formed, a DTD, an entity it
 * would have to declare, or a bound exceeded.
 *
 * @example
 * ```ts
 * const c: XmlErrorCode = 'xml-doctype';
 * c.startsWith('xml-'); // true
 * ```
 */
export type XmlErrorCode = 'xml-malformed' | 'xml-doctype' | 'xml-entity' | 'xml-too-deep' | 'xml-too-long' | 'xml-encoding';

/**
 * A refused document: the code, the reason, and the character offset in
 * the document where it was found.
 *
 * @example
 * ```ts
 * const e = new XmlError('xml-doctype', 'a document type declaration is never read', 40);
 * [e.code, e.offset]; // ['xml-doctype', 40]
 * ```
 */
export class XmlError extends Error {
  override readonly name = 'XmlError';
  constructor(readonly code: XmlErrorCode, message: string, readonly offset: number) {
    super(`${message} (at character ${offset})`);
  }
}

/**
 * An element's name with its namespace resolved.
 *
 * @example
 * ```ts
 * const n: XmlName = { ns: 'http://www.openarchives.org/OAI/2.0/', local: 'record' };
 * n.local; // 'record'
 * ```
 */
export interface XmlName {
  ns: string;
  local: string;
}

/**
 * What the scanner reports: an element opens (its attributes by their
 * unprefixed or `prefix:local` names, namespace declarations left out), text
 * (entities read; whitespace too), an element closes.
 *
 * @example
 * ```ts
 * const h: XmlHandler = { open: () => {}, text: () => {}, close: () => {} };
 * typeof h.open; // 'function'
 * ```
 */
export interface XmlHandler {
  open(name: XmlName, attrs: ReadonlyMap<string, string>): void;
  text(text: string): void;
  close(name: XmlName): void;
}

/**
 * The bounds of a document.
 *
 * @example
 * ```ts
 * DEFAULT_XML_LIMITS.maxDepth; // 64
 * ```
 */
export interface XmlLimits {
  maxDepth: number;
  /** The longest markup (a tag with its attributes, a comment, a PI, a CDATA section), in characters; text is passed on as it comes, never held. */
  maxTokenLength: number;
  maxAttributes: number;
}

/**
 * 64 levels, 1 MiB of markup at once, 64 attributes a tag.
 *
 * @example
 * ```ts
 * DEFAULT_XML_LIMITS.maxAttributes; // 64
 * ```
 */
export const DEFAULT_XML_LIMITS: XmlLimits = Object.freeze({ maxDepth: 64, maxTokenLength: 1 << 20, maxAttributes: 64 });

// XML 1.0 §4.6: the predefined entities, the only ones a document without a DTD may use.
const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

// Namespaces in XML 1.0 §3: the prefixes bound from the start.
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** XML 1.0 §2.2 Char, for a character reference. */
function isXmlChar(cp: number): boolean {
  return cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

/** XML 1.0 §2.3 NameStartChar and NameChar, close enough for element and attribute names: no markup characters, no spaces. */
function isNameChar(c: number, first: boolean): boolean {
  if (c >= 0x61 && c <= 0x7a) return true;
  if (c >= 0x41 && c <= 0x5a) return true;
  if (c === 0x5f || c === 0x3a) return true;
  if (c >= 0x80) return true;
  if (first) return false;
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x9 || c === 0xa || c === 0xd;
}

interface Scope {
  qname: string;
  name: XmlName;
  /** The namespace bindings this element declared, over its parent's. */
  bindings: Map<string, string> | undefined;
}

/**
 * The scanner: `write` each decoded chunk, then `end`. Throws
 * {@link XmlError} at the first fault; the handler's own throws pass through.
 *
 * @example
 * ```ts
 * let seen = '';
 * const s = new XmlScanner({ open: (n, a) => { seen += `<${n.ns} ${n.local} ${[...a].join()}>`; }, text: (t) => { seen += t; }, close: (n) => { seen += `</${n.local}>`; } });
 * // a chunk may end anywhere, even inside a reference: the text comes in pieces
 * s.write('<a xmlns="urn:x" k="v&amp;w"><b>1 &l'); s.write('t; 2</b></a>'); s.end();
 * seen; // '<urn:x a k,v&w><urn:x b >1 < 2</b></a>'
 * new XmlScanner({ open() {}, text() {}, close() {} }).write('<!DOCTYPE a [<!ENTITY x "y">]><a/>'); // throws XmlError xml-doctype
 * ```
 */
export class XmlScanner {
  readonly #handler: XmlHandler;
  readonly #limits: XmlLimits;
  #buffer = '';
  /** Characters of the document before the buffer (for offsets). */
  #consumed = 0;
  #stack: Scope[] = [];
  #sawRoot = false;
  #ended = false;
  #namespaces = new Map<string, string>([['xml', XML_NS], ['', '']]);

  constructor(handler: XmlHandler, limits: XmlLimits = DEFAULT_XML_LIMITS) {
    this.#handler = handler;
    this.#limits = limits;
  }

  /** Reads the next chunk of the document. */
  write(chunk: string): void {
    this.#buffer += chunk;
    this.#scan(false);
  }

  /** The document is complete: what is left must close it. */
  end(): void {
    this.#scan(true);
    if (this.#buffer.trim() !== '') this.#fail('xml-malformed', 'the document ends inside markup', 0);
    if (!this.#sawRoot) this.#fail('xml-malformed', 'the document has no element', 0);
    if (this.#stack.length > 0) this.#fail('xml-malformed', `the document ends before </${this.#stack[this.#stack.length - 1]!.qname}>`, 0);
  }

  #fail(code: XmlErrorCode, message: string, at: number): never {
    throw new XmlError(code, message, this.#consumed + at);
  }

  #scan(final: boolean): void {
    const buf = this.#buffer;
    let i = 0;
    while (i < buf.length) {
      const lt = buf.indexOf('<', i);
      if (lt !== i) {
        // text up to the next markup, or to the end of what arrived (more may follow)
        const end = lt < 0 ? buf.length : lt;
        if (lt < 0 && !final) {
          // text is passed on as it comes, never held; an entity cut by the chunk boundary waits for its ";"
          const amp = buf.lastIndexOf('&', end - 1);
          const cut = amp >= i && buf.indexOf(';', amp) < 0 ? amp : end;
          if (cut > i) this.#text(buf.slice(i, cut), i);
          i = cut;
          break;
        }
        this.#text(buf.slice(i, end), i);
        i = end;
        continue;
      }
      const close = this.#markupEnd(buf, i);
      if (close < 0) {
        if (buf.length - i > this.#limits.maxTokenLength) this.#fail('xml-too-long', `markup longer than ${this.#limits.maxTokenLength} characters`, i);
        break;
      }
      if (close - i > this.#limits.maxTokenLength) this.#fail('xml-too-long', `markup longer than ${this.#limits.maxTokenLength} characters`, i);
      this.#markup(buf.slice(i, close), i);
      i = close;
    }
    this.#consumed += i;
    this.#buffer = buf.slice(i);
  }

  /** The index just after the markup that starts at `i`, or -1 if it has not all arrived. */
  #markupEnd(buf: string, i: number): number {
    if (buf.startsWith('<!--', i)) { const e = buf.indexOf('-->', i + 4); return e < 0 ? -1 : e + 3; }
    if (buf.startsWith('<![CDATA[', i)) { const e = buf.indexOf(']]>', i + 9); return e < 0 ? -1 : e + 3; }
    if (buf.startsWith('<?', i)) { const e = buf.indexOf('?>', i + 2); return e < 0 ? -1 : e + 2; }
    if (buf.startsWith('<!', i)) {
      // XML 1.0 §2.8: a doctypedecl. Refused as soon as it is recognised, before any of it is read.
      if (buf.length - i < 9) return -1;
      if (buf.startsWith('<!DOCTYPE', i)) this.#fail('xml-doctype', 'a document type declaration is never read (its entities are never expanded)', i);
      this.#fail('xml-malformed', 'markup declarations are not allowed here', i);
    }
    // a tag: ">" outside quoted attribute values
    let quote = 0;
    for (let k = i + 1; k < buf.length; k++) {
      const c = buf.charCodeAt(k);
      if (quote !== 0) { if (c === quote) quote = 0; } else if (c === 0x22 || c === 0x27) quote = c;
      else if (c === 0x3e) return k + 1;
    }
    return -1;
  }

  #markup(m: string, at: number): void {
    if (m.startsWith('<!--')) return;
    if (m.startsWith('<?')) {
      // XML 1.0 §4.3.3: the declaration may name an encoding; only UTF-8 is read (OAI-PMH §3.2)
      if (/^<\?xml[\s?]/.test(m)) {
        if (at + this.#consumed !== 0) this.#fail('xml-malformed', 'the XML declaration is not at the start', at);
        const enc = /encoding\s*=\s*["']([^"']*)["']/.exec(m);
        if (enc !== null && !/^utf-?8$/i.test(enc[1]!)) this.#fail('xml-encoding', `the encoding ${enc[1]} is not UTF-8`, at);
      }
      return;
    }
    if (m.startsWith('<![CDATA[')) {
      if (this.#stack.length === 0) this.#fail('xml-malformed', 'character data outside the root element', at);
      this.#handler.text(m.slice(9, -3));
      return;
    }
    if (m.charCodeAt(1) === 0x2f) return this.#closeTag(m, at);
    this.#openTag(m, at);
  }

  #name(s: string, at: number): string {
    if (s.length === 0 || !isNameChar(s.charCodeAt(0), true)) this.#fail('xml-malformed', 'a tag without a name', at);
    for (let k = 1; k < s.length; k++) if (!isNameChar(s.charCodeAt(k), false)) this.#fail('xml-malformed', `"${s.slice(0, 40)}" is not a name`, at);
    return s;
  }

  #resolve(qname: string, at: number, attribute: boolean): XmlName {
    const colon = qname.indexOf(':');
    const prefix = colon < 0 ? '' : qname.slice(0, colon);
    const local = colon < 0 ? qname : qname.slice(colon + 1);
    // Namespaces in XML §6.2: an unprefixed attribute is in no namespace
    if (attribute && prefix === '') return { ns: '', local };
    const ns = this.#namespaces.get(prefix);
    if (ns === undefined) this.#fail('xml-malformed', `the prefix "${prefix}" is not declared`, at);
    return { ns, local };
  }

  #openTag(m: string, at: number): void {
    if (this.#ended) this.#fail('xml-malformed', 'a second root element', at);
    const selfClosing = m.endsWith('/>');
    const body = m.slice(1, selfClosing ? -2 : -1);
    let k = 0;
    while (k < body.length && !isSpace(body.charCodeAt(k))) k++;
    const qname = this.#name(body.slice(0, k), at);
    const raw: Array<[string, string]> = [];
    while (k < body.length) {
      while (k < body.length && isSpace(body.charCodeAt(k))) k++;
      if (k >= body.length) break;
      const eq = body.indexOf('=', k);
      if (eq < 0) this.#fail('xml-malformed', 'an attribute without a value', at + k);
      const aname = this.#name(body.slice(k, eq).trimEnd(), at + k);
      let v = eq + 1;
      while (v < body.length && isSpace(body.charCodeAt(v))) v++;
      const q = body.charAt(v);
      if (q !== '"' && q !== "'") this.#fail('xml-malformed', `the value of ${aname} is not quoted`, at + v);
      const endQ = body.indexOf(q, v + 1);
      if (endQ < 0) this.#fail('xml-malformed', `the value of ${aname} is not closed`, at + v);
      const value = body.slice(v + 1, endQ);
      if (value.includes('<')) this.#fail('xml-malformed', `"<" in the value of ${aname}`, at + v);
      if (raw.some(([n]) => n === aname)) this.#fail('xml-malformed', `the attribute ${aname} is repeated`, at + k);
      raw.push([aname, this.#entities(value, at + v + 1)]);
      if (raw.length > this.#limits.maxAttributes) this.#fail('xml-too-long', `more than ${this.#limits.maxAttributes} attributes`, at);
      k = endQ + 1;
      if (k < body.length && !isSpace(body.charCodeAt(k))) this.#fail('xml-malformed', 'attributes not separated by white space', at + k);
    }
    let bindings: Map<string, string> | undefined;
    const attrs = new Map<string, string>();
    for (const [n, v] of raw) {
      if (n === 'xmlns' || n.startsWith('xmlns:')) {
        bindings ??= new Map();
        bindings.set(n === 'xmlns' ? '' : n.slice(6), v);
      } else attrs.set(n, v);
    }
    if (this.#stack.length >= this.#limits.maxDepth) this.#fail('xml-too-deep', `elements nested more than ${this.#limits.maxDepth} deep`, at);
    if (bindings !== undefined) {
      const saved = new Map<string, string>();
      for (const [p, uri] of bindings) {
        saved.set(p, this.#namespaces.get(p) ?? '\u0000');
        this.#namespaces.set(p, uri);
      }
      bindings = saved;
    }
    const name = this.#resolve(qname, at, false);
    for (const n of attrs.keys()) if (n.includes(':')) this.#resolve(n, at, true);
    this.#sawRoot = true;
    this.#stack.push({ qname, name, bindings });
    this.#handler.open(name, attrs);
    if (selfClosing) this.#pop(at);
  }

  #closeTag(m: string, at: number): void {
    const qname = m.slice(2, -1).trimEnd();
    const top = this.#stack[this.#stack.length - 1];
    if (top === undefined || top.qname !== qname) this.#fail('xml-malformed', top === undefined ? `</${qname}> closes nothing` : `</${qname}> where </${top.qname}> was expected`, at);
    this.#pop(at);
  }

  #pop(_at: number): void {
    const top = this.#stack.pop()!;
    if (top.bindings !== undefined) for (const [p, uri] of top.bindings) { if (uri === '\u0000') this.#namespaces.delete(p); else this.#namespaces.set(p, uri); }
    this.#handler.close(top.name);
    if (this.#stack.length === 0) this.#ended = true;
  }

  #text(raw: string, at: number): void {
    if (this.#stack.length === 0) {
      if (raw.trim() !== '') this.#fail('xml-malformed', 'text outside the root element', at);
      return;
    }
    this.#handler.text(this.#entities(raw, at));
  }

  /** XML 1.0 §4.1, §4.6: character references and the predefined entities; any other entity is undeclared. */
  #entities(raw: string, at: number): string {
    if (!raw.includes('&')) return raw;
    let out = '';
    let k = 0;
    for (;;) {
      const amp = raw.indexOf('&', k);
      if (amp < 0) return out + raw.slice(k);
      out += raw.slice(k, amp);
      const semi = raw.indexOf(';', amp);
      if (semi < 0 || semi - amp > 12) this.#fail('xml-malformed', '"&" that begins no reference', at + amp);
      const ref = raw.slice(amp + 1, semi);
      if (ref.charCodeAt(0) === 0x23) {
        const cp = ref.charCodeAt(1) === 0x78 ? (/^x[0-9a-fA-F]+$/.test(ref.slice(1)) ? parseInt(ref.slice(2), 16) : NaN) : (/^[0-9]+$/.test(ref.slice(1)) ? parseInt(ref.slice(1), 10) : NaN);
        if (!isXmlChar(cp)) this.#fail('xml-malformed', `&${ref}; is not a character`, at + amp);
        out += String.fromCodePoint(cp);
      } else {
        const v = PREDEFINED[ref];
        if (v === undefined || !Object.hasOwn(PREDEFINED, ref)) this.#fail('xml-entity', `the entity &${ref}; is not declared (no DTD is read)`, at + amp);
        out += v;
      }
      k = semi + 1;
    }
  }
}
