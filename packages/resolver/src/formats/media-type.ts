/**
 * The syntax of a media type as a record's location carries it: the
 * names of RFC 6838 §4.2 and the parameters of RFC 9110 §8.3.1, checked
 * in one pass so that a bad one is refused with the offset of its first
 * wrong character (a `text/html"><script>` never reaches a page).
 */

// RFC 6838 §4.2:
//   restricted-name-first = ALPHA / DIGIT
const NAME_FIRST = new Uint8Array(128);
for (let c = 0x30; c <= 0x39; c++) NAME_FIRST[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) { NAME_FIRST[c] = 1; NAME_FIRST[c + 0x20] = 1; }
//   restricted-name-chars = ALPHA / DIGIT / "!" / "#" / "$" / "&" / "-" / "^" / "_" / "." / "+"
const NAME_CHAR = new Uint8Array(NAME_FIRST);
for (const ch of '!#$&-^_.+') NAME_CHAR[ch.charCodeAt(0)] = 1;

// RFC 9110 §5.6.2: tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
const TCHAR = new Uint8Array(NAME_FIRST);
for (const ch of "!#$%&'*+-.^_`|~") TCHAR[ch.charCodeAt(0)] = 1;

// RFC 9110 §5.6.4: qdtext = HTAB / SP / %x21 / %x23-5B / %x5D-7E (obs-text left out: a location's type is ASCII)
const QDTEXT = new Uint8Array(128);
QDTEXT[0x09] = 1;
for (let c = 0x20; c <= 0x7e; c++) QDTEXT[c] = 1;
QDTEXT[0x22] = 0;
QDTEXT[0x5c] = 0;

/** RFC 6838 §4.2: at most 127 characters a name. */
const MAX_NAME = 127;

/**
 * Where a media type breaks the grammar: the offset of the first wrong
 * character and what was expected there.
 *
 * @example
 * ```ts
 * const e: MediaTypeError | undefined = mediaTypeError('text/html"><script>');
 * e?.offset; // 9
 * ```
 */
export interface MediaTypeError {
  offset: number;
  reason: string;
}

/** The end of a restricted-name starting at `i` (RFC 6838 §4.2), or the error. */
function restrictedName(s: string, i: number, what: string): number | MediaTypeError {
  const c = s.charCodeAt(i);
  if (!(c < 128 && NAME_FIRST[c])) return { offset: i, reason: `a ${what} name begins with a letter or a digit (RFC 6838 §4.2)` };
  let j = i + 1;
  while (j < s.length) {
    const d = s.charCodeAt(j);
    if (!(d < 128 && NAME_CHAR[d])) break;
    j++;
  }
  if (j - i > MAX_NAME) return { offset: i + MAX_NAME, reason: `a ${what} name is at most ${MAX_NAME} characters (RFC 6838 §4.2)` };
  return j;
}

/** Skips OWS = *( SP / HTAB ) (RFC 9110 §5.6.3). */
function ows(s: string, i: number): number {
  while (i < s.length && (s.charCodeAt(i) === 0x20 || s.charCodeAt(i) === 0x09)) i++;
  return i;
}

/**
 * Checks `type "/" subtype *( OWS ";" OWS [ parameter ] )` (RFC 9110
 * §8.3.1, names by RFC 6838 §4.2); undefined when it is well formed,
 * else the offset of the first wrong character.
 *
 * @example
 * ```ts
 * mediaTypeError('text/html; charset=utf-8'); // undefined
 * mediaTypeError('application/vnd.api+json'); // undefined
 * mediaTypeError('text/html"><script>')?.offset; // 9
 * mediaTypeError('text')?.offset; // 4
 * ```
 */
export function mediaTypeError(s: string): MediaTypeError | undefined {
  let i = restrictedName(s, 0, 'type');
  if (typeof i !== 'number') return i;
  if (s.charCodeAt(i) !== 0x2f) return { offset: i, reason: 'a media type is type "/" subtype' };
  i = restrictedName(s, i + 1, 'subtype');
  if (typeof i !== 'number') return i;
  // parameters = *( OWS ";" OWS [ parameter ] )
  for (;;) {
    const before = i;
    i = ows(s, i);
    if (i === s.length) return before === s.length ? undefined : { offset: before, reason: 'no white space at the end of a media type' };
    if (s.charCodeAt(i) !== 0x3b) return { offset: i, reason: before === i ? 'a subtype name is letters, digits and !#$&-^_.+ (RFC 6838 §4.2)' : 'parameters follow ";"' };
    i = ows(s, i + 1);
    if (i === s.length || s.charCodeAt(i) === 0x3b) continue;
    // parameter = parameter-name "=" parameter-value; parameter-name = token
    const nameStart = i;
    while (i < s.length && s.charCodeAt(i) < 128 && TCHAR[s.charCodeAt(i)]) i++;
    if (i === nameStart) return { offset: i, reason: 'a parameter name is a token (RFC 9110 §5.6.2)' };
    if (s.charCodeAt(i) !== 0x3d) return { offset: i, reason: 'a parameter is name "=" value' };
    i++;
    // parameter-value = token / quoted-string
    if (s.charCodeAt(i) === 0x22) {
      i++;
      for (;;) {
        if (i >= s.length) return { offset: i, reason: 'a quoted string ends with \'"\'' };
        const c = s.charCodeAt(i);
        if (c === 0x22) { i++; break; }
        if (c === 0x5c) {
          // quoted-pair = "\" ( HTAB / SP / VCHAR )
          const n = s.charCodeAt(i + 1);
          if (!(n === 0x09 || (n >= 0x20 && n <= 0x7e))) return { offset: i + 1, reason: 'a "\\" quotes a visible character, a space or a tab' };
          i += 2;
          continue;
        }
        if (!(c < 128 && QDTEXT[c])) return { offset: i, reason: 'a quoted string holds visible US-ASCII characters, spaces and tabs' };
        i++;
      }
    } else {
      const valueStart = i;
      while (i < s.length && s.charCodeAt(i) < 128 && TCHAR[s.charCodeAt(i)]) i++;
      if (i === valueStart) return { offset: i, reason: 'a parameter value is a token or a quoted string (RFC 9110 §5.6.2, §5.6.4)' };
    }
  }
}
