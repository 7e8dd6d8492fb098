/**
 * Writing CSV (RFC 4180 §2): records end in CRLF; a field that holds a
 * comma, a double quote, CR or LF is enclosed in double quotes, with each
 * double quote doubled. The reports of the admin API are written with it.
 */

/** RFC 4180 §2 rule 6: these characters force a field into quotes. */
function needsQuotes(field: string): boolean {
  for (let i = 0; i < field.length; i++) {
    const c = field.charCodeAt(i);
    if (c === 0x2c || c === 0x22 || c === 0x0d || c === 0x0a) return true;
  }
  return false;
}

/**
 * One CSV field (RFC 4180 §2 rules 5-7); numbers and absent values too.
 *
 * @example
 * ```ts
 * csvField('a "b", c'); // '"a ""b"", c"'
 * csvField(undefined); // ''
 * ```
 */
export function csvField(value: string | number | undefined | null): string {
  if (value === undefined || value === null) return '';
  const s = String(value);
  return needsQuotes(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * A CSV document: a header record, then one record per row, each ending in
 * CRLF (RFC 4180 §2 rules 1-3).
 *
 * @example
 * ```ts
 * toCsv(['day', 'count'], [['2026-01-01', 3]]); // 'day,count\r\n2026-01-01,3\r\n'
 * ```
 */
export function toCsv(header: readonly string[], rows: Iterable<ReadonlyArray<string | number | undefined | null>>): string {
  let out = header.map(csvField).join(',') + '\r\n';
  for (const row of rows) out += row.map(csvField).join(',') + '\r\n';
  return out;
}
