/**
 * Comments cite specifications and design decisions, never issue numbers
 * (STYLE §16): a reader has the RFC and DESIGN.md, not the issue tracker.
 * Every source file of every package is read whole, so that an issue
 * number in a message or a string is caught as well as in a comment.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesUnder, ROOT } from './harness.js';

/** "issue 7", "issues 7 and 8", "Issue #12", "ticket 3", "bug #4", "PR 9". */
const ISSUE_CITATION = /\b(?:issues?|tickets?|bugs?|PR|pull request)\s*#?\d+/gi;

const packages = readdirSync(join(ROOT, 'packages')).sort();
const sourcesOf = (pkg: string): string[] => filesUnder(`packages/${pkg}/src`, (name) => /\.[cm]?tsx?$/.test(name));

describe('no source file cites an issue number', () => {
  it('the pattern catches the forms it names, and no spec citation', () => {
    const found = ['(issue 7 item 5)', 'Issue #12', 'issues 7, 8', 'see ticket 3', 'bug #4', 'PR 9', 'UTS #46', 'RFC 3986 §5.2', 'item 2']
      .filter((s) => s.match(ISSUE_CITATION) !== null);
    expect(found).toEqual(['(issue 7 item 5)', 'Issue #12', 'issues 7, 8', 'see ticket 3', 'bug #4', 'PR 9']);
  });
  for (const pkg of packages) {
    it(`packages/${pkg}/src`, () => {
      const files = sourcesOf(pkg);
      expect(files.length).toBeGreaterThan(0);
      const hits = files.flatMap((file) => readFileSync(join(ROOT, file), 'utf8').split('\n')
        .flatMap((line, i) => (line.match(ISSUE_CITATION) ?? []).map((m) => `${file}:${i + 1}: ${m}`)));
      expect(hits, 'cite the spec section, the DESIGN.md decision, or say why in words').toEqual([]);
    });
  }
});
