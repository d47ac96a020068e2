/**
 * Failure attribution across a pull request: failed runs per side and the causes per agent, with
 * the change ("WebSurfer caused 9 of 14 failures, +5"), from the two reports' `attribution`
 * tallies. Absent when neither report attributed a failure (reports before 1.4, or nothing failed).
 */
import { z } from 'zod';
import type { Report } from '../report/schema.js';
import { fmtInt } from '../util/thousands.js';
import { signedInt } from './format.js';

/** Agents named in the one-line summary; the rest are counted. */
const MAX_AGENTS_NAMED = 4;

const side = z.object({
  failedRuns: z.number().int().nonnegative(),
  attributed: z.number().int().nonnegative(),
});

export const AttributionDiffSchema = z.object({
  base: side,
  head: side,
  /** Causes per agent on each side, most in head first; agents of either side. */
  agents: z.array(
    z.object({
      agent: z.string(),
      base: z.number().int().nonnegative(),
      head: z.number().int().nonnegative(),
      delta: z.number().int(),
    }),
  ),
});
export type AttributionDiff = z.infer<typeof AttributionDiffSchema>;

export function attributionDiff(base: Report, head: Report): AttributionDiff | undefined {
  if (!base.attribution && !head.attribution) return undefined;
  const counts = new Map<string, { base: number; head: number }>();
  for (const [key, tally] of [
    ['base', base.attribution],
    ['head', head.attribution],
  ] as const)
    for (const a of tally?.agents ?? []) {
      const c = counts.get(a.agent) ?? { base: 0, head: 0 };
      c[key] = a.causes;
      counts.set(a.agent, c);
    }
  const sideOf = (r: Report) => ({
    failedRuns: r.attribution?.failedRuns ?? 0,
    attributed: r.attribution?.attributed ?? 0,
  });
  return {
    base: sideOf(base),
    head: sideOf(head),
    agents: [...counts.entries()]
      .map(([agent, c]) => ({ agent, ...c, delta: c.head - c.base }))
      .sort(
        (a, b) =>
          b.head - a.head ||
          Math.abs(b.delta) - Math.abs(a.delta) ||
          (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : 0),
      ),
  };
}

/** "Root causes: WebSurfer caused 9 of 14 failures (+5), Assistant 3 (-1); base 9 failures" */
export function attributionDiffText(d: AttributionDiff): string {
  const [first, ...rest] = d.agents.filter((a) => a.head > 0 || a.delta !== 0);
  const failures = `${fmtInt(d.head.failedRuns)} failure${d.head.failedRuns === 1 ? '' : 's'}`;
  const change = (a: { delta: number }) => (a.delta === 0 ? '' : ` (${signedInt(a.delta)})`);
  const named = first
    ? [
        `${first.agent} caused ${fmtInt(first.head)} of ${failures}${change(first)}`,
        ...rest.slice(0, MAX_AGENTS_NAMED - 1).map((a) => `${a.agent} ${fmtInt(a.head)}${change(a)}`),
      ].join(', ')
    : `${failures}, none attributed`;
  return `Root causes: ${named}; base ${fmtInt(d.base.failedRuns)} failure${d.base.failedRuns === 1 ? '' : 's'}`;
}
