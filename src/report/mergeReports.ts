/**
 * One report from the partial reports of a sharded run: the jobs of an Actions matrix, each of
 * which analysed a slice of the trace files or ran a shard of the Vitest suite. Lists are joined,
 * counts summed, waste and the outcome precision recomputed from the joined signals, and the gate
 * decided again over the whole: the severity part from all findings together (so "TOOL_LOOP: 3
 * high signals" counts every shard's), the rest (sessions, outcomes, judges, detector failures)
 * carried over from the shard that raised it. A test run's gate is its tests, as in one run.
 */
import type { Severity } from '../detect/signal.js';
import { redact } from '../redact/redact.js';
import { plural } from '../util/thousands.js';
import { evaluateGate } from './gate.js';
import { REPORT_SCHEMA_MINOR, REPORT_SCHEMA_VERSION, type Report } from './schema.js';
import { testRunGate, testRunSummary } from './testRunReport.js';
import { attributionTally } from './attributionTally.js';
import { wasteTotals } from './wasteTotals.js';
import { dict } from '../util/dict.js';

const MAX_ERRORS = 1000;

function sumRecords<T extends Record<string, number>>(records: readonly (T | undefined)[]): T {
  const out = dict<number>();
  for (const r of records) for (const [k, v] of Object.entries(r ?? {})) out[k] = (out[k] ?? 0) + v;
  return out as T;
}

/** The shards' decisions summed; absent when no shard has them (reports before 1.3). */
function mergeDecisions(parts: readonly Report[]): Report['decisions'] {
  const withDecisions = parts.flatMap((p) => (p.decisions ? [p.decisions] : []));
  if (withDecisions.length === 0) return undefined;
  return {
    signals: withDecisions.reduce((a, d) => a + d.signals, 0),
    byTier: sumRecords(withDecisions.map((d) => d.byTier)),
    dismissed: sumRecords(withDecisions.map((d) => d.dismissed)),
    review: withDecisions.reduce((a, d) => a + d.review, 0),
  };
}

/**
 * The shards' baseline accounts by agent version. Each shard chose its baselines from what it saw,
 * so one agent may have had different ones in different shards: the merged entry counts every
 * shard's traces and keeps the baselines of the shard that analysed most of them.
 */
function mergeBaselineUse(parts: readonly Report[]): Report['baselines'] {
  const byAgent = new Map<string, { use: NonNullable<Report['baselines']>[number]; traces: number }>();
  for (const u of parts.flatMap((p) => p.baselines ?? [])) {
    const kept = byAgent.get(u.agent);
    if (!kept) byAgent.set(u.agent, { use: u, traces: u.traces });
    else {
      if (u.traces > kept.use.traces) kept.use = u;
      kept.traces += u.traces;
    }
  }
  const merged = [...byAgent.values()].map(({ use, traces }) => ({ ...use, traces }));
  return merged.length > 0
    ? merged.sort((a, b) => (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : 0))
    : undefined;
}

/** Gate reasons a report's own signals and input errors do not explain: sessions, outcomes, judges, crashes. */
function otherReasons(part: Report, failOn: readonly Severity[]): string[] {
  const recomputed = evaluateGate(part.signals, failOn, part.inputs.traces, [], {
    count: part.inputs.errorCount,
    allowed: part.gate.allowedInputErrors !== undefined,
    ...(part.inputs.errors[0] ? { first: part.inputs.errors[0] } : {}),
  });
  return part.gate.reasons.filter((r) => !recomputed.reasons.includes(r));
}

export function mergeReports(parts: readonly Report[], now = new Date()): Report {
  if (parts.length === 0) throw new TypeError('mergeReports: no reports to merge');
  const first = parts[0]!;
  const failOn = (first.gate.failOn ?? ['critical', 'high']) as Severity[];
  const signals = parts.flatMap((p) => p.signals);
  const traces = parts.flatMap((p) => p.traces);
  const errors = parts.flatMap((p) => p.inputs.errors).slice(0, MAX_ERRORS);
  const errorCount = parts.reduce((a, p) => a + p.inputs.errorCount, 0);
  const allowed = parts.some((p) => p.gate.allowedInputErrors !== undefined);

  const unknown = new Map<string, number>();
  for (const p of parts)
    for (const u of p.totals.unknownModels) unknown.set(u.model, (unknown.get(u.model) ?? 0) + u.calls);
  const sum = (f: (t: Report['totals']) => number) => parts.reduce((a, p) => a + f(p.totals), 0);
  const unmeasuredLlmCalls = sum((t) => t.unmeasuredLlmCalls ?? 0);

  const judgeUsd = parts.reduce((a, p) => a + p.cost.judgeUsd, 0);
  const byTier = sumRecords(parts.map((p) => p.cost.byTier));
  const byModel: NonNullable<Report['cost']['byModel']> = dict();
  for (const p of parts)
    for (const [k, m] of Object.entries(p.cost.byModel ?? {})) {
      const into = (byModel[k] ??= {
        ...m,
        calls: 0,
        usd: 0,
        ...(m.cachedCalls !== undefined ? { cachedCalls: 0 } : {}),
      });
      into.calls += m.calls;
      into.usd += m.usd;
      if (m.cachedCalls !== undefined) into.cachedCalls = (into.cachedCalls ?? 0) + m.cachedCalls;
    }
  const byProvider = dict<{ calls: number; usd: number }>();
  for (const p of parts)
    for (const [k, m] of Object.entries(p.cost.byProvider ?? {})) {
      const into = (byProvider[k] ??= { calls: 0, usd: 0 });
      into.calls += m.calls;
      into.usd += m.usd;
    }
  const escalationUsd = parts.reduce((a, p) => a + (p.cost.perTraceUsd ?? 0) * p.inputs.traces, 0);
  const traceCount = parts.reduce((a, p) => a + p.inputs.traces, 0);

  const attribution = attributionTally(traces);
  const withOutcomes = parts.filter((p) => p.outcomes);
  let outcomes: Report['outcomes'];
  if (withOutcomes.length > 0) {
    const byDetector: NonNullable<NonNullable<Report['outcomes']>['byDetector']> = dict();
    for (const p of withOutcomes)
      for (const [id, d] of Object.entries(p.outcomes!.byDetector ?? {})) {
        const into = (byDetector[id] ??= { onFailed: 0, onSucceeded: 0, precision: 0 });
        into.onFailed += d.onFailed;
        into.onSucceeded += d.onSucceeded;
      }
    for (const d of Object.values(byDetector))
      d.precision = d.onFailed + d.onSucceeded > 0 ? d.onFailed / (d.onFailed + d.onSucceeded) : 0;
    outcomes = {
      recorded: withOutcomes.reduce((a, p) => a + p.outcomes!.recorded, 0),
      failed: withOutcomes.reduce((a, p) => a + p.outcomes!.failed, 0),
      succeeded: withOutcomes.reduce((a, p) => a + p.outcomes!.succeeded, 0),
      ...(Object.keys(byDetector).length > 0 ? { byDetector } : {}),
    };
  }

  const tests = parts.some((p) => p.tests) ? parts.flatMap((p) => p.tests ?? []) : undefined;
  let gate: Report['gate'];
  if (tests) {
    // A test run's gate is its tests and its input errors, as in one run.
    gate = testRunGate(tests, errorCount, errors[0], failOn);
  } else {
    const whole = evaluateGate(signals, failOn, traceCount, [], {
      count: errorCount,
      allowed,
      ...(errors[0] ? { first: errors[0] } : {}),
    });
    const carried = [...new Set(parts.flatMap((p) => otherReasons(p, failOn)))];
    gate = {
      passed: whole.passed && carried.length === 0,
      reasons: [...whole.reasons, ...carried],
      failOn,
      ...(allowed && errorCount > 0 ? { allowedInputErrors: errorCount } : {}),
    };
  }
  const judgesNotRun = parts.filter((p) => p.judgesNotRun);
  const decisions = mergeDecisions(parts);
  const baselines = mergeBaselineUse(parts);

  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    schemaMinor: REPORT_SCHEMA_MINOR,
    tool: first.tool,
    generatedAt: now.toISOString(),
    inputs: {
      files: parts.reduce((a, p) => a + p.inputs.files, 0),
      traces: traceCount,
      records: parts.reduce((a, p) => a + p.inputs.records, 0),
      errors,
      errorCount,
      formats: sumRecords(parts.map((p) => p.inputs.formats)),
    },
    totals: {
      steps: sum((t) => t.steps),
      llmCalls: sum((t) => t.llmCalls),
      toolCalls: sum((t) => t.toolCalls),
      inputTokens: sum((t) => t.inputTokens),
      outputTokens: sum((t) => t.outputTokens),
      costUsd: sum((t) => t.costUsd),
      unknownModels: [...unknown].sort((a, b) => b[1] - a[1]).map(([model, calls]) => ({ model, calls })),
      ...(unmeasuredLlmCalls > 0 ? { unmeasuredLlmCalls } : {}),
    },
    traces,
    signals,
    waste: wasteTotals(signals),
    verdicts: parts.flatMap((p) => p.verdicts),
    sessions: parts.flatMap((p) => p.sessions),
    ...mergedSessionCoverage(parts),
    review: parts.flatMap((p) => p.review),
    ...(judgesNotRun.length > 0
      ? {
          judgesNotRun: {
            cases: judgesNotRun.reduce((a, p) => a + p.judgesNotRun!.cases, 0),
            reason: judgesNotRun[0]!.judgesNotRun!.reason,
          },
        }
      : {}),
    cost: {
      judgeUsd,
      byTier,
      ...(Object.keys(byModel).length > 0 ? { byModel } : {}),
      ...(Object.keys(byProvider).length > 0 ? { byProvider } : {}),
      perTraceUsd: traceCount > 0 ? escalationUsd / traceCount : 0,
    },
    gate,
    ...(outcomes ? { outcomes } : {}),
    ...(decisions ? { decisions } : {}),
    ...(attribution ? { attribution } : {}),
    ...(baselines ? { baselines } : {}),
    notes: [
      `merged from ${plural(parts.length, 'partial report')}`,
      ...new Set(parts.flatMap((p) => p.notes).map((n) => redact(n))),
    ],
    ...(tests ? { tests, testRun: testRunSummary(tests) } : {}),
  };
}

/**
 * The shards' session coverage summed, when every shard has one (a session split across shards is
 * one session, counted once by its id); none when a shard predates it or came from a Vitest run.
 */
function mergedSessionCoverage(parts: readonly Report[]): Pick<Report, 'sessionCoverage'> {
  if (!parts.every((p) => p.sessionCoverage)) return {};
  return {
    sessionCoverage: {
      sessions: new Set(parts.flatMap((p) => p.sessions.map((s) => s.sessionId))).size,
      grouped: parts.reduce((a, p) => a + p.sessionCoverage!.grouped, 0),
      withoutSession: parts.reduce((a, p) => a + p.sessionCoverage!.withoutSession, 0),
    },
  };
}
