/**
 * Which attributes of which HTML elements hold URI references (HTML Living
 * Standard, "Attributes" index; HTML 4.01 §B.2 for the older ones), and how
 * each value is read: one reference, a space-separated list, or a
 * `srcset` candidate list.
 */

/**
 * How an attribute's value holds references: one URL, a space-separated
 * list, or a `srcset` candidate list (HTML Living Standard, "Attributes"
 * index).
 *
 * @example
 * ```ts
 * const kind: UrlAttributeKind = 'urls';
 * URL_ATTRIBUTES.get('a')?.get('ping') === kind // true
 * ```
 */
export type UrlAttributeKind = 'url' | 'urls' | 'srcset';

/**
 * `element -> attribute -> kind`, lower case; `*` is any element.
 *
 * @example
 * ```ts
 * URL_ATTRIBUTES.get('img')?.get('srcset') // "srcset"
 * ```
 */
export const URL_ATTRIBUTES: ReadonlyMap<string, ReadonlyMap<string, UrlAttributeKind>> = new Map(
  Object.entries({
    a: { href: 'url', ping: 'urls' },
    area: { href: 'url', ping: 'urls' },
    link: { href: 'url', imagesrcset: 'srcset' },
    img: { src: 'url', srcset: 'srcset', longdesc: 'url', usemap: 'url' },
    source: { src: 'url', srcset: 'srcset' },
    script: { src: 'url' },
    iframe: { src: 'url', longdesc: 'url' },
    frame: { src: 'url', longdesc: 'url' },
    embed: { src: 'url' },
    audio: { src: 'url' },
    video: { src: 'url', poster: 'url' },
    track: { src: 'url' },
    input: { src: 'url', formaction: 'url' },
    button: { formaction: 'url' },
    form: { action: 'url' },
    blockquote: { cite: 'url' },
    q: { cite: 'url' },
    del: { cite: 'url' },
    ins: { cite: 'url' },
    object: { data: 'url', codebase: 'url', classid: 'url', archive: 'urls', usemap: 'url' },
    applet: { codebase: 'url' },
    body: { background: 'url' },
    table: { background: 'url' },
    td: { background: 'url' },
    th: { background: 'url' },
    head: { profile: 'urls' },
    html: { manifest: 'url' },
    command: { icon: 'url' },
    menuitem: { icon: 'url' },
  }).map(([el, attrs]) => [el, new Map(Object.entries(attrs) as [string, UrlAttributeKind][])]),
);

/**
 * The SVG elements whose `href` (SVG 2) or `xlink:href` (SVG 1.1) names
 * another resource, as SVG 2's SVGURIReference gives it to them:
 * hyperlinks (`a`), images (`image`, `feImage`), external references
 * (`use`), scripts, text paths and motion paths (`textPath`, `mpath`),
 * paint servers (`linearGradient`, `radialGradient`, `pattern`) and
 * filters (SVG 2, "The SVGURIReference interface" and the elements that
 * implement it; Filter Effects 1, the `filter` and `feImage` elements).
 * Not the animation elements (`animate`, `set`, ...), whose `href` names
 * their target element in the same document (SVG Animations, "Identifying
 * the target element"), nor SVG 1.1's `tref`,
 * `cursor`, `altGlyph`, `glyphRef`, `font-face-uri` and `color-profile`,
 * which browsers do not read. Element names as the HTML parser adjusts
 * them (`feImage`, `textPath`, `linearGradient`).
 *
 * @example
 * ```ts
 * SVG_URL_ATTRIBUTES.get('a')?.get('href') // "url"
 * SVG_URL_ATTRIBUTES.has('textPath') // true
 * SVG_URL_ATTRIBUTES.has('animate') // false
 * ```
 */
export const SVG_URL_ATTRIBUTES: ReadonlyMap<string, ReadonlyMap<string, UrlAttributeKind>> = new Map(
  ['a', 'image', 'feImage', 'use', 'script', 'textPath', 'mpath', 'linearGradient', 'radialGradient', 'pattern', 'filter'].map((el) => [
    el,
    new Map([['href', 'url' as UrlAttributeKind]]),
  ]),
);
