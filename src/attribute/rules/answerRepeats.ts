/**
 * The step whose output the final (wrong) answer repeats: where the value the run ended with first
 * appeared. The final answer is what the run stated as one — a "FINAL ANSWER: …" line (the GAIA
 * convention Magentic-One and AutoGen runs print), else a short output — and a value of fewer than
 * three characters is not looked for: "6" is in too many steps to say where it came from. Steps of
 * routers only relay, so they are not sources; what an executor printed is its worker's.
 */
import { stepText } from '../stepText.js';
import type { AttributionRule } from '../rule.js';
import type { Trace } from '../../trace/schema.js';

const FINAL_ANSWER = /FINAL ANSWER:[ \t]*(\S[^\n]*)/i;
/** An output short enough to be an answer rather than a report. */
const MAX_ANSWER_CHARS = 120;
const MIN_ANSWER_CHARS = 3;

export interface FinalAnswer {
  answer: string;
  /** The step that stated it (excluded from the search), when a step did. */
  statedAt?: number;
}

function cleaned(answer: string): string {
  return answer
    .trim()
    .replace(/[.。]+$/, '')
    .trim();
}

/** The run's final answer, when it states one plainly. */
export function finalAnswerOf(trace: Trace): FinalAnswer | undefined {
  const lastStep = trace.steps.length;
  const last = lastStep > 0 ? stepText(trace.steps[lastStep - 1]!) : '';
  const output =
    typeof trace.output === 'string'
      ? trace.output
      : trace.output === undefined
        ? ''
        : stepText({ type: 'message', from: '', content: trace.output });
  const marked = FINAL_ANSWER.exec(output)?.[1] ?? FINAL_ANSWER.exec(last)?.[1];
  if (marked !== undefined) {
    const answer = cleaned(marked);
    return answer.length >= MIN_ANSWER_CHARS ? { answer, statedAt: lastStep } : undefined;
  }
  const short = cleaned(output);
  if (short.length < MIN_ANSWER_CHARS || short.length > MAX_ANSWER_CHARS || short.includes('\n'))
    return undefined;
  // The output is the last LLM step's: that step states it, the search is for where it came from.
  const lastLlm = trace.steps.findLastIndex((s) => s.type === 'llm');
  return { answer: short, ...(lastLlm >= 0 ? { statedAt: lastLlm + 1 } : {}) };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Not preceded, and not followed, by a letter or digit, tested at `lastIndex` (sticky). Compiled
 * once: a pattern holding `\p{L}` under `iu` costs about 0.3 ms to compile (V8 closes the class
 * over case), which per trace was a fifth of analyze's time on many small runs. The flags are the
 * ones the answer is matched with, so the boundaries mean what they meant inside one pattern.
 */
const NO_WORD_BEFORE = /(?<![\p{L}\p{N}])/iuy;
const NO_WORD_AFTER = /(?![\p{L}\p{N}])/iuy;

const ASCII = /^[\x00-\x7f]*$/;
/** An ASCII letter or digit: all that `[\p{L}\p{N}]` under `iu` matches among ASCII characters. */
const isAsciiWordChar = (c: number) =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/**
 * A matcher for `answer` as a whole word (case-insensitive, no letter or digit either side): the
 * same positions as `(?<![\p{L}\p{N}])answer(?![\p{L}\p{N}])` under `iu`. When the answer and the
 * text are both ASCII, that is an ASCII case-insensitive search (under `iu` an ASCII letter also
 * matches the Kelvin sign and the long s, which are not ASCII), done with indexOf; otherwise the
 * escaped answer is compiled (once, on first need: compiling a literal under `iu` costs tens of
 * microseconds, a twentieth of analyze's CPU on small traces when done for every one) and the
 * boundaries are checked where it occurs.
 */
export function wholeWordMatcher(answer: string): (text: string) => boolean {
  const asciiAnswer = ASCII.test(answer) ? answer.toLowerCase() : undefined;
  let literal: RegExp | undefined;
  const at = (boundary: RegExp, text: string, index: number) => {
    boundary.lastIndex = index;
    return boundary.test(text);
  };
  return (text) => {
    if (asciiAnswer !== undefined && ASCII.test(text)) {
      const lower = text.toLowerCase();
      for (let i = lower.indexOf(asciiAnswer); i >= 0; i = lower.indexOf(asciiAnswer, i + 1)) {
        const end = i + asciiAnswer.length;
        if (
          (i === 0 || !isAsciiWordChar(lower.charCodeAt(i - 1))) &&
          (end >= lower.length || !isAsciiWordChar(lower.charCodeAt(end)))
        )
          return true;
      }
      return false;
    }
    literal ??= new RegExp(escape(answer), 'giu');
    literal.lastIndex = 0;
    for (let m = literal.exec(text); m !== null; m = literal.exec(text)) {
      if (at(NO_WORD_BEFORE, text, m.index) && at(NO_WORD_AFTER, text, m.index + m[0].length)) return true;
      // The next place it could start: one code point on (a literal matches one way at a place).
      const c = text.charCodeAt(m.index);
      literal.lastIndex = m.index + (c >= 0xd800 && c <= 0xdbff && m.index + 1 < text.length ? 2 : 1);
    }
    return false;
  };
}

export const answerRepeats: AttributionRule = {
  meta: {
    id: 'ANSWER_REPEATS',
    description:
      'The step whose output the final answer repeats: where the value the run ended with first appeared',
    messages: { repeats: 'the final answer ({{answer}}) first appears in what this step returned' },
  },
  find(ctx) {
    const final = finalAnswerOf(ctx.trace);
    if (!final) return [];
    const repeats = wholeWordMatcher(final.answer);
    for (const [i, s] of ctx.trace.steps.entries()) {
      const n = i + 1;
      if (n <= ctx.handover || n === final.statedAt) continue;
      const owner = ctx.agents[i];
      if (s.type === 'message' && owner === undefined) continue;
      if (ctx.roleOf(owner) === 'router') continue;
      if (!repeats(stepText(s))) continue;
      return [
        {
          step: n,
          messageId: 'repeats',
          data: { answer: final.answer },
          confidence: 0.6,
          strength: 'evidence',
        },
      ];
    }
    return [];
  },
};
