/**
 * The run skippers of chars.ts (runSkipper) against the lookup table they
 * are written from: over every one of the 65,536 code units, for every
 * class bit, the sticky regular expression takes a code unit exactly when
 * the table says it is in the class, and it takes the whole of a run.
 */
import { describe, expect, it } from 'vitest';
import * as chars from '../../src/chars.js';
import { CLASS, runSkipper } from '../../src/chars.js';

const CLASSES: Array<[string, number]> = [
  ['ALPHA', chars.ALPHA], ['DIGIT', chars.DIGIT], ['HEXDIG', chars.HEXDIG], ['UNRESERVED', chars.UNRESERVED],
  ['SUB_DELIMS', chars.SUB_DELIMS], ['GEN_DELIMS', chars.GEN_DELIMS], ['SCHEME', chars.SCHEME], ['USERINFO', chars.USERINFO],
  ['REG_NAME', chars.REG_NAME], ['PCHAR', chars.PCHAR], ['SEGMENT_NC', chars.SEGMENT_NC], ['PATH', chars.PATH],
  ['QUERY', chars.QUERY], ['IPVFUTURE', chars.IPVFUTURE], ['LOWER_REG_NAME', chars.LOWER_REG_NAME],
];

describe('runSkipper equals the lookup table', () => {
  for (const [name, cls] of CLASSES) {
    it(`${name}: every code unit`, () => {
      const skip = runSkipper(cls);
      const wrong: number[] = [];
      let members = '';
      for (let c = 0; c < 0x10000; c++) {
        const inTable = c < 128 && (CLASS[c]! & cls) !== 0;
        if (inTable) members += String.fromCharCode(c);
        // The code unit between two NULs (in no class): taken from index 1, or not at all.
        skip.lastIndex = 1;
        const matched = skip.test('\u0000' + String.fromCharCode(c) + '\u0000'); // "*" always matches
        if (!matched || skip.lastIndex !== (inTable ? 2 : 1)) wrong.push(c);
      }
      expect(wrong).toEqual([]);
      expect(members.length).toBeGreaterThan(0);
      // A whole run of members, with a non-member after it, is skipped to the non-member.
      skip.lastIndex = 0;
      skip.test(members + members + '\u0000');
      expect(skip.lastIndex).toBe(members.length * 2);
    });
  }
});
