/**
 * POSIX Extended Regular Expressions as DDDS substitution rules use them
 * (RFC 3402 §3.2: "ere = POSIX Extended Regular Expression"), matched in
 * linear time by a Pike VM: the expression comes from DNS, so it is
 * untrusted input and must never backtrack.
 *
 * ```text
 *   alternation  = branch *( "|" branch )
 *   branch       = *piece
 *   piece        = atom *( "*" / "+" / "?" / "{" m [ "," [ n ] ] "}" )
 *   atom         = "(" alternation ")" / bracket / "." / "^" / "$" / "\" char / char
 * ```
 *
 * DEVIATION(POSIX ERE leftmost-longest): among matches that start at the
 * same place, the one a backtracking matcher would find first is taken
 * (leftmost-first); the two differ only for ambiguous expressions.
 */

/** One instruction of the matching program. */
type Inst =
  | { op: 'char'; test: (c: number) => boolean }
  | { op: 'split'; x: number; y: number }
  | { op: 'jmp'; x: number }
  | { op: 'save'; n: number }
  | { op: 'bol' }
  | { op: 'eol' }
  | { op: 'match' };

/** The syntax tree of an expression. */
type Node =
  | { t: 'char'; test: (c: number) => boolean }
  | { t: 'cat'; items: Node[] }
  | { t: 'alt'; items: Node[] }
  | { t: 'group'; n: number; body: Node }
  | { t: 'rep'; body: Node; min: number; max: number } // max -1: unbounded
  | { t: 'bol' }
  | { t: 'eol' };

// Limits that keep a hostile expression's program small: counted
// repetition is expanded, so its bounds and the program size are capped.
const MAX_COUNT = 255;
const MAX_PROGRAM = 4096;

/** ASCII case folding for the "i" flag (RFC 3402 §3.2: case-insensitive). */
function fold(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
}

// POSIX bracket classes ([:alpha:] ...), ASCII only.
const CLASSES: Record<string, (c: number) => boolean> = {
  alpha: (c) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a),
  digit: (c) => c >= 0x30 && c <= 0x39,
  alnum: (c) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a),
  upper: (c) => c >= 0x41 && c <= 0x5a,
  lower: (c) => c >= 0x61 && c <= 0x7a,
  space: (c) => c === 0x20 || (c >= 0x09 && c <= 0x0d),
  xdigit: (c) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66),
  punct: (c) => (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e),
};

/** A malformed expression (caught by the caller: such a NAPTR record is skipped). */
class EreSyntaxError extends Error {}

/** Recursive-descent parser of the grammar above. */
class Parser {
  pos = 0;
  groups = 0;
  constructor(readonly src: string, readonly icase: boolean) {}

  parse(): Node {
    const node = this.alternation(0);
    if (this.pos < this.src.length) throw new EreSyntaxError(`unexpected ")" at ${this.pos}`);
    return node;
  }

  alternation(depth: number): Node {
    if (depth > 100) throw new EreSyntaxError('groups nested too deeply');
    const items = [this.branch(depth)];
    while (this.src[this.pos] === '|') {
      this.pos++;
      items.push(this.branch(depth));
    }
    return items.length === 1 ? items[0]! : { t: 'alt', items };
  }

  branch(depth: number): Node {
    const items: Node[] = [];
    while (this.pos < this.src.length && this.src[this.pos] !== '|' && this.src[this.pos] !== ')') items.push(this.piece(depth));
    return { t: 'cat', items };
  }

  piece(depth: number): Node {
    let node = this.atom(depth);
    for (;;) {
      const c = this.src[this.pos];
      if (c === '*') { this.pos++; node = { t: 'rep', body: node, min: 0, max: -1 }; }
      else if (c === '+') { this.pos++; node = { t: 'rep', body: node, min: 1, max: -1 }; }
      else if (c === '?') { this.pos++; node = { t: 'rep', body: node, min: 0, max: 1 }; }
      else if (c === '{' && this.isCount()) node = this.count(node);
      else return node;
    }
  }

  /** True if "{" starts a repetition count rather than a literal brace. */
  isCount(): boolean {
    const c = this.src.charCodeAt(this.pos + 1);
    return c >= 0x30 && c <= 0x39;
  }

  number(): number {
    let n = 0;
    const start = this.pos;
    while (this.pos < this.src.length && this.src.charCodeAt(this.pos) >= 0x30 && this.src.charCodeAt(this.pos) <= 0x39) {
      n = n * 10 + this.src.charCodeAt(this.pos) - 0x30;
      if (n > MAX_COUNT) throw new EreSyntaxError(`a repetition count above ${MAX_COUNT}`);
      this.pos++;
    }
    if (this.pos === start) throw new EreSyntaxError(`a number expected at ${this.pos}`);
    return n;
  }

  count(body: Node): Node {
    this.pos++; // "{"
    const min = this.number();
    let max = min;
    if (this.src[this.pos] === ',') {
      this.pos++;
      max = this.src[this.pos] === '}' ? -1 : this.number();
    }
    if (this.src[this.pos] !== '}') throw new EreSyntaxError(`"}" expected at ${this.pos}`);
    this.pos++;
    if (max !== -1 && max < min) throw new EreSyntaxError('a repetition count whose maximum is below its minimum');
    return { t: 'rep', body, min, max };
  }

  literal(code: number): Node {
    const want = this.icase ? fold(code) : code;
    return { t: 'char', test: this.icase ? (c) => fold(c) === want : (c) => c === want };
  }

  atom(depth: number): Node {
    const c = this.src[this.pos];
    if (c === undefined) throw new EreSyntaxError('the expression ends where an atom is expected');
    this.pos++;
    switch (c) {
      case '(': {
        const n = ++this.groups;
        const body = this.alternation(depth + 1);
        if (this.src[this.pos] !== ')') throw new EreSyntaxError('"(" is not closed');
        this.pos++;
        return { t: 'group', n, body };
      }
      case '.': return { t: 'char', test: (x) => x !== 0x0a };
      case '^': return { t: 'bol' };
      case '$': return { t: 'eol' };
      case '[': return this.bracket();
      case '*': case '+': case '?': throw new EreSyntaxError(`"${c}" has nothing to repeat`);
      case '\\': {
        const next = this.src.charCodeAt(this.pos);
        if (Number.isNaN(next)) throw new EreSyntaxError('a trailing "\\"');
        this.pos++;
        return this.literal(next);
      }
      default: return this.literal(c.charCodeAt(0));
    }
  }

  /** `[...]`, `[^...]`: single characters, ranges, `[:class:]`; "]" first is literal. */
  bracket(): Node {
    let negate = false;
    if (this.src[this.pos] === '^') { negate = true; this.pos++; }
    const tests: ((c: number) => boolean)[] = [];
    let first = true;
    for (;;) {
      const ch = this.src[this.pos];
      if (ch === undefined) throw new EreSyntaxError('"[" is not closed');
      if (ch === ']' && !first) { this.pos++; break; }
      first = false;
      if (ch === '[' && this.src[this.pos + 1] === ':') {
        const end = this.src.indexOf(':]', this.pos + 2);
        const name = end < 0 ? '' : this.src.slice(this.pos + 2, end);
        const cls = CLASSES[name];
        if (!cls) throw new EreSyntaxError(`unknown class [:${name}:]`);
        tests.push(cls);
        this.pos = end + 2;
        continue;
      }
      const lo = this.src.charCodeAt(this.pos);
      this.pos++;
      if (this.src[this.pos] === '-' && this.src[this.pos + 1] !== ']' && this.pos + 1 < this.src.length) {
        const hi = this.src.charCodeAt(this.pos + 1);
        this.pos += 2;
        if (hi < lo) throw new EreSyntaxError('a range whose end is before its start');
        tests.push(this.icase ? (c) => (c >= lo && c <= hi) || (fold(c) >= fold(lo) && fold(c) <= fold(hi)) : (c) => c >= lo && c <= hi);
      } else {
        tests.push(this.icase ? (c) => fold(c) === fold(lo) : (c) => c === lo);
      }
    }
    return { t: 'char', test: negate ? (c) => !tests.some((f) => f(c)) : (c) => tests.some((f) => f(c)) };
  }
}

/** Compiles a tree into Pike VM instructions (Thompson's construction). */
function compile(node: Node, prog: Inst[]): void {
  if (prog.length > MAX_PROGRAM) throw new EreSyntaxError('the expression is too large');
  switch (node.t) {
    case 'char': prog.push({ op: 'char', test: node.test }); return;
    case 'bol': prog.push({ op: 'bol' }); return;
    case 'eol': prog.push({ op: 'eol' }); return;
    case 'cat': for (const n of node.items) compile(n, prog); return;
    case 'group':
      prog.push({ op: 'save', n: 2 * node.n });
      compile(node.body, prog);
      prog.push({ op: 'save', n: 2 * node.n + 1 });
      return;
    case 'alt': {
      const jumps: { op: 'jmp'; x: number }[] = [];
      for (let i = 0; i < node.items.length; i++) {
        if (i < node.items.length - 1) {
          const split: { op: 'split'; x: number; y: number } = { op: 'split', x: prog.length + 1, y: 0 };
          prog.push(split);
          compile(node.items[i]!, prog);
          const j: { op: 'jmp'; x: number } = { op: 'jmp', x: 0 };
          prog.push(j);
          jumps.push(j);
          split.y = prog.length;
        } else compile(node.items[i]!, prog);
      }
      for (const j of jumps) j.x = prog.length;
      return;
    }
    case 'rep': {
      for (let i = 0; i < node.min; i++) compile(node.body, prog);
      if (node.max === -1) {
        // L: split body, out; body; jmp L
        const split: { op: 'split'; x: number; y: number } = { op: 'split', x: prog.length + 1, y: 0 };
        const at = prog.length;
        prog.push(split);
        compile(node.body, prog);
        prog.push({ op: 'jmp', x: at });
        split.y = prog.length;
      } else {
        const outs: { op: 'split'; x: number; y: number }[] = [];
        for (let i = node.min; i < node.max; i++) {
          const split: { op: 'split'; x: number; y: number } = { op: 'split', x: prog.length + 1, y: 0 };
          prog.push(split);
          outs.push(split);
          compile(node.body, prog);
        }
        for (const s of outs) s.y = prog.length;
      }
      return;
    }
  }
}

/**
 * A compiled expression: `exec(text)` gives the captures of the leftmost
 * match (index 0 the whole match), or `undefined`. Throws on a malformed
 * expression.
 *
 * @example
 * ```ts
 * compileEre('^urn:cid:.+@([^\\.]+\\.)(.*)$', true).exec('urn:cid:199606121851.1@bar.example.com')?.[2] // 'example.com'
 * ```
 */
export function compileEre(pattern: string, caseInsensitive: boolean): { exec(text: string): (string | undefined)[] | undefined } {
  const parser = new Parser(pattern, caseInsensitive);
  const tree = parser.parse();
  const prog: Inst[] = [{ op: 'save', n: 0 }];
  compile(tree, prog);
  prog.push({ op: 'save', n: 1 }, { op: 'match' });
  const nSlots = 2 * (parser.groups + 1);
  return { exec: (text) => run(prog, nSlots, text) };
}

interface Thread { pc: number; caps: number[] }

/** The Pike VM: every thread advances in step over the text, O(text × program). */
function run(prog: Inst[], nSlots: number, text: string): (string | undefined)[] | undefined {
  const mark = new Int32Array(prog.length).fill(-1);
  let generation = 0;
  // Follows empty transitions from pc at position `at`, adding threads in priority order.
  const add = (list: Thread[], pc: number, caps: number[], at: number): void => {
    const stack: { pc: number; caps: number[] }[] = [{ pc, caps }];
    while (stack.length > 0) {
      const t = stack.pop()!;
      if (mark[t.pc] === generation) continue;
      mark[t.pc] = generation;
      const inst = prog[t.pc]!;
      switch (inst.op) {
        case 'jmp': stack.push({ pc: inst.x, caps: t.caps }); break;
        case 'split': stack.push({ pc: inst.y, caps: t.caps }, { pc: inst.x, caps: t.caps }); break;
        case 'save': { const c = t.caps.slice(); c[inst.n] = at; stack.push({ pc: t.pc + 1, caps: c }); break; }
        case 'bol': if (at === 0) stack.push({ pc: t.pc + 1, caps: t.caps }); break;
        case 'eol': if (at === text.length) stack.push({ pc: t.pc + 1, caps: t.caps }); break;
        default: list.push(t);
      }
    }
  };
  let matched: number[] | undefined;
  let clist: Thread[] = [];
  generation++;
  add(clist, 0, new Array<number>(nSlots).fill(-1), 0);
  for (let at = 0; at <= text.length; at++) {
    const c = at < text.length ? text.charCodeAt(at) : -1;
    generation++;
    const nlist: Thread[] = [];
    for (const t of clist) {
      const inst = prog[t.pc]!;
      if (inst.op === 'match') {
        matched = t.caps;
        break; // threads of lower priority are cut (leftmost-first)
      }
      if (inst.op === 'char' && c >= 0 && inst.test(c)) add(nlist, t.pc + 1, t.caps, at + 1);
    }
    // Until a match is found, a new attempt starts at the next position, last in priority.
    if (matched === undefined && at < text.length) add(nlist, 0, new Array<number>(nSlots).fill(-1), at + 1);
    clist = nlist;
    if (clist.length === 0) break;
  }
  if (!matched) return undefined;
  const out: (string | undefined)[] = [];
  for (let g = 0; g < nSlots / 2; g++) {
    const s = matched[2 * g]!;
    const e = matched[2 * g + 1]!;
    out.push(s >= 0 && e >= 0 ? text.slice(s, e) : undefined);
  }
  return out;
}


