/**
 * Session scores side by side. A score is keyed by its test and metric when it belongs to a Vitest
 * test (session ids of a test run may change between runs), else by session id and metric; a
 * score found on one side only has null on the other.
 */
import { z } from 'zod';
import type { Report, SessionScore } from '../report/schema.js';
import { tidy } from './delta.js';

export const SessionDiffSchema = z.object({
  sessionId: z.string(),
  metric: z.enum(['agent_reliability', 'agent_consistency']),
  test: z.string().optional(),
  base: z.number().nullable(),
  head: z.number().nullable(),
  delta: z.number().nullable(),
  basePassed: z.boolean().nullable(),
  headPassed: z.boolean().nullable(),
});
export type SessionDiff = z.infer<typeof SessionDiffSchema>;

const keyOf = (s: SessionScore) =>
  s.test !== undefined
    ? `test\u0000${s.test}\u0000${s.metric}`
    : `session\u0000${s.sessionId}\u0000${s.metric}`;

export function sessionDiffs(base: Report, head: Report): SessionDiff[] {
  const b = new Map(base.sessions.map((s) => [keyOf(s), s]));
  const h = new Map(head.sessions.map((s) => [keyOf(s), s]));
  const keys = [...new Set([...h.keys(), ...b.keys()])];
  return keys
    .map((k) => {
      const bs = b.get(k);
      const hs = h.get(k);
      const any = (hs ?? bs)!;
      return {
        sessionId: any.sessionId,
        metric: any.metric,
        ...(any.test !== undefined ? { test: any.test } : {}),
        base: bs?.score ?? null,
        head: hs?.score ?? null,
        delta: bs && hs ? tidy(hs.score - bs.score) : null,
        basePassed: bs?.passed ?? null,
        headPassed: hs?.passed ?? null,
      };
    })
    .sort((x, y) => (x.delta ?? 0) - (y.delta ?? 0));
}
