/**
 * Stage 0 of the tribunal: programmatic consistency checks over a response's text. No model, no
 * I/O, linear in the text: contradictions, a stated score that its own words contradict, and
 * hedging. Findings inform the verdict; they never call a judge and never decide it on their own.
 */

export type ConsistencyKind = 'contradiction' | 'score_language_mismatch' | 'hedging';

export interface TextSpan {
  start: number;
  end: number;
  text: string;
}

export interface ConsistencyFinding {
  kind: ConsistencyKind;
  message: string;
  spans: TextSpan[];
}

const STOP = new Set([
  'the',
  'a',
  'an',
  'all',
  'some',
  'it',
  'this',
  'that',
  'these',
  'those',
  'has',
  'have',
  'had',
  'was',
  'were',
  'is',
  'are',
  'be',
  'been',
  'and',
  'but',
  'then',
  'later',
  'also',
  'still',
  'now',
  'both',
  'every',
  'each',
  'of',
  'to',
  'in',
  'on',
  'not',
  'which',
  'who',
  'successfully',
]);

/** Crude stemmer, enough to equate "tests"/"test" and "returns"/"return". */
function stem(word: string): string {
  const w = word.toLowerCase();
  if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (w.length > 3 && w.endsWith('es') && /(ss|x|ch|sh)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

function span(text: string, start: number, end: number): TextSpan {
  return { start, end, text: text.slice(start, end) };
}

interface Sentence {
  start: number;
  end: number;
}

function sentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  const re = /[^.!?\n]+[.!?]*/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}

/** The nearest content word before `at` inside the sentence: what a "passed"/"failed" is about. */
function topicBefore(text: string, sentence: Sentence, at: number): string | undefined {
  const words = [...text.slice(sentence.start, at).matchAll(/[A-Za-z][\w-]*/g)].map((m) => m[0]);
  for (let i = words.length - 1; i >= 0; i--) {
    const w = words[i]!.toLowerCase();
    if (!STOP.has(w)) return stem(w);
  }
  return undefined;
}

const CONJUNCTIONS = new Set([
  'but',
  'and',
  'while',
  'although',
  'whereas',
  'yet',
  'so',
  'because',
  'however',
  'or',
]);

const ARTICLES = new Set(['the', 'a', 'an', 'to', 'on', 'in', 'its', 'their']);

/** The object right after `at`, for "failed the build" / "failed to compile"; none after a conjunction. */
function topicAfter(text: string, sentence: Sentence, at: number): string | undefined {
  const words = [...text.slice(at, sentence.end).matchAll(/[A-Za-z][\w-]*/g)].map((m) => m[0].toLowerCase());
  const first = words.find((w) => !ARTICLES.has(w));
  return first && !STOP.has(first) && !CONJUNCTIONS.has(first) ? stem(first) : undefined;
}

const POLAR_PAIRS: { name: string; yes: RegExp; no: RegExp }[] = [
  {
    name: 'passed/failed',
    yes: /\b(passed|passes|succeeded|succeeds)\b/gi,
    no: /\b(failed|fails|failing)\b/gi,
  },
  {
    name: 'correct/incorrect',
    yes: /\b(is|are|was|were) (correct|valid)\b/gi,
    no: /\b(is|are|was|were) (incorrect|invalid|wrong)\b/gi,
  },
];

function contradictions(text: string, sents: Sentence[]): ConsistencyFinding[] {
  const findings: ConsistencyFinding[] = [];
  // Binary search: sentences are sorted and disjoint.
  const sentenceOf = (i: number): Sentence => {
    let lo = 0;
    let hi = sents.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = sents[mid]!;
      if (i < s.start) hi = mid - 1;
      else if (i >= s.end) lo = mid + 1;
      else return s;
    }
    return { start: 0, end: text.length };
  };
  for (const pair of POLAR_PAIRS) {
    // First "no" occurrence per topic, then one pass over the "yes" occurrences: linear.
    const noByTopic = new Map<string, { start: number; end: number }>();
    for (const m of text.matchAll(pair.no)) {
      const s = sentenceOf(m.index);
      const end = m.index + m[0].length;
      for (const t of [topicBefore(text, s, m.index), topicAfter(text, s, end)]) {
        if (t && !noByTopic.has(t)) noByTopic.set(t, { start: m.index, end });
      }
    }
    if (noByTopic.size === 0) continue;
    for (const m of text.matchAll(pair.yes)) {
      const s = sentenceOf(m.index);
      const end = m.index + m[0].length;
      const topic = [topicBefore(text, s, m.index), topicAfter(text, s, end)].find(
        (t) => t && noByTopic.has(t),
      );
      if (!topic) continue;
      const n = noByTopic.get(topic)!;
      findings.push({
        kind: 'contradiction',
        message: `contradiction (${pair.name}) about "${topic}": "${m[0]}" and "${text.slice(n.start, n.end)}"`,
        spans: [span(text, m.index, end), span(text, n.start, n.end)],
      });
      break;
    }
  }
  // "always X" against "never X" about the same verb.
  const never = new Map<string, RegExpMatchArray & { index: number }>();
  for (const n of text.matchAll(/\bnever\s+([A-Za-z]+)/gi))
    if (!never.has(stem(n[1]!))) never.set(stem(n[1]!), n);
  if (never.size > 0) {
    for (const a of text.matchAll(/\balways\s+([A-Za-z]+)/gi)) {
      const n = never.get(stem(a[1]!));
      if (!n) continue;
      findings.push({
        kind: 'contradiction',
        message: `contradiction (always/never) about "${stem(a[1]!)}": "${a[0]}" and "${n[0]}"`,
        spans: [span(text, a.index, a.index + a[0].length), span(text, n.index, n.index + n[0].length)],
      });
      break;
    }
  }
  return findings;
}

/** Scores written as "score 0.9", "score: 85%", "9/10", "4.5 out of 5", "rating: 8". Normalised to [0, 1]. */
const SCORE_RE =
  /\b(?:(?:score|rating|rated|grade)\s*(?:of|is|was|:|=)?\s*(\d+(?:\.\d+)?)\s*(%|\/\s*\d+|out of \d+)?|(\d+(?:\.\d+)?)\s*(\/\s*\d+|out of \d+))/gi;

function normaliseScore(value: number, scale: string | undefined): number | undefined {
  if (scale) {
    if (scale === '%') return value / 100;
    const max = Number(scale.replace(/[^\d]/g, ''));
    return max > 0 && value <= max ? value / max : undefined;
  }
  if (value <= 1) return value;
  if (value <= 10) return value / 10;
  if (value <= 100) return value / 100;
  return undefined;
}

const NEGATIVE_RE =
  /\b(poor|poorly|fails?|failed|failing|incorrect|wrong|bad|terrible|awful|inadequate|unacceptable|broken|useless|inaccurate|flawed)\b/gi;
const POSITIVE_RE = /\b(excellent|perfect|outstanding|flawless|superb|great|exceptional|impeccable)\b/gi;

/** How far (characters) from a score its contradicting words may be. */
const WINDOW = 160;

function scoreLanguage(text: string): ConsistencyFinding[] {
  const findings: ConsistencyFinding[] = [];
  for (const m of text.matchAll(SCORE_RE)) {
    const raw = Number(m[1] ?? m[3]);
    const value = normaliseScore(raw, m[2] ?? m[4]);
    if (value === undefined) continue;
    const re = value >= 0.7 ? NEGATIVE_RE : value <= 0.3 ? POSITIVE_RE : undefined;
    if (!re) continue;
    // "Next to": within the window around the score, so long texts stay linear.
    const from = Math.max(0, m.index - WINDOW);
    const to = Math.min(text.length, m.index + m[0].length + WINDOW);
    const words = [...text.slice(from, to).matchAll(re)].map((w) => ({ 0: w[0], index: w.index + from }));
    if (words.length === 0) continue;
    const high = value >= 0.7;
    findings.push({
      kind: 'score_language_mismatch',
      message: `${high ? 'high' : 'low'} score "${m[0].trim()}" next to ${high ? 'negative' : 'positive'} language: ${words
        .map((w) => `"${w[0]}"`)
        .join(', ')}`,
      spans: [
        span(text, m.index, m.index + m[0].trimEnd().length),
        ...words.map((w) => span(text, w.index, w.index + w[0].length)),
      ],
    });
  }
  return findings;
}

const HEDGE_RE =
  /\b(I think|I believe|I guess|I suppose|maybe|perhaps|not sure|unsure|probably|possibly|might be|may be|it seems|seems to|unclear|not certain)\b/gi;

function hedging(text: string): ConsistencyFinding[] {
  const hits = [...text.matchAll(HEDGE_RE)];
  if (hits.length === 0) return [];
  return [
    {
      kind: 'hedging',
      message: `hedging language (${hits.length}): ${[...new Set(hits.map((h) => `"${h[0].toLowerCase()}"`))].join(', ')}`,
      spans: hits.map((h) => span(text, h.index, h.index + h[0].length)),
    },
  ];
}

/** Runs every stage 0 check over `text`. */
export function checkConsistency(text: string): ConsistencyFinding[] {
  const sents = sentences(text);
  return [...contradictions(text, sents), ...scoreLanguage(text), ...hedging(text)];
}
