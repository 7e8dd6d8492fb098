/**
 * Walking the parse5 tree: elements in tree order, template contents
 * included (their links are still links of the document's text).
 */
import type { DefaultTreeAdapterTypes } from 'parse5';

/** A parse5 element. */
export type Element = DefaultTreeAdapterTypes.Element;
type ParentNode = DefaultTreeAdapterTypes.ParentNode;

/**
 * Calls `visit` on every element under `root` in tree order, iteratively
 * (deep documents do not overflow the stack); stops when `visit` returns false.
 *
 * @example
 * ```ts
 * import { parse } from 'parse5';
 * const names: string[] = [];
 * walk(parse('<a href=x>'), (el) => { names.push(el.tagName); return true; });
 * names // ["html", "head", "body", "a"]
 * ```
 */
export function walk(root: ParentNode, visit: (el: Element) => boolean): void {
  const stack: ParentNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if ('tagName' in node) {
      if (!visit(node as Element)) return;
    }
    const kids = 'content' in node && node.content ? node.content.childNodes : node.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) {
      const k = kids[i]!;
      if ('childNodes' in k) stack.push(k as ParentNode);
    }
  }
}

/**
 * The value of attribute `name` (lower case) of `el`, or undefined.
 *
 * @example
 * ```ts
 * import { parseFragment } from 'parse5';
 * const el = parseFragment('<a href=x>').childNodes[0] as Element;
 * attribute(el, 'href') // "x"
 * ```
 */
export function attribute(el: Element, name: string): string | undefined {
  for (const a of el.attrs) if (a.name === name && a.namespace === undefined) return a.value;
  return undefined;
}
