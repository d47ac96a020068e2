/**
 * Outcomes in a diff: the success rate of each side with its 95 % (Wilson) interval, overall and
 * per agent, and the tasks whose outcome flipped. A task flipped pass → fail when it passed in
 * most of its base runs and failed in most of its head runs (a task with as many passes as
 * failures on a side counts as neither), and the other way round for fail → pass. Each flipped
 * task names head's traces of it, so the HTML report can open them.
 */
import { z } from 'zod';
import type { Report } from '../report/schema.js';
import { splitTask, traceTask, type SuccessRuns } from './runs.js';
import { wilsonInterval } from './stats/wilson.js';

export const SuccessRateSchema = z.object({
  runs: z.number().int().nonnegative(),
  succeeded: z.number().int().nonnegative(),
  rate: z.number().min(0).max(1),
  /** 95 % Wilson interval of the rate. */
  interval: z.tuple([z.number(), z.number()]),
});
export type SuccessRate = z.infer<typeof SuccessRateSchema>;

const TallySchema = z.object({ passed: z.number().int().nonnegative(), runs: z.number().int().positive() });

export const FlippedTaskSchema = z.object({
  /** The test name, the recording's task key, or the trace (file and id). */
  task: z.string(),
  by: z.enum(['test', 'task', 'trace']),
  base: TallySchema,
  head: TallySchema,
  /** Head's traces of the task (at most MAX_TRACES_NAMED), for links to their timelines. */
  traces: z.array(
    z.object({
      id: z.string(),
      file: z.string(),
      line: z.number().int().positive().optional(),
      test: z.string().optional(),
    }),
  ),
});
export type FlippedTask = z.infer<typeof FlippedTaskSchema>;

export const OutcomesDiffSchema = z.object({
  /** Where success came from: Vitest test attempts, recorded outcomes, or the judges' verdicts. */
  source: z.enum(['tests', 'outcomes', 'verdicts']),
  /** null on a side that records no success. */
  base: SuccessRateSchema.nullable(),
  head: SuccessRateSchema.nullable(),
  /** Per agent (runs' agentId), when the runs name more than one. */
  byAgent: z.array(
    z.object({ agent: z.string(), base: SuccessRateSchema.nullable(), head: SuccessRateSchema.nullable() }),
  ),
  /** Tasks on both sides whose outcome flipped, worst first (at most MAX_FLIPPED listed each way). */
  flipped: z.object({
    toFail: z.array(FlippedTaskSchema),
    toPass: z.array(FlippedTaskSchema),
    toFailCount: z.number().int().nonnegative(),
    toPassCount: z.number().int().nonnegative(),
  }),
  /** pass^k of each side (Vitest runs with repeats: index k-1). */
  passHatK: z.object({ base: z.array(z.number()), head: z.array(z.number()) }).optional(),
});
export type OutcomesDiff = z.infer<typeof OutcomesDiffSchema>;

const MAX_FLIPPED = 100;
const MAX_TRACES_NAMED = 5;

function rate(values: readonly number[]): SuccessRate | null {
  if (values.length === 0) return null;
  const succeeded = values.reduce((a, b) => a + b, 0);
  return {
    runs: values.length,
    succeeded,
    rate: succeeded / values.length,
    interval: wilsonInterval(succeeded, values.length),
  };
}

function tallies(s: SuccessRuns): Map<string, { passed: number; runs: number }> {
  const m = new Map<string, { passed: number; runs: number }>();
  for (const r of s.runs) {
    const t = m.get(r.task) ?? { passed: 0, runs: 0 };
    t.passed += r.value;
    t.runs++;
    m.set(r.task, t);
  }
  return m;
}

/** +1 when most runs passed, −1 when most failed, 0 for a tie. */
const leaning = (t: { passed: number; runs: number }) => Math.sign(2 * t.passed - t.runs);

function byAgent(base: SuccessRuns | undefined, head: SuccessRuns | undefined): OutcomesDiff['byAgent'] {
  const group = (s: SuccessRuns | undefined) => {
    const m = new Map<string, number[]>();
    s?.runs.forEach((r, i) => {
      const agent = s.agents[i];
      if (agent === undefined) return;
      const list = m.get(agent) ?? [];
      list.push(r.value);
      m.set(agent, list);
    });
    return m;
  };
  const b = group(base);
  const h = group(head);
  const agents = [...new Set([...b.keys(), ...h.keys()])].sort();
  if (agents.length < 2) return [];
  return agents.map((agent) => ({ agent, base: rate(b.get(agent) ?? []), head: rate(h.get(agent) ?? []) }));
}

/** Outcomes of the two sides; undefined when neither records success, or they record it differently. */
export function outcomesDiff(
  base: SuccessRuns | undefined,
  head: SuccessRuns | undefined,
  headReport: Pick<Report, 'traces' | 'testRun'>,
  baseReport: Pick<Report, 'testRun'>,
): OutcomesDiff | undefined {
  const source = head?.source ?? base?.source;
  if (source === undefined || (base && head && base.source !== head.source)) return undefined;
  const bt = base ? tallies(base) : new Map<string, { passed: number; runs: number }>();
  const ht = head ? tallies(head) : new Map<string, { passed: number; runs: number }>();
  const toFail: FlippedTask[] = [];
  const toPass: FlippedTask[] = [];
  const tracesOf = new Map<string, FlippedTask['traces']>();
  for (const t of headReport.traces) {
    const list = tracesOf.get(traceTask(t)) ?? [];
    if (list.length < MAX_TRACES_NAMED)
      list.push({
        id: t.id,
        file: t.file,
        ...(t.line !== undefined ? { line: t.line } : {}),
        ...(t.test !== undefined ? { test: t.test } : {}),
      });
    tracesOf.set(traceTask(t), list);
  }
  for (const [key, b] of bt) {
    const h = ht.get(key);
    if (!h) continue;
    const from = leaning(b);
    const to = leaning(h);
    if (from === to || from === 0 || to === 0) continue;
    const { kind, name } = splitTask(key);
    const flipped = { task: name, by: kind, base: b, head: h, traces: tracesOf.get(key) ?? [] };
    (from > 0 ? toFail : toPass).push(flipped);
  }
  const drop = (x: FlippedTask) => x.base.passed / x.base.runs - x.head.passed / x.head.runs;
  const order = (a: FlippedTask, b: FlippedTask) =>
    Math.abs(drop(b)) - Math.abs(drop(a)) || (a.task < b.task ? -1 : a.task > b.task ? 1 : 0);
  toFail.sort(order);
  toPass.sort(order);
  const passHatK =
    baseReport.testRun &&
    headReport.testRun &&
    baseReport.testRun.repeated > 0 &&
    headReport.testRun.repeated > 0
      ? { base: baseReport.testRun.passHatK, head: headReport.testRun.passHatK }
      : undefined;
  return {
    source,
    base: base ? rate(base.runs.map((r) => r.value)) : null,
    head: head ? rate(head.runs.map((r) => r.value)) : null,
    byAgent: byAgent(base, head),
    flipped: {
      toFail: toFail.slice(0, MAX_FLIPPED),
      toPass: toPass.slice(0, MAX_FLIPPED),
      toFailCount: toFail.length,
      toPassCount: toPass.length,
    },
    ...(passHatK ? { passHatK } : {}),
  };
}

/**
 * pass^k of both sides at the largest k both have (the chance that k attempts of a test all pass,
 * averaged over the repeated tests), or undefined without repeats on both sides.
 */
export function commonPassHatK(
  o: Pick<OutcomesDiff, 'passHatK'>,
): { k: number; base: number; head: number } | undefined {
  const p = o.passHatK;
  const k = p ? Math.min(p.base.length, p.head.length) : 0;
  if (!p || k < 2) return undefined;
  return { k, base: p.base[k - 1]!, head: p.head[k - 1]! };
}
