/**
 * What an injection inside data is made of, and how sure a scan is once it has seen some of it.
 *
 * Text an agent reads (a tool result, a fetched page, an e-mail, another agent's message) is written
 * for some reader. An injection is text written for the *model*: it addresses the model, tries to
 * change what the model is doing, and asks it to act with its tools. A bill that says "please pay
 * by Friday" addresses a person and overrides nothing; a README's "run `make install`" addresses a
 * person too. So each pattern of the catalogue says which of these cues it is evidence of, and a
 * scan scores the cues that occur close together (one passage), not the mere presence of a phrase:
 *
 * - addressee: the text speaks to the model — "to you, Claude", "AI agents reading this", "dear
 *   assistant,", "the task I gave you", a fake chat turn or chat-template token (only a model
 *   reads those);
 * - override: it overrides or reorders the model's task — "ignore previous instructions", "before
 *   you solve the task … do the following first", "your task has changed", a jailbreak;
 * - concealment: it hides from the user — "do not tell the user", hidden HTML, smuggled or encoded
 *   text; counted with override (both turn the model against its user);
 * - action: it asks for something the model can do with tools — send or forward data, money or
 *   credentials to an address, call a tool, visit a link, run a command;
 * - framing: authority or urgency — "important message from the admin", "SYSTEM NOTICE";
 * - fake_turn: a conversation turn or role tag inside data — `<|im_start|>`, "\nSystem: …";
 * - request, departure: a sentence that asks something of whoever reads it, and how little it
 *   belongs to the document around it and the user's task — read per sentence by
 *   readerRequests.ts, not by the patterns, and scored there.
 *
 * Each cue is strong or weak (a weak pattern also matches benign text now and then). The score of a
 * passage reads three axes: addressed to the model (addressee, or a fake turn), overriding
 * (override or concealment), each absent, weak or strong, and asking for an action, absent or
 * present; framing and the other cues only add a little. Critical needs all three: a strong
 * override addressed (strongly) to the model that asks for an action. One cue alone never makes a
 * signal.
 */
import { round3 } from '../../util/round.js';

/** Each cue and how evidence names it; the cues are its keys, in this order. */
export const CUE_LABELS = {
  addressee: 'addressed to the model',
  override: 'overrides or reorders its task',
  concealment: 'hides it from the user',
  action: 'asks for an action (send, pay, call a tool, visit a link)',
  framing: 'authority or urgency framing',
  fake_turn: 'fake conversation turn or role tag',
  request: 'asks something of whoever reads it',
  departure: 'unrelated to the document around it and to the user’s task',
} as const satisfies Record<string, string>;
export type Cue = keyof typeof CUE_LABELS;
export const CUES = Object.keys(CUE_LABELS) as readonly Cue[];

export type CueStrength = 'strong' | 'weak';
/** The cues one pattern is evidence of, and how strongly. */
export type CueSet = Partial<Record<Cue, CueStrength>>;

/** 0 absent, 1 weak, 2 strong. */
type Level = 0 | 1 | 2;

/** One occurrence of a pattern in a text, as the scorer needs it. */
export interface CueHit {
  /** The pattern's id: two different weak patterns of one cue corroborate each other. */
  pattern: string;
  /** Where the occurrence starts in the scanned (normalised) text. */
  index: number;
  cues: CueSet;
  /** A weak pattern's cues count as weak whatever they say. */
  weak: boolean;
}

export interface PassageScore {
  confidence: number;
  /** An override addressed to the model that asks for an action. */
  critical: boolean;
  /** Each cue seen in the passage, at its strongest. */
  cues: CueSet;
  /** The passage: from the first to the last occurrence that counted, [start, end). */
  start: number;
  end: number;
}

/** Cues farther apart than this (in characters of normalised text) are not one passage. */
const PASSAGE_CHARS = 1500;

/**
 * Confidence for each (addressed, overriding, action) triple, indexed a*6 + o*2 + r: addressed and
 * overriding are absent, weak or strong (0–2); action is absent or present (0–1), as a request to
 * send or call is as much a request when its pattern is broad. Below 0.35 is no signal; 0.35–0.65
 * the gray zone (escalated); above, a finding.
 */
// prettier-ignore
const LADDER: readonly number[] = [
  //          no action, action
  // addressed 0: nobody named — an override with an action is suspicious, never sure.
  /* o0 */    0,    0,
  /* o1 */    0,    0,
  /* o2 */    0,    0.45,
  // addressed 1 (weak): "the task I gave you", "the user's request", a role tag: it takes an
  // override and an action to count.
  /* o0 */    0,    0,
  /* o1 */    0,    0,
  /* o2 */    0,    0.72,
  // addressed 2 (strong): the text speaks to the model (alone, as in an article about chatbots,
  // that says nothing).
  /* o0 */    0,    0.72,
  /* o1 */    0.5,  0.76,
  /* o2 */    0.8,  0.9,
];

const level = (s: CueStrength | undefined, weak: boolean): Level =>
  s === undefined ? 0 : s === 'weak' || weak ? 1 : 2;

/**
 * The cues whose weak patterns are different phrases, so that two of them corroborate each other
 * (two role tags, or two HTML comments, are one kind of evidence seen twice).
 */
const CORROBORATED: ReadonlySet<Cue> = new Set(['addressee', 'override']);

/**
 * Scores the hits of one passage (all of `hits`, placed in it), with cues of the whole field. A cue
 * is strong when a strong pattern shows it, or when two different weak patterns do: "before you
 * start the task" is common in manuals, but with "do the following first" and "after that, resume
 * the task" beside it, it is the shape of a detour.
 */
function scorePassage(hits: readonly CueHit[], fieldWide: readonly CueHit[] = []): PassageScore | undefined {
  if (hits.length === 0) return undefined;
  const best: Partial<Record<Cue, Level>> = {};
  let start = Infinity;
  let end = -Infinity;
  for (const h of hits) {
    start = Math.min(start, h.index);
    end = Math.max(end, h.index + 1);
  }
  const weakBy: Partial<Record<Cue, Set<string>>> = {};
  for (const h of [...hits, ...fieldWide]) {
    for (const c of CUES) {
      let l = level(h.cues[c], h.weak);
      if (l === 1 && CORROBORATED.has(c)) {
        const by = (weakBy[c] ??= new Set());
        by.add(h.pattern);
        if (by.size >= 2) l = 2;
      }
      if (l > (best[c] ?? 0)) best[c] = l;
    }
  }
  const lv = (c: Cue): Level => best[c] ?? 0;
  // Only a model reads a chat turn or a chat-template token: a fake turn addresses it.
  const addressed = Math.max(lv('addressee'), lv('fake_turn')) as Level;
  const overriding = Math.max(lv('override'), lv('concealment')) as Level;
  const action = lv('action') > 0 ? 1 : 0;
  let confidence = LADDER[addressed * 6 + overriding * 2 + action]!;
  if (confidence === 0) return undefined;
  // Each further cue (framing; a fake turn beside an addressee; concealment beside an override)
  // adds a little; the gray zone stays gray and a finding stays below certainty.
  const present = CUES.filter((c) => lv(c) > 0).length;
  const axes = [addressed, overriding, action].filter((l) => l > 0).length;
  const extra = Math.max(0, present - axes);
  confidence = Math.min(confidence > 0.65 ? 0.98 : 0.65, round3(confidence + 0.03 * extra));
  const cues: CueSet = {};
  for (const c of CUES) if (lv(c) > 0) cues[c] = lv(c) === 2 ? 'strong' : 'weak';
  return {
    confidence,
    critical: addressed === 2 && overriding === 2 && action === 1,
    cues,
    start,
    end,
  };
}

/**
 * The best-scoring passage of a text: the hits within PASSAGE_CHARS of each other, taken from each
 * hit to the farthest one within reach (hits sorted by index; a few dozen at most per text).
 * `fieldWide` cues (invisible characters, an encoding) belong to no place: they count in every
 * passage.
 */
export function bestPassage(
  hits: readonly CueHit[],
  fieldWide: readonly CueHit[] = [],
): PassageScore | undefined {
  const sorted = [...hits].sort((a, b) => a.index - b.index);
  let best: PassageScore | undefined;
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1]!.index - sorted[i]!.index <= PASSAGE_CHARS) j++;
    const passage = sorted.slice(i, j + 1);
    const s = scorePassage(passage, fieldWide);
    if (s && (!best || s.confidence > best.confidence)) best = s;
  }
  return best;
}
