// RE2 regular expressions (gitleaks' syntax, Go's regexp) parsed into a small tree and written
// back as JavaScript regex source that matches the same text, for the subset gitleaks' rules use.
//
// Why a parser and not string replacements: RE2's inline flags have no equivalent on the Node
// lines tracejury supports (`(?i)` in the middle of a pattern, `(?-i:…)`, `(?s:.)`; V8 learnt
// `(?i:…)` only in Node 23), so case-insensitivity is written out where it applies (`a` becomes
// `[aA]`, `[a-z]` becomes `[a-zA-Z]`), which needs to know, for every character, which flags are
// in force there. Anything outside the subset (a flag other than i and s, a POSIX class, `\p`,
// `\Q…\E`, a back-reference) is an error naming the rule, never a silent mistranslation.

/**
 * @typedef {{ from: number, to: number }} Range
 * @typedef {{ type: 'lit', code: number, fold: boolean }
 *   | { type: 'class', negated: boolean, ranges: Range[], perl: string[], fold: boolean }
 *   | { type: 'perl', value: string }
 *   | { type: 'any', dotAll: boolean }
 *   | { type: 'assert', value: string }
 *   | { type: 'group', capture: boolean, body: Alt }
 *   | { type: 'repeat', min: number, max: number, lazy: boolean, body: Node }
 * } Node
 * @typedef {{ type: 'alt', alternatives: Node[][] }} Alt
 */

const PERL = new Set(['w', 'W', 'd', 'D', 's', 'S']);
const SIMPLE_ESCAPES = { n: 10, r: 13, t: 9, f: 12, v: 11, a: 7 };

/**
 * Parses an RE2 pattern into an alternation of sequences.
 * @param {string} source
 * @returns {Alt}
 */
export function parseRe2(source) {
  let pos = 0;
  const fail = (what) => {
    throw new Error(`${what} at ${pos} in ${source}`);
  };
  const peek = () => source[pos];
  const eat = (s) => {
    if (source.startsWith(s, pos)) {
      pos += s.length;
      return true;
    }
    return false;
  };

  /** Flags in force: i (fold case), s (dot matches newline). */
  function parseAlt(flags) {
    const alternatives = [[]];
    const local = { ...flags };
    while (pos < source.length && peek() !== ')') {
      if (eat('|')) {
        alternatives.push([]);
        continue;
      }
      const seq = alternatives[alternatives.length - 1];
      const atom = parseAtom(local);
      if (atom === null) continue; // a flag group `(?i)`: changes `local` for the rest of this group
      seq.push(parseQuantifier(atom));
    }
    return { type: 'alt', alternatives };
  }

  function parseQuantifier(atom) {
    let min;
    let max;
    const start = pos;
    if (eat('*')) [min, max] = [0, Infinity];
    else if (eat('+')) [min, max] = [1, Infinity];
    else if (eat('?')) [min, max] = [0, 1];
    else {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(pos));
      if (!m) return atom;
      pos += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      if (max < min) fail('a repeat whose maximum is below its minimum');
    }
    if (atom.type === 'assert') fail(`a quantifier on an assertion (${source.slice(start, pos)})`);
    const lazy = eat('?');
    const repeat = { type: 'repeat', min, max, lazy, body: atom };
    return parseQuantifier(repeat);
  }

  /** Applies `(?flags)` / `(?flags:` text to a copy of `flags`. */
  function readFlags(flags) {
    const m = /^([a-zA-Z]*)(?:-([a-zA-Z]*))?/.exec(source.slice(pos));
    pos += m[0].length;
    const next = { ...flags };
    for (const f of m[1]) {
      if (f !== 'i' && f !== 's') fail(`the flag (?${f}), which the translation does not know`);
      next[f] = true;
    }
    for (const f of m[2] ?? '') {
      if (f !== 'i' && f !== 's') fail(`the flag (?-${f}), which the translation does not know`);
      next[f] = false;
    }
    return next;
  }

  function parseAtom(flags) {
    const ch = peek();
    if (ch === '(') {
      pos++;
      if (eat('?')) {
        if (eat('P<') || eat('<')) {
          const end = source.indexOf('>', pos);
          if (end < 0) fail('an unterminated group name');
          pos = end + 1;
          return closeGroup(true, flags);
        }
        if (eat(':')) return closeGroup(false, flags);
        const next = readFlags(flags);
        if (eat(')')) {
          Object.assign(flags, next);
          return null;
        }
        if (eat(':')) return closeGroup(false, next);
        fail('an unknown group syntax');
      }
      return closeGroup(true, flags);
    }
    if (ch === '[') return parseClass(flags);
    if (ch === '.') {
      pos++;
      return { type: 'any', dotAll: Boolean(flags.s) };
    }
    if (ch === '^' || ch === '$') {
      pos++;
      return { type: 'assert', value: ch };
    }
    if (ch === '\\') return parseEscape(flags, false);
    if (ch === '*' || ch === '+' || ch === '?' || (ch === '{' && /^\{\d/.test(source.slice(pos))))
      fail('a quantifier with nothing to repeat');
    pos++;
    return { type: 'lit', code: ch.codePointAt(0), fold: Boolean(flags.i) };
  }

  function closeGroup(capture, flags) {
    const body = parseAlt(flags);
    if (!eat(')')) fail('an unclosed group');
    return { type: 'group', capture, body };
  }

  /** `\x60`, `\.`, `\w`, `\b`, `\z`…; inside a class only characters and Perl classes. */
  function parseEscape(flags, inClass) {
    pos++;
    const ch = source[pos++];
    if (ch === undefined) fail('a trailing backslash');
    if (PERL.has(ch)) return { type: 'perl', value: ch };
    if (!inClass && (ch === 'b' || ch === 'B' || ch === 'z' || ch === 'A'))
      return { type: 'assert', value: `\\${ch}` };
    if (ch === 'x') {
      const m = /^(?:\{([0-9a-fA-F]+)\}|([0-9a-fA-F]{2}))/.exec(source.slice(pos));
      if (!m) fail('a malformed \\x escape');
      pos += m[0].length;
      return { type: 'lit', code: parseInt(m[1] ?? m[2], 16), fold: Boolean(flags.i) };
    }
    if (ch in SIMPLE_ESCAPES) return { type: 'lit', code: SIMPLE_ESCAPES[ch], fold: false };
    if (/[0-9A-Za-z]/.test(ch)) fail(`the escape \\${ch}, which the translation does not know`);
    return { type: 'lit', code: ch.codePointAt(0), fold: Boolean(flags.i) };
  }

  function parseClass(flags) {
    pos++;
    const negated = eat('^');
    const ranges = [];
    const perl = [];
    let first = true;
    while (pos < source.length && (peek() !== ']' || first)) {
      if (source.startsWith('[:', pos)) fail('a POSIX class, which the translation does not know');
      first = false;
      const from = classChar();
      if (from.type === 'perl') {
        perl.push(from.value);
        continue;
      }
      if (peek() === '-' && source[pos + 1] !== ']' && source[pos + 1] !== undefined) {
        pos++;
        const to = classChar();
        if (to.type === 'perl') fail('a range ending in a class');
        if (to.code < from.code) fail('a range that runs backwards');
        ranges.push({ from: from.code, to: to.code });
      } else ranges.push({ from: from.code, to: from.code });
    }
    if (!eat(']')) fail('an unclosed character class');
    return { type: 'class', negated, ranges, perl, fold: Boolean(flags.i) };
  }

  function classChar() {
    if (peek() === '\\') return parseEscape({}, true);
    const code = source.codePointAt(pos);
    pos += code > 0xffff ? 2 : 1;
    return { type: 'lit', code };
  }

  const tree = parseAlt({});
  if (pos !== source.length) fail('an unmatched )');
  return tree;
}

const isLower = (c) => c >= 0x61 && c <= 0x7a;
const isUpper = (c) => c >= 0x41 && c <= 0x5a;

/** The ranges plus their other-case letters: what `(?i)` makes of a class. */
function foldRanges(ranges) {
  const out = [...ranges];
  for (const { from, to } of ranges) {
    const lo = Math.max(from, 0x61);
    const hi = Math.min(to, 0x7a);
    if (lo <= hi) out.push({ from: lo - 32, to: hi - 32 });
    const LO = Math.max(from, 0x41);
    const HI = Math.min(to, 0x5a);
    if (LO <= HI) out.push({ from: LO + 32, to: HI + 32 });
  }
  return mergeRanges(out);
}

function mergeRanges(ranges) {
  const sorted = [...ranges].sort((a, b) => a.from - b.from);
  const out = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.from <= last.to + 1) last.to = Math.max(last.to, r.to);
    else out.push({ ...r });
  }
  return out;
}

/** A character as JS regex source, escaped where it means something (in a class or outside). */
function charSource(code, inClass) {
  if (code < 0x20 || code === 0x7f) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code === 0x60) return '\\x60';
  if (code > 0x7e)
    return code > 0xffff ? String.fromCodePoint(code) : `\\u${code.toString(16).padStart(4, '0')}`;
  const ch = String.fromCharCode(code);
  const special = inClass ? '\\]^-[' : '\\^$.|?*+()[]{}/';
  return special.includes(ch) ? `\\${ch}` : ch;
}

function rangeSource({ from, to }) {
  if (from === to) return charSource(from, true);
  if (to === from + 1) return charSource(from, true) + charSource(to, true);
  return `${charSource(from, true)}-${charSource(to, true)}`;
}

function classSource(node) {
  const ranges = node.fold ? foldRanges(node.ranges) : mergeRanges(node.ranges);
  return `[${node.negated ? '^' : ''}${ranges.map(rangeSource).join('')}${node.perl.map((p) => `\\${p}`).join('')}]`;
}

function quantifierSource({ min, max, lazy }) {
  let q;
  if (min === 0 && max === Infinity) q = '*';
  else if (min === 1 && max === Infinity) q = '+';
  else if (min === 0 && max === 1) q = '?';
  else if (max === Infinity) q = `{${min},}`;
  else if (min === max) q = `{${min}}`;
  else q = `{${min},${max}}`;
  return lazy ? `${q}?` : q;
}

/**
 * JavaScript regex source for a parsed pattern, for use without flags (case is written out).
 * Only a group marked `secret` stays capturing; every other group is written `(?:…)`, so the
 * group a rule's secret is in is group 1 of the match.
 * @param {Alt | Node} node
 * @returns {string}
 */
export function toJsSource(node) {
  const seq = (items) => items.map(toJsSource).join('');
  switch (node.type) {
    case 'alt':
      return node.alternatives.map(seq).join('|');
    case 'lit':
      if (node.fold && (isLower(node.code) || isUpper(node.code))) {
        const lower = node.code | 0x20;
        return `[${String.fromCharCode(lower - 32)}${String.fromCharCode(lower)}]`;
      }
      return charSource(node.code, false);
    case 'class':
      return classSource(node);
    case 'perl':
      return `\\${node.value}`;
    case 'any':
      return node.dotAll ? '[\\s\\S]' : '.';
    case 'assert':
      // `\z` is the end of the text; `$` without the m flag is the same in both engines.
      return node.value === '\\z' ? '$' : node.value === '\\A' ? '^' : node.value;
    case 'group':
      return `(${node.secret ? '' : '?:'}${toJsSource(node.body)})`;
    case 'repeat': {
      const body = toJsSource(node.body);
      // Every other node is written as one unit (a character, an escape, a class, a group).
      return `${node.body.type === 'repeat' ? `(?:${body})` : body}${quantifierSource(node)}`;
    }
    default:
      throw new Error(`unknown node ${node.type}`);
  }
}
