/**
 * Credentials found by their own shape: every rule of gitleaks' default set that tracejury takes
 * (gitleaksRules.generated.ts) and tracejury's own forms (secretForms.ts), run behind a prefilter.
 * gitleaks' set rather than secretlint's recommended preset: the broader maintained set, and data
 * that runs synchronously here, where secretlint's rules are asynchronous and scan whole files.
 *
 * Redaction runs on every signal of a run and every string of an embedded trace, and nearly all of
 * that text holds no credential. So one regex of every pattern's anchors (literal fragments, or
 * gitleaks' keywords for its keyword rules) is tested first, and text without any is returned
 * untouched; for text with some, the anchors are tested by their first unit (one regex a group of
 * anchors that start alike, then each anchor of a group that hit), and only the patterns behind
 * the anchors found run. (One scan of all anchors at once would miss an anchor that matches where
 * another already did: `sk-` where `\bsk-proj-` matched.) Each pattern is linear on V8 (the generator leaves out gitleaks rules
 * that are not, and test/safety floods every rule), so the whole is linear in the text.
 */
import type { CredentialPattern } from './credentialPattern.js';
import { GITLEAKS_PATTERNS } from './gitleaksRules.generated.js';
import { SECRET_FORMS } from './secretForms.js';

/**
 * tracejury's own forms first: where one is wider than a rule of the set (a token longer than the
 * rule's exact length), it hides the whole of it, not all but its last characters.
 */
export const CREDENTIAL_PATTERNS: readonly CredentialPattern[] = [...SECRET_FORMS, ...GITLEAKS_PATTERNS];

/**
 * The first unit of a regex source: an escape, a class, a group, or one character. Alternatives
 * are grouped by it (`s(?:k-|ig=)|\b(?:LTAI|pnu_)|…`), so V8 tries one group at a position
 * instead of every alternative, which keeps a prefilter of hundreds of anchors fast.
 */
function firstUnit(source: string): string {
  if (source.startsWith('\\')) return source.slice(0, 2);
  if (source.startsWith('[')) {
    for (let i = 1; i < source.length; i++) {
      if (source[i] === '\\') i++;
      else if (source[i] === ']') return source.slice(0, i + 1);
    }
  }
  if (source.startsWith('(')) {
    let depth = 0;
    for (let i = 0; i < source.length; i++) {
      if (source[i] === '\\') i++;
      else if (source[i] === '[')
        while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      else if (source[i] === '(') depth++;
      else if (source[i] === ')' && --depth === 0) {
        // A quantified group is not a unit one can factor out.
        return /^[?*+{]/.test(source.slice(i + 1)) ? source : source.slice(0, i + 1);
      }
    }
  }
  return source[0] ?? '';
}

function byFirstUnit(alternatives: readonly string[], anyCase = false): string {
  const groups = new Map<string, string[]>();
  for (const a of alternatives) {
    let first = firstUnit(a);
    const rest = a.slice(first.length);
    if (anyCase) first = first.toLowerCase() === first.toUpperCase() ? first : first.toLowerCase();
    groups.set(first, [...(groups.get(first) ?? []), rest]);
  }
  return [...groups]
    .map(([first, rests]) => (rests.length === 1 ? `${first}${rests[0]}` : `${first}(?:${rests.join('|')})`))
    .join('|');
}

/**
 * An anchor as the any-case prefilter reads it: `[Mm][Aa]` (how a case-insensitive rule's letters
 * are written) becomes `m` + `a`, and a leading `\b` goes, so anchors share first units by their
 * first letter (a wider prefilter, which V8 runs faster; the groups' tests keep the `\b`).
 */
function folded(source: string): string {
  return source
    .replace(/^\\b/, '')
    .replace(/\[([A-Za-z])([A-Za-z])\]/g, (m, a: string, b: string) =>
      a !== b && a.toLowerCase() === b.toLowerCase() ? a.toLowerCase() : m,
    );
}

interface Compiled {
  pattern: CredentialPattern;
  regex: RegExp;
  allow: readonly RegExp[];
}

/**
 * Anchors that start with the same unit: one test for all, then one each when it hits. The
 * prefilter before them matches in any case (a superset of the anchors as written).
 */
interface AnchorGroup {
  test: RegExp;
  anchors: readonly { test: RegExp; patterns: readonly number[] }[];
}

/** One compiled set: case as written, or any case (for text a scanner lower-cased). */
interface PatternSet {
  /** Does the text hold any anchor (or any of `extraAnchors`)? */
  prefilter: RegExp;
  groups: readonly AnchorGroup[];
  compiled: readonly Compiled[];
}

function compile(
  patterns: readonly CredentialPattern[],
  extraAnchors: readonly string[],
  flags: string,
): PatternSet {
  const anchors: string[] = [];
  const patternsOf: number[][] = [];
  patterns.forEach((p, i) => {
    for (const a of p.anchors) {
      // The finder numbers anchors by their group: an anchor's own group would shift the rest.
      if (new RegExp(`${a}|`).exec('')!.length !== 1)
        throw new Error(`${p.id}: an anchor with a capturing group`);
      let k = anchors.indexOf(a);
      if (k < 0) k = anchors.push(a) - 1;
      (patternsOf[k] ??= []).push(i);
    }
  });
  const byUnit = new Map<string, number[]>();
  anchors.forEach((a, k) => byUnit.set(firstUnit(a), [...(byUnit.get(firstUnit(a)) ?? []), k]));
  return {
    // In any case, whatever the set's case: fewer, wider groups, which V8 tries faster; the
    // groups' own tests below are as written.
    prefilter: new RegExp(byFirstUnit([...new Set([...anchors, ...extraAnchors].map(folded))], true), 'i'),
    groups: [...byUnit.values()].map((ks) => ({
      test: new RegExp(byFirstUnit(ks.map((k) => anchors[k]!)), flags),
      anchors: ks.map((k) => ({ test: new RegExp(anchors[k]!, flags), patterns: patternsOf[k]! })),
    })),
    compiled: patterns.map((pattern) => ({
      pattern,
      regex: new RegExp(pattern.pattern, `gd${flags}`),
      allow: (pattern.allow ?? []).map((a) => new RegExp(a)),
    })),
  };
}

/** Shannon entropy in bits a character, as gitleaks measures a secret. */
function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let entropy = 0;
  const length = [...text].length;
  for (const n of counts.values()) {
    const p = n / length;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}

/** Whether a match is a secret by its rule's own tests (entropy, allowlist, stopwords), as gitleaks decides. */
function counts(secret: string, { pattern, allow }: Compiled): boolean {
  if (pattern.entropy !== undefined && shannonEntropy(secret) <= pattern.entropy) return false;
  if (allow.some((a) => a.test(secret))) return false;
  if (pattern.stopwords?.length) {
    const lower = secret.toLowerCase();
    if (pattern.stopwords.some((w) => lower.includes(w))) return false;
  }
  return true;
}

/** `text` with every match of one pattern that counts replaced by `replacement`. */
function replaceMatches(text: string, c: Compiled, replacement: string): string {
  const { regex } = c;
  regex.lastIndex = 0;
  let out = '';
  let last = 0;
  for (let m = regex.exec(text); m; m = regex.exec(text)) {
    if (m[0] === '') {
      regex.lastIndex++;
      continue;
    }
    // The `d` flag's indices: where group 1 (the secret) is, else the whole match.
    const { indices } = m as RegExpExecArray & { indices: ([number, number] | undefined)[] };
    const [start, end] = indices[1] ?? indices[0]!;
    if (start < last || !counts(text.slice(start, end), c)) continue;
    out += text.slice(last, start) + replacement;
    last = end;
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * A scanner over the patterns: `mayHold(text)` is the cheap test (false: no credential of these
 * patterns, nor any of `extraAnchors`, can be in the text); `replace(text, r)` replaces every
 * credential found.
 */
export function createCredentialScanner(
  patterns: readonly CredentialPattern[],
  options: { extraAnchors?: readonly string[]; anyCase?: boolean } = {},
) {
  const set = compile(patterns, options.extraAnchors ?? [], options.anyCase ? 'i' : '');
  return {
    mayHold: (text: string): boolean => set.prefilter.test(text),
    replace(text: string, replacement: string): string {
      const hit = new Set<number>();
      for (const group of set.groups) {
        if (!group.test.test(text)) continue;
        for (const anchor of group.anchors)
          if (group.anchors.length === 1 || anchor.test.test(text))
            for (const i of anchor.patterns) hit.add(i);
      }
      let out = text;
      for (const i of [...hit].sort((a, b) => a - b))
        out = replaceMatches(out, set.compiled[i]!, replacement);
      return out;
    },
  };
}
