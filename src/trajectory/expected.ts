/**
 * What a caller expects an agent to have done: the tool calls, by name and (optionally) arguments.
 * This is data (often read from a file of test cases), so it is a zod schema; the options, which
 * hold functions, are plain TypeScript types (options.ts).
 */
import { z } from 'zod';

/**
 * One expected tool call. Without `args` it matches any arguments of that tool. Unknown keys are
 * an error rather than ignored, so a typo (`arguments`, `kwargs`) cannot silently widen a test to
 * "any arguments".
 */
export const ExpectedCallSchema = z.strictObject({
  name: z.string().min(1, { error: 'empty; name the tool' }),
  args: z.unknown().optional(),
});
export type ExpectedCall = z.infer<typeof ExpectedCallSchema>;

export const ExpectedTrajectorySchema = z.array(ExpectedCallSchema);

/**
 * - strict: the same calls in the same order;
 * - unordered: the same calls (as a multiset), any order;
 * - subset: every call the trace made was expected (extras fail; expected calls may be missing);
 * - superset: every expected call happened (missing calls fail; extra calls are allowed).
 */
export const TrajectoryModeSchema = z.enum(['strict', 'unordered', 'subset', 'superset']);
export type TrajectoryMode = z.infer<typeof TrajectoryModeSchema>;
