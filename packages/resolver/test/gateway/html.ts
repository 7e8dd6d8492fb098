/** Reading the gateway's and the page's HTML in tests, with a real HTML parser (parse5). */
import { parse } from 'parse5';

interface Node { nodeName: string; attrs?: { name: string; value: string }[]; childNodes?: Node[]; value?: string }

/** Every element named `tag` under `root`, in document order. */
function all(root: Node, tag: string, out: Node[] = []): Node[] {
  if (root.nodeName === tag) out.push(root);
  for (const c of root.childNodes ?? []) all(c, tag, out);
  return out;
}

/** The text content of a node. */
function text(node: Node): string {
  if (node.nodeName === '#text') return node.value ?? '';
  return (node.childNodes ?? []).map(text).join('');
}

/** The links of a document: href and text, in order. */
export function links(html: string): { href: string; text: string }[] {
  const doc = parse(html) as unknown as Node;
  return all(doc, 'a').map((a) => ({ href: a.attrs?.find((x) => x.name === 'href')?.value ?? '', text: text(a) }));
}

/** Every element of the document, by tag name (to check that hostile input made none). */
export function elements(html: string, tag: string): number {
  return all(parse(html) as unknown as Node, tag).length;
}

/** The attribute names used anywhere in the document. */
export function attributeNames(html: string): Set<string> {
  const names = new Set<string>();
  const walk = (n: Node) => { for (const a of n.attrs ?? []) names.add(a.name); for (const c of n.childNodes ?? []) walk(c); };
  walk(parse(html) as unknown as Node);
  return names;
}

/** The text of the whole document. */
export function documentText(html: string): string {
  return text(parse(html) as unknown as Node);
}
