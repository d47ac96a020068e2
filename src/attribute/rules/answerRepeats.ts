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
    const value = new RegExp(`(?<![\\p{L}\\p{N}])${escape(final.answer)}(?![\\p{L}\\p{N}])`, 'iu');
    for (const [i, s] of ctx.trace.steps.entries()) {
      const n = i + 1;
      if (n <= ctx.handover || n === final.statedAt) continue;
      const owner = ctx.agents[i];
      if (s.type === 'message' && owner === undefined) continue;
      if (ctx.roleOf(owner) === 'router') continue;
      if (!value.test(stepText(s))) continue;
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
