/**
 * The `sessions:` section of tracejury.yml: the session scores every report carries
 * (agent_reliability and agent_consistency per session) and whether a low one fails the gate.
 *
 * ```yaml
 * sessions:
 *   reliabilityThreshold: 0.5   # agent_reliability below this fails the session
 *   consistencyThreshold: 0.5   # agent_consistency below this fails the session
 *   weights: { confidence: 1.0, loop_detection: 1.0, tool_correctness: 0.8, coherence: 1.0 }
 *   failGate: true              # a failed session fails the gate (false: reported only)
 * ```
 */
import { z } from 'zod';
import { SignalWeightsSchema, type SignalWeights } from './signals.js';

export const DEFAULT_SESSIONS = {
  reliabilityThreshold: 0.5,
  consistencyThreshold: 0.5,
  failGate: true,
} as const;

const weight = (signal: string, def: number) =>
  z.number().nonnegative().describe(`Weight of the ${signal} risk (default ${def})`);

export const SessionsSectionSchema = z
  .object({
    reliabilityThreshold: z
      .number()
      .min(0)
      .max(1)
      .describe(
        `A session whose agent_reliability is below this fails (default ${DEFAULT_SESSIONS.reliabilityThreshold})`,
      ),
    consistencyThreshold: z
      .number()
      .min(0)
      .max(1)
      .describe(
        `A session whose agent_consistency is below this fails (default ${DEFAULT_SESSIONS.consistencyThreshold})`,
      ),
    weights: z
      .object({
        confidence: weight('confidence', 1.0),
        loop_detection: weight('loop_detection', 1.0),
        tool_correctness: weight('tool_correctness', 0.8),
        coherence: weight('coherence', 1.0),
      })
      .partial()
      .strict()
      .describe('How much each per-trace signal counts in both session scores'),
    failGate: z
      .boolean()
      .describe('A session below its threshold fails the gate (default true); false to only report it'),
  })
  .partial()
  .strict()
  .describe('Session scores: agent_reliability and agent_consistency per session');
export type SessionsSection = z.infer<typeof SessionsSectionSchema>;

/** The section with its defaults filled in. */
export interface SessionSettings {
  reliabilityThreshold: number;
  consistencyThreshold: number;
  weights: SignalWeights;
  failGate: boolean;
}

export function sessionSettings(section: SessionsSection | undefined = {}): SessionSettings {
  return {
    reliabilityThreshold: section.reliabilityThreshold ?? DEFAULT_SESSIONS.reliabilityThreshold,
    consistencyThreshold: section.consistencyThreshold ?? DEFAULT_SESSIONS.consistencyThreshold,
    weights: SignalWeightsSchema.parse(section.weights ?? {}),
    failGate: section.failGate ?? DEFAULT_SESSIONS.failGate,
  };
}
