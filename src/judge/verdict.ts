import { z } from 'zod';
import { usdAmount } from '../util/amounts.js';

export const JudgeProviderSchema = z.enum(['openai', 'anthropic']);

export const JudgeEvalSchema = z.object({
  provider: JudgeProviderSchema,
  model: z.string(),
  /** HTTP status of the judge's last answer; 0 when no HTTP answer arrived (timeout, network, cassette miss). */
  httpStatus: z.number().int(),
  usedStructuredOutput: z.boolean(),
  score: z.number().min(0).max(1).optional(),
  confidence: z.number().min(0).max(1).optional(),
  passed: z.boolean().optional(),
  reasoning: z.string().optional(),
  error: z.string().optional(),
  latencyMs: z.number().nonnegative(),
  costUsd: usdAmount(),
  /** True when the answer came from the cassette or the in-memory cache rather than the network. */
  cached: z.boolean().optional(),
  /**
   * True when the answer was recorded earlier and read from the cassette (or from memory of such
   * an answer), not asked of the judge in this run: a committed file decided it. Absent when live.
   */
  replayed: z.boolean().optional(),
});
export type JudgeEval = z.infer<typeof JudgeEvalSchema>;

export const VerdictSchema = z.object({
  traceId: z.string(),
  passed: z.boolean(),
  indeterminate: z.boolean(),
  reason: z.string().optional(),
  score: z.number().min(0).max(1),
  confidence: z.number().min(0).max(1),
  /** The threshold the consensus score and confidence were held to (absent in reports before 1.4). */
  threshold: z.number().min(0).max(1).optional(),
  disagreement: z.number().min(0).max(1),
  highDisagreement: z.boolean(),
  modelsUsed: z.array(z.string()),
  latencyMs: z.number().nonnegative(),
  costUsd: usdAmount(),
  judges: z.array(JudgeEvalSchema),
  /** Which stages ran: 0 consistency, 1 schema, 2 tribunal. */
  stages: z.array(z.number().int().min(0).max(2)).optional(),
  /** Stage 0/1 findings that decided or informed the verdict. */
  findings: z
    .array(
      z.object({
        stage: z.number().int(),
        kind: z.string(),
        message: z.string(),
        /** Where in the response text a stage 0 finding is (character offsets, end exclusive). */
        spans: z
          .array(z.object({ start: z.number().int(), end: z.number().int(), text: z.string() }))
          .optional(),
      }),
    )
    .optional(),
  /** Set when the circuit breaker had tripped and only stages 0–1 ran. */
  circuitOpen: z.boolean().optional(),
  /** Test or rubric name, when the verdict came from a suite rather than a trace. */
  name: z.string().optional(),
  /**
   * True when every judge's answer was replayed from the cassette (JudgeEval.replayed): no judge
   * was asked in this run. Renderers say "replayed" wherever they show the verdict.
   */
  replayed: z.boolean().optional(),
});
export type Verdict = z.infer<typeof VerdictSchema>;

/**
 * What a renderer adds after a verdict it shows, when the cassette decided it (`replayed`): a
 * committed file, not a judge asked in this run, so a reviewer knows to look at the cassette's diff.
 */
export function replayedNote(verdict: Pick<Verdict, 'replayed'>): string {
  return verdict.replayed ? ', replayed from the cassette' : '';
}
