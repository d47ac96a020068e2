/**
 * How a run's traces fell into sessions: the sessions the recordings named (a session or
 * conversation id), the traces in them, and the traces that named none — scored in no session.
 * Report v1 carries it as `sessionCoverage` (schema 1.4).
 */
import { z } from 'zod';

export const SessionCoverageSchema = z.object({
  /** Sessions the recordings named. */
  sessions: z.number().int().nonnegative(),
  /** Traces in them. */
  grouped: z.number().int().nonnegative(),
  /** Traces that named no session: scored in none. */
  withoutSession: z.number().int().nonnegative(),
});
export type SessionCoverage = z.infer<typeof SessionCoverageSchema>;
