/**
 * Metadata shown to people (HTML, plain text, the web page, the
 * gateway's pages) in a bounded size and a bounded indentation, whatever
 * the record holds: a record planted before the store's limits, nested
 * thousands of levels deep or wide, must cost an anonymous reader no more
 * than its own size, and never a stack overflow. One iterative pass;
 * what is cut is marked so that a reader sees it.
 */

/**
 * The limits of {@link boundedJson}.
 *
 * @example
 * ```ts
 * const limits: BoundedJsonLimits = { maxChars: 1024, maxDepth: 8, maxIndent: 4 };
 * boundedJson({ a: [1, 2] }, limits).text; // '{\n  "a": [\n    1,\n    2\n  ]\n}'
 * ```
 */
export interface BoundedJsonLimits {
  /** Characters of output at most, the marker aside (default 65,536). */
  maxChars?: number;
  /** Levels shown; a deeper array or object is written `[…]` / `{…}` (default 32). */
  maxDepth?: number;
  /** Levels that indent; deeper ones stay at this indentation (default 8), so that depth does not multiply size. */
  maxIndent?: number;
}

/**
 * What {@link boundedJson} wrote, and whether anything was left out.
 *
 * @example
 * ```ts
 * const r: BoundedJson = boundedJson([[[[1]]]], { maxDepth: 2 });
 * r.text; // '[\n  [\n    […]\n  ]\n]\n… truncated: nested deeper than 2 levels'
 * r.truncated; // true
 * ```
 */
export interface BoundedJson {
  text: string;
  truncated: boolean;
}

/** The marker that ends a cut text. */
function marker(chars: boolean, depth: boolean, maxChars: number, maxDepth: number): string {
  const why = [chars ? `longer than ${maxChars.toLocaleString('en')} characters` : '', depth ? `nested deeper than ${maxDepth} levels` : ''].filter((x) => x !== '');
  return `\n… truncated: ${why.join(', ')}`;
}

type Frame = { kind: 'value'; v: unknown; depth: number; prefix: string } | { kind: 'text'; s: string };

/**
 * `value` as indented JSON text (as `JSON.stringify(value, null, 2)`
 * writes it) within the limits: at most `maxChars` characters, arrays and
 * objects below `maxDepth` written `[…]` / `{…}`, indentation stopping
 * at `maxIndent` levels; a marker line says what was cut. The work is
 * linear in the output, which is capped: a value of any size or depth
 * costs at most `maxChars` characters of work past the part shown.
 *
 * @example
 * ```ts
 * boundedJson({ title: 'T', n: [1, 2] }).text; // '{\n  "title": "T",\n  "n": [\n    1,\n    2\n  ]\n}'
 * boundedJson('x'.repeat(100), { maxChars: 10 }).text; // '"xxxxxxxxx\n… truncated: longer than 10 characters'
 * ```
 */
export function boundedJson(value: unknown, limits: BoundedJsonLimits = {}): BoundedJson {
  const maxChars = limits.maxChars ?? 65_536;
  const maxDepth = limits.maxDepth ?? 32;
  const maxIndent = limits.maxIndent ?? 8;
  let out = '';
  let cutDepth = false;
  const indent = (depth: number) => '  '.repeat(Math.min(depth, maxIndent));
  // An explicit stack of what is left to write, last first.
  const stack: Frame[] = [{ kind: 'value', v: value, depth: 0, prefix: '' }];
  while (stack.length > 0 && out.length <= maxChars) {
    const f = stack.pop()!;
    if (f.kind === 'text') { out += f.s; continue; }
    out += f.prefix;
    const v = f.v;
    if (v === null || typeof v !== 'object') {
      // JSON.stringify of a scalar: a string's length is its own, capped below.
      const s = typeof v === 'string' && v.length > maxChars ? JSON.stringify(v.slice(0, maxChars)) : JSON.stringify(v) ?? 'null';
      out += s;
      continue;
    }
    const isArray = Array.isArray(v);
    const open = isArray ? '[' : '{';
    const close = isArray ? ']' : '}';
    if (f.depth >= maxDepth) { out += `${open}…${close}`; cutDepth = true; continue; }
    const entries: Array<[string | undefined, unknown]> = isArray ? (v as unknown[]).map((x) => [undefined, x]) : Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) { out += `${open}${close}`; continue; }
    out += open;
    stack.push({ kind: 'text', s: `\n${indent(f.depth)}${close}` });
    // Pushed last first; a wide value is walked only as far as the output goes.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, child] = entries[i]!;
      if (i < entries.length - 1) stack.push({ kind: 'text', s: ',' });
      stack.push({ kind: 'value', v: child, depth: f.depth + 1, prefix: `\n${indent(f.depth + 1)}${k !== undefined ? `${JSON.stringify(k)}: ` : ''}` });
    }
  }
  const cutChars = out.length > maxChars || stack.length > 0;
  if (!cutChars && !cutDepth) return { text: out, truncated: false };
  return { text: `${cutChars ? out.slice(0, maxChars) : out}${marker(cutChars, cutDepth, maxChars, maxDepth)}`, truncated: true };
}

/**
 * A string cut to `max` characters with a visible marker when it is
 * longer (a single value of a record, as plain text or HTML shows it).
 *
 * @example
 * ```ts
 * boundedText('abcdef', 3); // 'abc… (truncated: 6 characters)'
 * boundedText('abc', 3); // 'abc'
 * ```
 */
export function boundedText(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}… (truncated: ${s.length.toLocaleString('en')} characters)`;
}
