/**
 * Packaging cases, answered from each installed package itself: its
 * package.json (ESM entry, bundled types, run-time dependencies) and an
 * esbuild bundle for the browser of the functions a user would import
 * (minified, gzipped size measured).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { NoFeature, type Case } from './case.js';
import { ROOT } from './cases-uri.js';
import type { Lib } from './peers.js';

const require = createRequire(import.meta.url);

interface PackageJson {
  type?: string; module?: string; types?: string; typings?: string;
  exports?: unknown; dependencies?: Record<string, string>;
}

function pkgOf(lib: Lib): PackageJson {
  if (lib.pkg === undefined) throw new NoFeature('built into Node.js and browsers');
  return require(`${lib.pkg}/package.json`) as PackageJson;
}

/** Whether a conditional-exports tree has the condition `name` anywhere. */
function hasCondition(exports: unknown, name: string): boolean {
  if (exports === null || typeof exports !== 'object') return false;
  return Object.entries(exports).some(([k, v]) => k === name || hasCondition(v, name));
}

function esmOf(p: PackageJson): string {
  if (p.type === 'module') return 'ESM ("type": "module")';
  if (hasCondition(p.exports, 'import')) return 'ESM (exports "import")';
  if (p.module !== undefined) return 'ESM ("module" field)';
  return 'CommonJS only';
}

function typesOf(lib: Lib, p: PackageJson): string {
  if (p.types !== undefined || p.typings !== undefined || hasCondition(p.exports, 'types')) return 'bundled';
  try {
    require.resolve(`@types/${lib.pkg}/package.json`);
    return `separate (@types/${lib.pkg})`;
  } catch {
    return 'none';
  }
}

/** What a browser user would import: parse/resolve/normalize, or the library's main object. */
const BUNDLE_ENTRY: Record<string, string> = {
  urikit: "export { parse, resolve, normalize } from 'urikit';",
  'fast-uri': "export { parse, resolve, normalize } from 'fast-uri';",
  'uri-js': "export { parse, resolve, normalize } from 'uri-js';",
  'whatwg-url': "export { URL } from 'whatwg-url';",
  'URI.js': "export { default } from 'urijs';",
};

async function bundleSize(lib: Lib): Promise<string> {
  if (lib.pkg === undefined) return 'native in browsers (0 B)';
  const contents = BUNDLE_ENTRY[lib.name];
  if (contents === undefined) throw new NoFeature('no bundle entry');
  try {
    const out = await build({
      stdin: { contents, resolveDir: fileURLToPath(ROOT), loader: 'js' },
      bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022',
      write: false, logLevel: 'silent',
    });
    const bytes = out.outputFiles[0]!.contents;
    return `ok: ${bytes.length} B min, ${gzipSync(bytes, { level: 9 }).length} B gzip`;
  } catch (e) {
    return `fails: ${(e as Error).message.split('\n')[0]}`;
  }
}

export function packagingCases(): Case[] {
  return [
    {
      feature: 'Packaging: native ESM entry', section: 'Node.js "Modules: Packages" (type / exports)', input: 'package.json',
      expected: ['ESM'], accepts: (a) => a.startsWith('ESM'),
      run: (lib) => esmOf(pkgOf(lib)),
    },
    {
      feature: 'Packaging: TypeScript types', section: 'TypeScript handbook, "Publishing" (types)', input: 'package.json',
      expected: ['bundled'], accepts: (a) => a !== 'none',
      run: (lib) => typesOf(lib, pkgOf(lib)),
    },
    {
      feature: 'Packaging: zero run-time dependencies', section: 'package.json "dependencies"', input: 'package.json',
      expected: ['0'],
      run: (lib) => {
        const deps = Object.keys(pkgOf(lib).dependencies ?? {});
        return deps.length === 0 ? '0' : `${deps.length} (${deps.join(', ')})`;
      },
    },
    {
      feature: 'Packaging: browser bundle (no Node built-ins)', section: 'esbuild, platform "browser", minified', input: 'parse+resolve+normalize (or the main export)',
      expected: ['ok'], accepts: (a) => a.startsWith('ok') || a.startsWith('native'),
      run: (lib) => bundleSize(lib),
    },
  ];
}
