/**
 * Where this package (`@urikit/resolver`) is on disk: its package.json
 * (the version the OpenAPI document gives) and the files of the
 * cataloguers' page under `src/web/admin/`, which it ships as they are.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const NAME = '@urikit/resolver';

/** The package.json in `dir`, if it is this package's. */
function ownPackage(dir: URL): { version: string } | undefined {
  try {
    const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as { name?: string; version: string };
    return pkg.name === NAME ? pkg : undefined;
  } catch {
    return undefined;
  }
}

let found: { root: URL; version: string } | undefined;

/**
 * The package's folder and version: the nearest folder above this module
 * whose package.json is this package's (from `src/` or `dist/` alike),
 * else the one Node resolves by name (a bundle of this module elsewhere).
 *
 * @example
 * ```ts
 * const { root, version } = packageRoot();
 * [root.href.endsWith('/'), /^\d+\.\d+\.\d+/.test(version)]; // [true, true]
 * ```
 */
export function packageRoot(): { root: URL; version: string } {
  if (found !== undefined) return found;
  let dir = new URL('.', import.meta.url);
  for (let up = 0; up < 4; up++, dir = new URL('..', dir)) {
    const pkg = ownPackage(dir);
    if (pkg !== undefined) return (found = { root: dir, version: pkg.version });
  }
  const root = new URL('.', pathToFileURL(createRequire(import.meta.url).resolve(`${NAME}/package.json`)));
  return (found = { root, version: ownPackage(root)?.version ?? '0.0.0' });
}
