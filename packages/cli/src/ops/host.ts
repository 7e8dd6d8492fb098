/**
 * The `host` operation: what a host is (2003 draft §3.2.2), what a rare
 * IPv4 form really names (§7.3), its class, and its IDNA forms (UTS #46).
 */
import { classifyHost, domainToASCII, domainToUnicode, interpretLegacyIPv4, parse, parseHost } from 'urikit';
import { describe, invalid, optional, plain, type Op, type Problem } from './outcome.js';


/** Picks the host out of a URI with an authority; otherwise the input is the host. */
function hostOf(input: string): string {
  // RFC 3986 §3: scheme ":" "//" authority; a plain scan, no regular expression.
  const colon = input.indexOf('://');
  if (colon > 0 && isSchemeText(input, colon)) {
    const ref = parse(input, 'uri-reference');
    return ref.host ?? '';
  }
  return input;
}

function isSchemeText(s: string, end: number): boolean {
  for (let i = 0; i < end; i++) {
    const c = s.charCodeAt(i) | 0x20;
    const alpha = c >= 0x61 && c <= 0x7a;
    if (i === 0 ? !alpha : !(alpha || (s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39) || s[i] === '+' || s[i] === '-' || s[i] === '.')) return false;
  }
  return true;
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** A 32-bit IPv4 address as dotted decimal (RFC 3986 §3.2.2 `IPv4address`). */
function dottedQuad(n: number): string {
  return `${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

/**
 * `host`: what a host is (2003 draft §3.2.2), what it really names (§7.3), its class and IDNA forms.
 *
 * @example
 * ```ts
 * hostOp('0x7f.1', {}).record
 * // matches { valid: true, host: '0x7f.1', kind: 'reg-name', legacyIPv4: { address: '127.0.0.1', number: 2130706433 }, class: 'loopback' }
 * hostOp('http://[2001:DB8::1]/', {}).text
 * // 'host: [2001:DB8::1]\nkind: ipv6\ncanonical (RFC 5952): 2001:db8::1\nclass: documentation'
 * ```
 */
export const hostOp: Op = (input) => {
  let host: string;
  try {
    host = hostOf(input);
  } catch (e) {
    return invalid(e);
  }
  let parsed = optional(() => parseHost(host));
  let idnaFirst: { value?: string; problem?: Problem } = {};
  if (parsed.problem && !isAscii(host)) {
    // An internationalized name: a URI carries its A-label form (RFC 3987 §3.1, UTS #46).
    idnaFirst = optional(() => domainToASCII(host));
    if (idnaFirst.value !== undefined) parsed = optional(() => parseHost(idnaFirst.value!));
    else if (idnaFirst.problem) parsed = { problem: idnaFirst.problem };
  }
  // What inet_aton or a browser reads (the URL Standard also reads an empty "0x" as 0).
  const legacy = optional(() => interpretLegacyIPv4(host, { reader: 'url' }));
  const klass = optional(() => classifyHost(host));
  const shape = (parsed.value ?? {}) as { kind?: string; text?: string };
  const legacyNumber = typeof legacy.value === 'number' ? legacy.value : undefined;
  const isName = shape.kind === 'reg-name' && legacyNumber === undefined && host !== '';
  const ascii = idnaFirst.value !== undefined ? idnaFirst : isName ? optional(() => domainToASCII(host)) : {};
  const unicode = isName ? optional(() => domainToUnicode(host)) : {};
  const record: Record<string, unknown> = { host };
  const lines: string[] = [`host: ${host}`];
  if (shape.kind !== undefined) { record.kind = shape.kind; lines.push(`kind: ${shape.kind}`); }
  if (parsed.value !== undefined) record.parsed = plain(parsed.value);
  if (shape.kind === 'ipv6' && shape.text !== undefined) lines.push(`canonical (RFC 5952): ${shape.text}`);
  if (legacyNumber !== undefined && shape.kind !== 'ipv4') {
    record.legacyIPv4 = { address: dottedQuad(legacyNumber), number: legacyNumber };
    lines.push(`legacy IPv4 (2003 draft §7.3): ${dottedQuad(legacyNumber)} (${legacyNumber})`);
  }
  if (klass.value !== undefined) { record.class = plain(klass.value); lines.push(`class: ${describe(klass.value)}`); }
  if (ascii.value !== undefined) { record.ascii = ascii.value; lines.push(`ascii: ${ascii.value}`); }
  if (unicode.value !== undefined) { record.unicode = unicode.value; lines.push(`unicode: ${unicode.value}`); }
  if (ascii.problem) { record.idnaError = ascii.problem; lines.push(`idna: ${ascii.problem.code}: ${ascii.problem.message}`); }
  const problem = parsed.problem && legacyNumber === undefined ? parsed.problem : undefined;
  if (problem) return { ok: false, text: lines.join('\n'), record: { valid: false, ...record, error: problem }, problem };
  return { ok: true, text: lines.join('\n'), record: { valid: true, ...record } };
};
