/**
 * The documentation in layers (STYLE §17): a short front page that shows
 * the two commands in its first screen and links every page of docs/, and
 * pages whose relative links lead somewhere. A page added to docs/ without
 * a link from README.md, or a link to a moved section, fails here.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { ROOT } from './harness.js';
import { headingSlugs, markdownFiles, relativeLinks } from './markdown.js';

const files = markdownFiles();
const text = new Map(files.map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));

/** The root-relative file a link of `from` names, and its fragment. */
function target(from: string, href: string): { file: string; fragment: string | undefined } {
  const hash = href.indexOf('#');
  const path = hash < 0 ? href : href.slice(0, hash);
  const fragment = hash < 0 ? undefined : decodeURIComponent(href.slice(hash + 1));
  const file = path === '' ? from : relative(ROOT, normalize(join(ROOT, dirname(from), decodeURIComponent(path))));
  return { file, fragment };
}

describe('README.md, the front page', () => {
  const readme = text.get('README.md') ?? '';
  it('is short: at most 250 lines', () => expect(readme.split('\n').length).toBeLessThanOrEqual(250));
  it('shows `npm start` and `npm test` in its first screen (40 lines)', () => {
    const screen = readme.split('\n').slice(0, 40).join('\n');
    expect(screen).toContain('npm start');
    expect(screen).toContain('npm test');
  });
  it('links every page of docs/', () => {
    const linked = new Set(relativeLinks(readme).map((l) => target('README.md', l.href).file));
    expect(files.filter((f) => f.startsWith('docs/') && !linked.has(f))).toEqual([]);
  });
});

describe('relative links of README.md and docs/', () => {
  for (const file of files) {
    it(`${file}: every relative link names a file that exists, and a heading of it`, () => {
      const broken: string[] = [];
      for (const { href, line } of relativeLinks(text.get(file)!)) {
        const t = target(file, href);
        if (!existsSync(join(ROOT, t.file))) broken.push(`${file}:${line}: ${href} (no such file)`);
        else if (t.fragment !== undefined && t.file.endsWith('.md')) {
          const slugs = headingSlugs(text.get(t.file) ?? readFileSync(join(ROOT, t.file), 'utf8'));
          if (!slugs.has(t.fragment)) broken.push(`${file}:${line}: ${href} (no heading "${t.fragment}")`);
        }
      }
      expect(broken).toEqual([]);
    });
  }
});
