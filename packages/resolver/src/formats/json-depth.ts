/**
 * The nesting depth of JSON text, measured before it is parsed (RFC 8259
 * §9: "An implementation may set limits on the maximum depth of
 * nesting"): a deep value is cheap to send and costly to walk, and every
 * recursive step after the parser (serializing it included) would fail
 * with a stack overflow.
 */

/**
 * The offset of the first `[` or `{` that opens level `maxDepth + 1` of
 * `text`, outside strings; -1 when the text never goes that deep. One
 * pass, no recursion; the text need not be valid JSON (the parser says
 * what else is wrong with it).
 *
 * @example
 * ```ts
 * jsonTooDeepAt('{"a":[[1]]}', 3); // -1
 * jsonTooDeepAt('{"a":[[1]]}', 2); // 6
 * jsonTooDeepAt('"[[[[["', 1); // -1 (inside a string)
 * ```
 */
export function jsonTooDeepAt(text: string, maxDepth: number): number {
  // Text with no more opening brackets than the limit cannot pass it: counted
  // with the native indexOf, this settles the usual short record (an import
  // line) without the walk below.
  let opening = 0;
  for (let i = text.indexOf('['); i >= 0 && opening <= maxDepth; i = text.indexOf('[', i + 1)) opening++;
  for (let i = text.indexOf('{'); i >= 0 && opening <= maxDepth; i = text.indexOf('{', i + 1)) opening++;
  if (opening <= maxDepth) return -1;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return i;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return -1;
}

/**
 * True when a parsed JSON value nests arrays and objects more than
 * `maxDepth` levels deep (the value itself, if an array or object, is
 * level 1); walked with an explicit stack, never recursively, and only
 * as deep as `maxDepth + 1`.
 *
 * @example
 * ```ts
 * jsonDeeperThan({ a: [[1]] }, 3); // false
 * jsonDeeperThan({ a: [[1]] }, 2); // true
 * jsonDeeperThan('text', 0); // false
 * ```
 */
export function jsonDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 1 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > maxDepth) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push({ v: child, depth: depth + 1 });
    }
  }
  return false;
}
