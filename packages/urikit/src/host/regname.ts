/**
 * Registered names (RFC 3986 §3.2.2 `reg-name`) and the stricter DNS host
 * name of the 2003 draft §3.2.2 (`hostname`, after RFC 1034 §3 and
 * RFC 1123 §2.1), checked on request.
 */
import { UriError } from '../errors.js';
import { CLASS, REG_NAME, isAlpha, isAlphanum, isLdh, isPctEncoded, ucscharLength } from '../chars.js';
import { HOST_NAME_MESSAGES, registerMessages } from '../messages.js';

// The messages of the host name codes this module throws (messages.ts).
registerMessages(HOST_NAME_MESSAGES);

/**
 * The longest DNS name in text form without its trailing dot
 * (RFC 1034 §3.1, https://www.rfc-editor.org/rfc/rfc1034#section-3.1: 255 octets on the wire).
 *
 * @example
 * ```ts
 * isHostname('a'.repeat(MAX_LABEL_LENGTH) + '.com') // true
 * ```
 */
export const MAX_HOSTNAME_LENGTH = 253;
/**
 * The longest DNS label (RFC 1034 §3.1, 2003 draft §3.2.2 `0*61( alphanum | "-" )` between two alphanums).
 *
 * @example
 * ```ts
 * isHostname('a'.repeat(MAX_LABEL_LENGTH + 1)) // false
 * ```
 */
export const MAX_LABEL_LENGTH = 63;

/**
 * Index of the first character of `text[start, end)` that breaks
 * `reg-name = *( unreserved / pct-encoded / sub-delims )` (RFC 3986 §3.2.2),
 * or -1 when the whole range is a reg-name.
 *
 * @example
 * ```ts
 * findRegNameError('example.com') // -1
 * findRegNameError('a b') // 1
 * ```
 */
export function findRegNameError(text: string, start = 0, end = text.length): number {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 128 && (CLASS[c]! & REG_NAME) !== 0) continue;
    if (c === 0x25 && i + 2 < end && isPctEncoded(text, i)) {
      i += 2;
      continue;
    }
    return i;
  }
  return -1;
}

/**
 * Index of the first character of `text[start, end)` that breaks the IRI
 * form of a reg-name, or -1 (RFC 3987 §2.2).
 *
 * ```text
 * ireg-name   = *( iunreserved / pct-encoded / sub-delims )
 * iunreserved = ALPHA / DIGIT / "-" / "." / "_" / "~" / ucschar
 * ```
 *
 * @example
 * ```ts
 * findIRegNameError('bücher.example') // -1
 * findIRegNameError('a\u200Eb') // -1 (U+200E is a ucschar; bidi rules are RFC 3987 §4.1's business)
 * ```
 */
export function findIRegNameError(text: string, start = 0, end = text.length): number {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if ((CLASS[c]! & REG_NAME) !== 0) continue;
      if (c === 0x25 && i + 2 < end && isPctEncoded(text, i)) {
        i += 2;
        continue;
      }
      return i;
    }
    const n = ucscharLength(text, i, false);
    if (n === 0) return i;
    i += n - 1;
  }
  return -1;
}


/**
 * Index of the first character that breaks the 2003 draft's `hostname`
 * rule (§3.2.2) or the DNS length limits, or -1 when `name` is a host name.
 *
 * ```text
 * hostname    = domainlabel qualified
 * qualified   = *( "." domainlabel ) [ "." toplabel "." ]
 * domainlabel = alphanum [ 0*61( alphanum | "-" ) alphanum ]
 * toplabel    = alpha [ 0*61( alphanum | "-" ) alphanum ]
 * ```
 *
 * So: labels of letters, digits and inner hyphens, 1–63 characters; the
 * name at most 253 characters (RFC 1034 §3.1); a trailing "." only after
 * two labels or more, the last beginning with a letter (`example.com.`,
 * not `example.` nor `a.1.`).
 */
function findHostnameError(name: string): number {
  const end = name.length;
  if (end === 0) return 0;
  // A trailing dot is not counted in the 253 (it stands for the root label).
  const trailingDot = name.charCodeAt(end - 1) === 0x2e;
  const last = trailingDot ? end - 1 : end;
  if (last > MAX_HOSTNAME_LENGTH) return MAX_HOSTNAME_LENGTH;
  let labelStart = 0;
  for (let i = 0; i <= last; i++) {
    const c = i < last ? name.charCodeAt(i) : 0x2e;
    if (c === 0x2e) {
      const len = i - labelStart;
      if (len === 0) return i; // an empty label (leading dot or "..")
      if (len > MAX_LABEL_LENGTH) return labelStart + MAX_LABEL_LENGTH;
      if (!isAlphanum(name.charCodeAt(labelStart))) return labelStart;
      if (!isAlphanum(name.charCodeAt(i - 1))) return i - 1;
      // qualified = ... [ "." toplabel "." ]: a trailing "." follows a
      // toplabel (beginning with ALPHA) that follows a domainlabel and ".".
      if (i === last && trailingDot) {
        if (labelStart === 0) return last;
        if (!isAlpha(name.charCodeAt(labelStart))) return labelStart;
      }
      labelStart = i + 1;
      continue;
    }
    if (!isLdh(c)) return i;
  }
  return -1;
}

/**
 * Throws a {@link UriError} `bad-hostname` (with the offset of the first
 * offending character) unless `name` is a DNS host name per the 2003
 * draft §3.2.2 `hostname` rule: letters, digits and inner hyphens, labels
 * of 1–63 characters, at most 253 in all, an optional trailing dot
 * (https://www.rfc-editor.org/rfc/rfc1123#section-2.1).
 *
 * @example
 * ```ts
 * checkHostname('www.example.com.') // undefined (a host name: nothing thrown)
 * checkHostname('-bad.example') // throws UriError('bad-hostname', 0)
 * ```
 */
export function checkHostname(name: string): void {
  const at = findHostnameError(name);
  if (at >= 0) throw new UriError('bad-hostname', at, name);
}

/**
 * True if `name` is a DNS host name per the 2003 draft §3.2.2 `hostname`
 * rule and the RFC 1034 §3.1 length limits (https://www.rfc-editor.org/rfc/rfc1034#section-3.1).
 *
 * @example
 * ```ts
 * isHostname('a--b.com') // true
 * isHostname('host_name') // false
 * ```
 */
export function isHostname(name: string): boolean {
  if (typeof name !== 'string') return false;
  return findHostnameError(name) < 0;
}
