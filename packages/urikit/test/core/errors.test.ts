import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { UriError, isUriError, ERROR_MESSAGES } from 'urikit';
import { COMPONENT_MESSAGES, HOST_NAME_MESSAGES, TEXT_MESSAGES, URI_MESSAGES, URN_MESSAGES, URN_NAMESPACE_MESSAGES } from '../../src/messages.js';

describe('UriError', () => {
  it('carries code, offset and a message that shows what and where', () => {
    const e = new UriError('invalid-char', 8, 'http://a b/');
    expect(e).toBeInstanceOf(Error);
    expect(e.code).toBe('invalid-char');
    expect(e.offset).toBe(8);
    expect(e.message).toBe(`${ERROR_MESSAGES['invalid-char']} at offset 8: U+0020`);
    expect(isUriError(e, 'invalid-char')).toBe(true);
    expect(isUriError(e, 'bad-port')).toBe(false);
    expect(JSON.parse(JSON.stringify(e))).toEqual({ code: 'invalid-char', offset: 8, message: e.message });
  });
  it('names the end of input', () => {
    expect(new UriError('bad-percent', 3, 'a%4').message).toMatch(/end of input$/);
  });
});

// messages.ts: a module that throws a code outside URI_MESSAGES registers
// that code's table as it loads, or a bundle holding the module and not
// the table would throw that code without its message. Each module that
// names such a code (as a string literal) must register its table.
describe('the message tables (messages.ts)', () => {
  const src = fileURLToPath(new URL('../../src/', import.meta.url));
  const areas = { COMPONENT_MESSAGES, HOST_NAME_MESSAGES, URN_MESSAGES, URN_NAMESPACE_MESSAGES, TEXT_MESSAGES };

  it('together are ERROR_MESSAGES, each code in one table', () => {
    const tables = [URI_MESSAGES, ...Object.values(areas)];
    expect(tables.flatMap((t) => Object.keys(t)).sort()).toEqual(Object.keys(ERROR_MESSAGES).sort());
    expect(new Set(tables.flatMap((t) => Object.keys(t))).size).toBe(Object.keys(ERROR_MESSAGES).length);
  });

  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && f !== 'messages.ts' && f !== 'errors.ts');
  it.each(files)('%s registers the table of each code it names outside URI_MESSAGES', (file) => {
    const text = readFileSync(src + file, 'utf8');
    const missing: string[] = [];
    for (const [name, table] of Object.entries(areas)) {
      const named = Object.keys(table).filter((code) => text.includes(`'${code}'`));
      if (named.length > 0 && !text.includes(`registerMessages(${name})`)) missing.push(`${name} (${named.join(', ')})`);
    }
    expect(missing).toEqual([]);
  });

  it('a message of an area shows once a module of the area is loaded', () => {
    expect(new UriError('bad-nid', 5, 'urn:a:b').message).toBe(`${ERROR_MESSAGES['bad-nid']} at offset 5: ":"`);
  });
});
