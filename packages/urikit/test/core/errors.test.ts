import { describe, expect, it } from 'vitest';
import { UriError, isUriError, ERROR_MESSAGES } from 'urikit';

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
