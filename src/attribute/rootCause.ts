/**
 * What failure attribution says of a failed run: the step where it went wrong, the agent that owns
 * it, the rule that chose it, how sure it is, why, and the later findings that follow from it — or
 * that no credible cause was found, and why. Report v1 carries it as `traces[].rootCause`.
 */
import { z } from 'zod';

const stepNumber = () => z.number().int().min(1).describe('A step number, from 1 in trace order');

export const SymptomSchema = z.object({
  detector: z.string(),
  /** The first step of the finding. */
  step: stepNumber(),
});
export type Symptom = z.infer<typeof SymptomSchema>;

/** Another step a rule (or the prior) named, which the chosen one was preferred to. */
export const AlternativeSchema = z.object({
  step: stepNumber(),
  agent: z.string(),
  rule: z.string(),
  confidence: z.number().min(0).max(1),
});
export type Alternative = z.infer<typeof AlternativeSchema>;

/**
 * A named step, as an alternative is, and why: `step` where the run went wrong, `agent` that owns
 * it (the run's agentId when the recording names no agent on its steps), `rule` that chose it (its
 * id) or the prior, and `confidence` 0–1: the rule's, or the judges' when the tribunal chose.
 */
export const AttributedSchema = AlternativeSchema.extend({
  /** One sentence: what happened at that step. */
  evidence: z.string(),
  /** The first later step the cause led to, when the rule sees one (the action an injection caused). */
  effect: z.object({ step: stepNumber(), evidence: z.string() }).optional(),
  /** Findings that follow from it: at or after its step. */
  symptoms: z.array(SymptomSchema),
  /** Other steps named by rules that disagreed, or the prior's other candidates (at most 4). */
  alternatives: z.array(AlternativeSchema).optional(),
  /** Who decided among the candidates: the rules (in order), or the tribunal in the gray zone. */
  decidedBy: z.enum(['rules', 'tribunal']),
  /** When the tribunal chose: its consensus score for the chosen step and how many judges heard it. */
  tribunal: z
    .object({
      score: z.number().min(0).max(1),
      judges: z.number().int().nonnegative(),
      reasoning: z.string().optional(),
    })
    .optional(),
});
export type Attributed = z.infer<typeof AttributedSchema>;

export const UnattributedSchema = z.object({
  /** Why no step was named: no rule found a credible cause, and the prior does not apply. */
  unattributed: z.string(),
});

export const RootCauseSchema = z.union([AttributedSchema, UnattributedSchema]);
export type RootCause = z.infer<typeof RootCauseSchema>;

export function isAttributed(r: RootCause | undefined): r is Attributed {
  return r !== undefined && 'step' in r;
}
