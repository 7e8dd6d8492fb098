/**
 * fileUriToPath / pathToFileUri for POSIX and Windows paths (RFC 8089 §2,
 * Appendix E), pure string code, and the round trip between them.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fileUriToPath, isUriError, pathToFileUri } from 'urikit';
import table from './file-path.json' with { type: 'json' };

describe(table.source, () => {
  for (const c of table.toPath) {
    it(`${c.uri} -> ${c.posix ?? c.windows} (${c.section})`, () => {
      if (c.posix !== undefined) expect(fileUriToPath(c.uri)).toBe(c.posix);
      if (c.windows !== undefined) expect(fileUriToPath(c.uri, { windows: true })).toBe(c.windows);
    });
  }
  for (const c of table.toPathErrors) {
    it(`${c.uri} has no ${c.posix ? 'POSIX' : 'Windows'} path (${c.section})`, () => {
      let err: unknown;
      try { fileUriToPath(c.uri, { windows: !c.posix }); } catch (e) { err = e; }
      expect(isUriError(err)).toBe(true);
    });
  }
  for (const c of table.toUri) {
    const path = (c.posix ?? c.windows)!;
    it(`${JSON.stringify(path)} -> ${c.uri}`, () => {
      expect(pathToFileUri(path, { windows: c.windows !== undefined })).toBe(c.uri);
    });
  }
  for (const c of table.toUriErrors) {
    const path = (c.posix ?? c.windows)!;
    it(`${JSON.stringify(path)} is refused`, () => {
      expect(() => pathToFileUri(path, { windows: c.windows !== undefined })).toThrow();
    });
  }
});

describe('round trip laws', () => {
  const name = fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !/[\/\\\u0000]/.test(s) && !/[\uD800-\uDFFF]/.test(s));
  it('POSIX: fileUriToPath(pathToFileUri(p)) === p', () => {
    fc.assert(fc.property(fc.array(name, { minLength: 1, maxLength: 5 }), (parts) => {
      const p = `/${parts.join('/')}`;
      expect(fileUriToPath(pathToFileUri(p))).toBe(p);
    }));
  });
  it('Windows: drive letter and UNC paths come back', () => {
    fc.assert(fc.property(fc.constantFrom('C', 'd'), fc.array(name, { minLength: 1, maxLength: 4 }), (drive, parts) => {
      const p = `${drive}:\\${parts.join('\\')}`;
      expect(fileUriToPath(pathToFileUri(p, { windows: true }), { windows: true })).toBe(p);
      const unc = `\\\\server\\${parts.join('\\')}`;
      expect(fileUriToPath(pathToFileUri(unc, { windows: true }), { windows: true })).toBe(unc);
    }));
  });
});
