/**
 * The judge's answer: `{ score, confidence, passed, reasoning }` as a JSON object, plain or in a
 * ```json fence (or an Anthropic tool_use input). Anything else is a parse error, which makes the
 * verdict INDETERMINATE.
 */
import { z } from 'zod';

export const JudgeAnswerSchema = z.object({
  score: z.number().min(0).max(1),
  confidence: z.number().min(0).max(1),
  passed: z.boolean(),
  reasoning: z.string(),
});
export type JudgeAnswer = z.infer<typeof JudgeAnswerSchema>;

/** JSON Schema sent as the structured-output format / tool input schema. */
export const JUDGE_ANSWER_JSON_SCHEMA = {
  type: 'object',
  properties: {
    score: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description: 'How well the response meets the rubric, 0–1.',
    },
    confidence: { type: 'number', minimum: 0, maximum: 1, description: 'Your confidence in the score, 0–1.' },
    passed: { type: 'boolean', description: 'Whether the response meets the rubric.' },
    reasoning: { type: 'string', description: 'One to three sentences explaining the score.' },
  },
  required: ['score', 'confidence', 'passed', 'reasoning'],
  additionalProperties: false,
} as const;

export type AnswerResult = { ok: true; answer: JudgeAnswer } | { ok: false; error: string };

/** Parses a judge's answer text: the whole text as a JSON object, else the first ```json fence in it. */
export function parseJudgeAnswer(text: string): AnswerResult {
  const trimmed = text.trim();
  const fence = trimmed.startsWith('{')
    ? null
    : /```(?:json|JSON)?[ \t]*\r?\n([\s\S]*?)\r?\n?```/.exec(trimmed);
  const body = fence ? fence[1]!.trim() : trimmed;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return {
      ok: false,
      error: `unparseable answer (not a JSON object): ${JSON.stringify(trimmed.slice(0, 80))}`,
    };
  }
  const result = JudgeAnswerSchema.safeParse(value);
  if (!result.success) {
    const first = result.error.issues[0]!;
    return {
      ok: false,
      error: `invalid answer: ${first.path.join('.') || '(root)'}: ${first.message}`,
    };
  }
  return { ok: true, answer: result.data };
}
