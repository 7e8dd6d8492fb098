/**
 * A slow, literal transcription of RFC 3986 §5.2–5.3 (2003 draft §5.2) as
 * a test oracle (STYLE §9): the Appendix B regular expression to split,
 * the §5.2.2 pseudocode, §5.2.3 merge, the §5.2.4 buffer algorithm step by
 * step, and §5.3 recomposition. Only for tests, on valid references.
 */

interface Parts { scheme?: string; authority?: string; path: string; query?: string; fragment?: string }

// RFC 3986 Appendix B: ^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?
const APPENDIX_B = /^(([^:/?#]+):)?(\/\/([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?/;

export function split(s: string): Parts {
  const m = APPENDIX_B.exec(s)!;
  return {
    scheme: m[1] !== undefined ? m[2] : undefined,
    authority: m[3] !== undefined ? m[4] : undefined,
    path: m[5]!,
    query: m[6] !== undefined ? m[7] : undefined,
    fragment: m[8] !== undefined ? m[9] : undefined,
  };
}

/** RFC 3986 §5.2.4, the input and output buffers as strings, rule by rule. */
export function removeDotSegmentsOracle(path: string): string {
  let input = path;
  let output = '';
  const dropLast = () => { const k = output.lastIndexOf('/'); output = k < 0 ? '' : output.slice(0, k); };
  while (input.length > 0) {
    if (input.startsWith('../')) input = input.slice(3); // A
    else if (input.startsWith('./')) input = input.slice(2); // A
    else if (input.startsWith('/./')) input = '/' + input.slice(3); // B
    else if (input === '/.') input = '/'; // B
    else if (input.startsWith('/../')) { input = '/' + input.slice(4); dropLast(); } // C
    else if (input === '/..') { input = '/'; dropLast(); } // C
    else if (input === '.' || input === '..') input = ''; // D
    else { // E
      const seg = /^\/?[^/]*/.exec(input)![0];
      output += seg;
      input = input.slice(seg.length);
    }
  }
  return output;
}

/** RFC 3986 §5.2.3 */
function merge(base: Parts, refPath: string): string {
  if (base.authority !== undefined && base.path === '') return '/' + refPath;
  const k = base.path.lastIndexOf('/');
  return k < 0 ? refPath : base.path.slice(0, k + 1) + refPath;
}

/** RFC 3986 §5.2.2 and §5.3, the pseudocode line by line. */
export function resolveOracle(baseText: string, refText: string, strict = true): string {
  const Base = split(baseText);
  const R = split(refText);
  const T: Parts = { path: '' };
  if (!strict && R.scheme !== undefined && Base.scheme !== undefined && R.scheme.toLowerCase() === Base.scheme.toLowerCase()) R.scheme = undefined;
  if (R.scheme !== undefined) {
    T.scheme = R.scheme; T.authority = R.authority; T.path = removeDotSegmentsOracle(R.path); T.query = R.query;
  } else {
    if (R.authority !== undefined) {
      T.authority = R.authority; T.path = removeDotSegmentsOracle(R.path); T.query = R.query;
    } else {
      if (R.path === '') {
        T.path = Base.path;
        T.query = R.query !== undefined ? R.query : Base.query;
      } else {
        if (R.path.startsWith('/')) T.path = removeDotSegmentsOracle(R.path);
        else { T.path = merge(Base, R.path); T.path = removeDotSegmentsOracle(T.path); }
        T.query = R.query;
      }
      T.authority = Base.authority;
    }
    T.scheme = Base.scheme;
  }
  T.fragment = R.fragment;
  // urikit's one DEVIATION (see src/resolve.ts): a path starting "//" without authority gets "/." in front.
  if (T.authority === undefined && T.path.startsWith('//')) T.path = '/.' + T.path;
  // §5.3 Component Recomposition
  let result = '';
  if (T.scheme !== undefined) result += T.scheme + ':';
  if (T.authority !== undefined) result += '//' + T.authority;
  result += T.path;
  if (T.query !== undefined) result += '?' + T.query;
  if (T.fragment !== undefined) result += '#' + T.fragment;
  return result;
}
