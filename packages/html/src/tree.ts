/**
 * Walking the parse5 tree: elements in tree order, template contents
 * included (their links are still links of the document's text) and
 * marked as such.
 */
import type { DefaultTreeAdapterTypes } from 'parse5';

/** A parse5 element. */
export type Element = DefaultTreeAdapterTypes.Element;
type ParentNode = DefaultTreeAdapterTypes.ParentNode;

/** The namespaces of the HTML parser (HTML Living Standard, "Namespaces"). */
export const HTML_NS = 'http://www.w3.org/1999/xhtml';
export const SVG_NS = 'http://www.w3.org/2000/svg';
export const XLINK_NS = 'http://www.w3.org/1999/xlink';

/**
 * Calls `visit` on every element under `root` in tree order, iteratively
 * (deep documents do not overflow the stack), with `inTemplate` true for
 * the elements of a `<template>`'s contents (a separate document fragment
 * in HTML, inert until the template is used); stops when `visit` returns
 * false.
 *
 * @example
 * ```ts
 * import { parse } from 'parse5';
 * const names: string[] = [];
 * walk(parse('<a href=x><template><img src=y></template>'), (el, inTemplate) => { names.push(inTemplate ? `(${el.tagName})` : el.tagName); return true; });
 * names // ["html", "head", "body", "a", "template", "(img)"]
 * ```
 */
export function walk(root: ParentNode, visit: (el: Element, inTemplate: boolean) => boolean): void {
  const stack: Array<[ParentNode, boolean]> = [[root, false]];
  while (stack.length > 0) {
    const [node, inTemplate] = stack.pop()!;
    if ('tagName' in node) {
      if (!visit(node as Element, inTemplate)) return;
    }
    const template = 'content' in node && node.content !== undefined;
    const kids = template ? node.content!.childNodes : node.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) {
      const k = kids[i]!;
      if ('childNodes' in k) stack.push([k as ParentNode, inTemplate || template]);
    }
  }
}

/**
 * The value of attribute `name` (lower case, no namespace) of `el`, or undefined.
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
