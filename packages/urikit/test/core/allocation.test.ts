/**
 * isValid and normalize allocate nothing on input that is already in
 * normal form (DESIGN.md, "Performance principles": allocate the result
 * and nothing else; here the result is the input itself). A child process
 * runs each over 1,000,000 calls with a young generation too large to be
 * collected meanwhile, so process.memoryUsage().heapUsed grows by exactly
 * what the calls allocated; a control of inputs that are not normal shows
 * that the probe sees allocations. Asserts bytes, never a time.
 */
import { expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Already normal at both levels: the forms of the corpus (web, file://, non-special
// schemes with triplets, opaque paths), a userinfo, a port, an IPv4 host, IRIs, relative references.
const NORMAL = [
  'https://www.sec.gov/edgar.shtml',
  'https://example.com/a/b.html?x=1&y=%2F#top',
  'file:///Users/isaacs/dev/tapjs/tapjs/node_modules/ts-node/esm.mjs',
  'file://node.gypi',
  'tapmock://a1614fc8fa65ebf7.ffcd619e7534c8d5/?url=%40tapjs%2Fcore',
  'node:url',
  'telnet://user@host.example.org:2323/',
  'http://192.0.2.1:8080/',
  'http://例え.jp/パス?クエリ',
  'news:comp.infosystems.www.servers.unix',
  'a/b/c?q',
  '/absolute/path#frag',
  '',
];
const NOT_NORMAL = ['HTTP://Example.COM:80', 'http://a/%7euser/./b', 'mailto:Joe@EXAMPLE.org'];

it('isValid and normalize allocate nothing on already-normal input (1,000,000 calls each)', () => {
  const probe = fileURLToPath(new URL('./allocation-probe.mjs', import.meta.url));
  const out = execFileSync(process.execPath, ['--expose-gc', '--min-semi-space-size=256', '--max-semi-space-size=256', probe, JSON.stringify(NORMAL), JSON.stringify(NOT_NORMAL)], { encoding: 'utf8' });
  const perCall = JSON.parse(out) as Record<string, number>;
  console.log(`[allocation] bytes per call: ${out.trim()}`);
  for (const op of ['isValid', 'isValid uri', 'normalize', 'normalize syntax']) {
    // Under 0.5 B per call (500 KB in all: the probe's own bookkeeping and
    // any late optimized code); one input of the 13 allocating even one
    // 16-byte object per call would show 1.2 B per call.
    expect(perCall[op], op).toBeLessThan(0.5);
  }
  expect(perCall['normalize (control: not normal)']).toBeGreaterThan(16);
}, 120_000);
