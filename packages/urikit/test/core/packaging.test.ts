import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The built package must load in plain Node with no loader, by its name,
// from the repository root (DESIGN.md: "After npm ci && npm run build ...").
const root = fileURLToPath(new URL('../../../../', import.meta.url));

describe('packaging', () => {
  it('builds, and `import ... from "urikit"` works in plain Node', () => {
    execFileSync(process.execPath, [fileURLToPath(new URL('../../../../node_modules/typescript/bin/tsc', import.meta.url)), '-b', 'packages/urikit'], { cwd: root, stdio: 'pipe' });
    const script = `
      import { parse, resolve, normalize, equivalent, isValid } from 'urikit';
      console.log(JSON.stringify({
        parse: parse('http://[::1]:8080/a?b#c'),
        resolve: resolve('http://a/b/c/d;p?q', '../../g'),
        normalize: normalize('HTTP://Example.COM:80/%7ea/./b/../c'),
        equivalent: equivalent('http://example.com', 'HTTP://EXAMPLE.com:80/'),
        isValid: [isValid('http://a b/'), isValid('urn:isbn:0451450523', 'uri')],
      }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({
      parse: { scheme: 'http', host: '[::1]', hostKind: 'ipv6', port: '8080', path: '/a', query: 'b', fragment: 'c' },
      resolve: 'http://a/g',
      normalize: 'http://example.com/~a/c',
      equivalent: true,
      isValid: [false, true],
    });
  });
});
