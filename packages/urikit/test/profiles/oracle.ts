/**
 * Slow, literal transcriptions of the drafts' string-buffer algorithms
 * (STYLE §9), used as oracles for the profiles' one-pass code.
 */

const isCompleteStart = (b: string, i: number): boolean => i === 0 || b[i - 1] === '/';

/**
 * 1997 draft §5.2 steps 6d–6g, 2003 draft merge steps 3–6: string
 * replacements on the buffer, leftmost first, until none applies.
 * A `<segment>` is complete (between "/" or the ends), not "..", and not
 * empty (the empty string before a leading "/" is no segment: the drafts'
 * Appendix C keeps "/../g").
 */
export function literalDotSteps(buffer: string): string {
  let b = buffer;
  // d) / 3. every "./" whose "." is a complete path segment
  for (let i = b.indexOf('./'); i >= 0; i = b.indexOf('./', i)) {
    if (isCompleteStart(b, i)) b = b.slice(0, i) + b.slice(i + 2);
    else i++;
  }
  // e) / 4. a final "." that is a complete path segment
  if (b.endsWith('.') && isCompleteStart(b, b.length - 1)) b = b.slice(0, -1);
  // f) / 5. "<segment>/../", leftmost first, iteratively
  for (;;) {
    let done = true;
    for (let j = b.indexOf('/../'); j >= 0; j = b.indexOf('/../', j + 1)) {
      const start = b.lastIndexOf('/', j - 1) + 1;
      const segment = b.slice(start, j);
      if (j > 0 && segment !== '' && segment !== '..') {
        b = b.slice(0, start) + b.slice(j + 4);
        done = false;
        break;
      }
    }
    if (done) break;
  }
  // g) / 6. a final "<segment>/.."
  if (b.endsWith('/..')) {
    const j = b.length - 3;
    const start = b.lastIndexOf('/', j - 1) + 1;
    const segment = b.slice(start, j);
    if (j > 0 && segment !== '' && segment !== '..') b = b.slice(0, start);
  }
  return b;
}
