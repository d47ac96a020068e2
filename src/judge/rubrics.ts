/**
 * Built-in rubrics. A rubric is the criterion the judges score against; anything that is not a
 * built-in (or configured) name is used verbatim as rubric text.
 */
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

/** Resolves a rubric name (built-in or from `custom`) to its text; unknown names are rubric text. */
export function resolveRubric(
  rubric: string | undefined,
  custom: Record<string, string> = {},
): { name: string; text: string } {
  const key = rubric ?? DEFAULT_RUBRIC;
  if (Object.hasOwn(custom, key)) return { name: key, text: custom[key]! };
  if (Object.hasOwn(BUILT_IN_RUBRICS, key))
    return { name: key, text: BUILT_IN_RUBRICS[key as BuiltInRubricName] };
  return { name: 'custom', text: key };
}
