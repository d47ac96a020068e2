/**
 * Built-in rubrics. A rubric is the criterion the judges score against: a built-in name, a name
 * from the config's `rubrics:`, or rubric text. Text is a sentence, so a rubric without whitespace
 * is taken for a name, and an unknown name is an error with the nearest names — a misspelt
 * `refund_answr` must not be sent to paid judges as the criterion itself.
 */
import { nearest } from '../util/nearest.js';

export const BUILT_IN_RUBRICS = {
  task_completion:
    'Task completion: does the response fully accomplish the task stated in the context? Score 1 when every part of the task is done correctly, 0 when the task is not attempted or the result is wrong. Partial completion scores in between.',
  tool_correctness:
    'Tool correctness: were the right tools called, with valid arguments, in a sensible order, and were their results used correctly? Score 0 for wrong tools, invented tool results or ignored tool errors.',
  coherence:
    'Coherence: is the response logically consistent, well organised and free of self-contradiction? Score 0 for contradictory or incoherent answers.',
  groundedness:
    'Groundedness: is every factual claim in the response supported by the provided context (documents, tool results)? Score 0 when the response states facts the context does not support or contradicts.',
  instruction_adherence:
    'Instruction adherence: does the response follow every explicit instruction and constraint of the task (format, length, language, scope, things it must not do)? Score 0 for a clear violation.',
} as const;

export type BuiltInRubricName = keyof typeof BUILT_IN_RUBRICS;
export const DEFAULT_RUBRIC: BuiltInRubricName = 'task_completion';

export class RubricError extends Error {
  override name = 'RubricError';
}

/** Whether `rubric` is a name rather than text: text has words, a name has none between. */
export function looksLikeRubricName(rubric: string): boolean {
  return !/\s/.test(rubric.trim());
}

/**
 * What is wrong with `rubric`, or undefined: a name-like rubric must be built in or in `custom`.
 * The message names the nearest names and every one there is.
 */
export function rubricProblem(rubric: string, custom: Record<string, string> = {}): string | undefined {
  if (!looksLikeRubricName(rubric)) return undefined;
  if (Object.hasOwn(custom, rubric) || Object.hasOwn(BUILT_IN_RUBRICS, rubric)) return undefined;
  const names = [...Object.keys(BUILT_IN_RUBRICS), ...Object.keys(custom)];
  const hint = nearest(rubric, names);
  return (
    `unknown rubric "${rubric}"${hint ? ` — did you mean "${hint}"?` : ''} ` +
    `(built in: ${Object.keys(BUILT_IN_RUBRICS).join(', ')}; ` +
    `tribunal.rubrics: ${Object.keys(custom).join(', ') || 'none'}). ` +
    'Rubric text is a sentence: a rubric without spaces is read as a name'
  );
}

/** Resolves a rubric name (built-in or from `custom`) to its text; text with spaces is used as is. */
export function resolveRubric(
  rubric: string | undefined,
  custom: Record<string, string> = {},
): { name: string; text: string } {
  const key = rubric ?? DEFAULT_RUBRIC;
  if (Object.hasOwn(custom, key)) return { name: key, text: custom[key]! };
  if (Object.hasOwn(BUILT_IN_RUBRICS, key))
    return { name: key, text: BUILT_IN_RUBRICS[key as BuiltInRubricName] };
  const problem = rubricProblem(key, custom);
  if (problem) throw new RubricError(problem);
  return { name: 'custom', text: key };
}
