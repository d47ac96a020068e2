// What tracejury makes of each gitleaks rule: which part of a match is the secret to hide, which
// fragment the prefilter looks for, and which rules (or branches of a rule) are left to
// tracejury's own handling, each with its reason. Pure: a rule of the toml in, a decision out.

import { parseRe2, toJsSource } from './re2.mjs';

/** gitleaks' keyword rules put this between a service's name and its value (`name = value`). */
const ASSIGNMENT = '(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)';

/** Why a rule, or a branch of one, is not taken. */
export const LEFT_OUT = {
  genericValue:
    'its value is a run of one alphabet (hex, base64, digits) or a UUID after a service name: the shape of trace ids, span ids and hashes, which it would hide near any mention of the service. Left to tracejury’s named values (api_key=, "secret": …, X_KEY=, Authorization: …), which catch the real cases by the name',
  bareValue:
    'a bare hex run with no prefix (gitleaks runs it wherever a keyword appears in a file): it would hide every git SHA near the keyword',
  generic:
    "gitleaks' catch-all for any name followed by a value: tracejury's named values do its job, narrower, since a trace says token and key in ordinary prose",
  path: 'applies to files of one kind by their path (.tf, .php, nuget.config, YAML manifests); a trace has no file path, and the values such files hold are caught as named values',
  quadratic:
    'repeats an unbounded `.*`, which a backtracking engine (V8) runs in quadratic time or worse on hostile text; `curl -u user:secret` and `curl -H "Authorization: …"` are caught by tracejury’s own patterns',
  noRegex: 'matches file names only, never text',
};

/** Rules left out as a whole by id, with the key of their reason. */
const LEFT_OUT_BY_ID = { 'generic-api-key': 'generic' };

/** A terminator gitleaks puts after a secret: a group one of whose branches ends the text. */
function isTerminator(node) {
  if (node?.type !== 'group' || node.capture) return false;
  return node.body.alternatives.some(
    (alt) => alt.length === 1 && alt[0].type === 'assert' && ['$', '\\z', '\\b'].includes(alt[0].value),
  );
}

/** An unbounded repeat of any character, or an unbounded repeat inside a repeat: quadratic on V8. */
function hasNestedUnbounded(node, insideRepeat = false) {
  if (node.type === 'alt')
    return node.alternatives.some((seq) => seq.some((n) => hasNestedUnbounded(n, insideRepeat)));
  if (node.type === 'group') return hasNestedUnbounded(node.body, insideRepeat);
  if (node.type !== 'repeat') return false;
  const anyCharacter = node.body.type === 'any' || (node.body.type === 'class' && node.body.negated);
  if (node.max === Infinity && (anyCharacter || insideRepeat)) return true;
  return hasNestedUnbounded(node.body, insideRepeat || node.max > 1);
}

/**
 * The leading `[\w.-]{0,50}?` of gitleaks' keyword rules (also inside a leading group): it only
 * widens what gitleaks reports as the match, never which values match, and costs fifty tries at
 * every position of the text.
 */
function withoutLeadingContext(seq) {
  const out = [...seq];
  while (out[0]?.type === 'repeat' && out[0].min === 0 && out[0].lazy) out.shift();
  const first = out[0];
  if (first?.type === 'group' && first.body.alternatives.length === 1)
    out[0] = {
      ...first,
      body: { type: 'alt', alternatives: [withoutLeadingContext(first.body.alternatives[0])] },
    };
  return out;
}

/** Whether a node holds a literal character outside a class: `key-`, `pk.`, a bot token's `:`. */
function hasLiteral(node) {
  if (node.type === 'lit') return true;
  if (node.type === 'alt') return node.alternatives.some((seq) => seq.some(hasLiteral));
  if (node.type === 'group' || node.type === 'repeat') return hasLiteral(node.body);
  return false;
}

const UUID = /^\[[^\]]+\]\{8\}-\[[^\]]+\]\{4\}-\[[^\]]+\]\{4\}-\[[^\]]+\]\{4\}-\[[^\]]+\]\{12\}$/;

/**
 * Whether a value has a shape of its own: a literal piece (a prefix such as `key-`, `NRAK-`,
 * `pk.`; the `:` of a bot token; the dashes of a Mailgun signing key), and not a UUID's.
 */
export function hasOwnShape(value) {
  return hasLiteral(value) && !UUID.test(toJsSource(value));
}

/** The literal characters a node always matches, in order, or null when it can vary. */
function literalText(node) {
  if (node.type === 'lit') return [node];
  if (node.type === 'group' && node.body.alternatives.length === 1) {
    const parts = node.body.alternatives[0].map(literalText);
    return parts.every(Boolean) ? parts.flat() : null;
  }
  if (node.type === 'repeat' && node.min === node.max && node.min <= 8) {
    const one = literalText(node.body);
    return one && Array.from({ length: node.min }, () => one).flat();
  }
  return null;
}

/** The sequence with single-branch groups opened (`\b(pnu_[…]{36})` reads as `\b pnu_ […]{36}`). */
function flatten(seq) {
  return seq.flatMap((node) =>
    node.type === 'group' && node.body.alternatives.length === 1
      ? flatten(node.body.alternatives[0])
      : [node],
  );
}

/** The shortest literal branch of a group of literal branches (`(?:sk|rk)`), or null. */
function literalBranches(node) {
  if (node.type !== 'group' || node.body.alternatives.length < 2) return null;
  const lengths = node.body.alternatives.map((alt) => {
    const parts = alt.map(literalText);
    return parts.every(Boolean) ? parts.flat().length : 0;
  });
  return lengths.every((n) => n > 0) ? Math.min(...lengths) : null;
}

/**
 * The prefilter's fragment for a pattern: a run of pieces every match holds, in order — literal
 * characters, and groups of literal branches counted by their shortest — and, after a run shorter
 * than four characters, the class that follows it (`SK[0-9A-Fa-f]{8}`). Text without it cannot
 * hold a match. `strength` is the run's literal length.
 */
export function anchorOf(seq) {
  const all = flatten(seq);
  const atWordStart = all[0]?.type === 'assert' && all[0].value === '\\b';
  const items = all.filter((n) => n.type !== 'assert');
  let best = { strength: 0, source: null };
  for (let start = 0; start < items.length; start++) {
    const run = [];
    let strength = 0;
    let i = start;
    for (; i < items.length; i++) {
      const literal = literalText(items[i]);
      const branches = literal ? null : literalBranches(items[i]);
      if (!literal && !branches) break;
      run.push(literal ? items[i] : { ...items[i], secret: false });
      strength += literal ? literal.length : branches;
    }
    if (strength === 0) continue;
    const next = items[i];
    let tail = 0;
    if (strength < 4 && next?.type === 'repeat' && next.min >= 1 && next.body.type === 'class') {
      const n = Math.min(next.min, 8);
      run.push({ ...next, min: n, max: n, lazy: false });
      tail = 0.5;
    }
    // A pattern that starts at a word's start: so does its anchor (`\bs\.` is rarer than `s\.`).
    if (start === 0 && atWordStart) run.unshift(all[0]);
    if (strength + tail > best.strength)
      best = { strength: strength + tail, source: toJsSource({ type: 'alt', alternatives: [run] }) };
  }
  return { source: best.source, strength: Math.floor(best.strength) };
}

/**
 * The branches of a pattern, split at the first group of several branches met on the way in when
 * the pattern as a whole has no anchor (`(?:A3T[A-Z0-9]|AKIA|…)`, sourcegraph's three forms): each
 * branch gets its own anchor, and a branch with nothing of its own can be left out alone.
 */
function branches(seq) {
  if (anchorOf(seq).source !== null) return [seq];
  for (let i = 0; i < seq.length; i++) {
    const node = seq[i];
    if (node.type !== 'group') continue;
    const alts = node.body.alternatives;
    const inner = alts.length === 1 ? branches(alts[0]) : alts;
    if (inner.length === 1 && alts.length === 1) continue;
    return inner.flatMap((alt) =>
      branches([
        ...seq.slice(0, i),
        { ...node, body: { type: 'alt', alternatives: [alt] } },
        ...seq.slice(i + 1),
      ]),
    );
  }
  return [seq];
}

/** Marks the group a secret is in (it alone stays capturing) in a copy of the sequence. */
function markSecret(seq, group) {
  return seq.map((node) => (node === group ? { ...node, secret: true } : node));
}

/** Top-level capturing groups of a sequence. */
const capturesOf = (seq) => seq.filter((n) => n.type === 'group' && n.capture);

/**
 * The decision for one rule of the toml: `{ id, patterns: [{ source, anchor, keyword }], … }`
 * when taken, `{ id, leftOut }` when not. A pattern's source is JavaScript regex source (no
 * flags: case is written out) whose group 1, when it has one, is the secret; else the whole match.
 * @param {{ id: string, regex?: string, path?: string, keywords?: string[], entropy?: number }} rule
 */
export function classifyRule(rule) {
  if (!rule.regex) return { id: rule.id, leftOut: LEFT_OUT.noRegex };
  if (rule.path) return { id: rule.id, leftOut: LEFT_OUT.path };
  if (LEFT_OUT_BY_ID[rule.id]) return { id: rule.id, leftOut: LEFT_OUT[LEFT_OUT_BY_ID[rule.id]] };
  const tree = parseRe2(rule.regex);
  if (hasNestedUnbounded(tree)) return { id: rule.id, leftOut: LEFT_OUT.quadratic };
  const keywords = (rule.keywords ?? []).map((k) => k.toLowerCase());
  const patterns = [];
  const leftOut = [];
  for (const alternative of tree.alternatives) {
    const terminated = isTerminator(alternative[alternative.length - 1]);
    const body = terminated ? alternative.slice(0, -1) : alternative;
    const keyword = toJsSource({ type: 'alt', alternatives: [body] }).includes(ASSIGNMENT);
    for (const branch of branches(keyword ? withoutLeadingContext(body) : body)) {
      const groups = capturesOf(branch);
      const secret = keyword ? groups[groups.length - 1] : groups.length === 1 ? groups[0] : undefined;
      if (keyword && !secret) throw new Error(`${rule.id}: a keyword rule with no value group`);
      const value = secret ? secret.body : { type: 'alt', alternatives: [branch] };
      const reason =
        keyword && !hasOwnShape(value) ? 'genericValue' : !hasLiteral(value) ? 'bareValue' : null;
      if (reason) {
        leftOut.push({ branch: toJsSource(value), reason: LEFT_OUT[reason] });
        continue;
      }
      // The end of the secret: gitleaks wants one of a few characters there, which cuts noise in
      // source code; in a trace a key is as often followed by `.`, `,`, `)` or `}`, so any
      // character but a letter or digit ends it.
      const source =
        toJsSource({ type: 'alt', alternatives: [markSecret(branch, secret)] }) +
        (terminated ? '(?![0-9A-Za-z])' : '');
      // `branch` and `secret` are the parsed pattern, for tests that build an example of it.
      patterns.push({ source, keyword, anchors: gateOf(branch, keywords, keyword), branch, secret });
    }
  }
  if (patterns.length === 0) return { id: rule.id, leftOut: leftOut[0].reason };
  return { id: rule.id, patterns, leftOutBranches: leftOut };
}

/**
 * What the prefilter looks for before running a pattern, as regex sources (case written out):
 * for a keyword rule, and for a pattern whose own anchor is shorter than its keywords, gitleaks'
 * own gate — the rule's keywords in any case (gitleaks runs a rule only on text holding one) —
 * when each is four characters or more; else the pattern's anchor (see anchorOf), which every
 * match holds.
 */
function gateOf(branch, keywords, keyword) {
  const anchor = anchorOf(branch);
  const byKeywords = keywords.length > 0 && keywords.every((k) => k.length >= 4);
  const shortest = Math.min(...keywords.map((k) => k.length));
  if (byKeywords && (keyword || anchor.strength < shortest))
    return keywords.map((k) => toJsSource(parseRe2(`(?i)${escapeRe2(k)}`)));
  if (anchor.source === null) throw new Error(`no anchor for a branch of ${JSON.stringify(keywords)}`);
  return [anchor.source];
}

const escapeRe2 = (text) => text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
