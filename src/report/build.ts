/**
 * Accumulates per-trace results into a Report v1. Traces stream through `add` and are dropped;
 * only their summaries and signals stay, so memory grows with findings, not with input size.
 *
 * This is also where trace-derived text is redacted: every consumer (the library API, the JSON,
 * the text and markdown renderers, the Action) gets the Report from here, so one choke point
 * covers them all. Signals are redacted as they come in; input errors, notes, review reasons and
 * verdicts in `finish`. Trace ids and file names are left as they are: they join signals to
 * traces, and the renderers still redact what they print.
 */
import { isGrayZone } from '../detect/grayZone.js';
import type { Severity, Signal } from '../detect/signal.js';
import { signalStatus, statusOf } from '../detect/status.js';
import type { TribunalStats } from '../judge/tribunal.js';
import type { Verdict } from '../judge/verdict.js';
import type { LoadStats } from '../trace/load.js';
import { measureTrace } from '../trace/measure.js';
import type { LoadedTrace, Trace } from '../trace/schema.js';
import { isUnnamedModel } from '../pricing/pricer.js';
import { isUnmeasuredCall, isUnpricedCall } from '../pricing/unpricedModels.js';
import { fmtInt, plural } from '../util/thousands.js';
import { VERSION } from '../version.js';
import { evaluateGate, type GateDetectorFailure } from './gate.js';
import { redact, redactDeep } from '../redact/redact.js';
import { createWasteTally } from './wasteTotals.js';
import { isFinding } from './finding.js';
import { createDecisionTally } from './decisions.js';
import { attributionTally } from './attributionTally.js';
import type { RootCause } from '../attribute/rootCause.js';
import { sessionRows, sessionScoreText } from './summarise.js';
import {
  MIN_OUTCOMES_FOR_PRECISION,
  REPORT_SCHEMA_MINOR,
  REPORT_SCHEMA_VERSION,
  type InputError,
  type Outcomes,
  type BaselineUse,
  type Report,
  type ReportSignal,
  type SessionScore,
  type TraceSummary,
} from './schema.js';
import { dict } from '../util/dict.js';
import { topLevelElementJson } from './jsonAtDepth.js';
import { createSpillFile, type SpillFile } from './spillFile.js';
import { attachSpilledLists, removeLists, type SpilledLists } from './spilledReport.js';

export interface ReportAccumulator {
  add(loaded: LoadedTrace, signals: Signal[]): void;
  /**
   * A trace summarised elsewhere (a worker thread), with its signals, its unread spans by name,
   * and the signals an escalation tier dismissed as no failure (each with the `tier` that did and
   * a confidence below the gray zone), which only `decisions` counts.
   */
  addSummary(
    summary: TraceSummary,
    signals: Signal[],
    unreadSpans?: Record<string, number>,
    dismissed?: readonly Signal[],
  ): void;
  finish(input: FinishInput): Report;
  /** Deletes the temporary files of a spilling accumulator (on an error before `finish`); idempotent. */
  discard(): void;
}

export interface ReportAccumulatorOptions {
  /**
   * Write each `traces[]`, `signals[]`, `review[]` and `sessions[]` entry to a temporary file as it
   * comes, not to memory: the finished Report holds those arrays empty, and `spilledListsOf(report)`
   * reads them back (the CLI's JSON report copies them in). Whoever gets the report removes the
   * files (`removeSpilledLists`), or the process does at exit.
   */
  spill?: boolean;
}

export interface FinishInput {
  stats: LoadStats;
  /** Models that could not be priced, with their call counts (Pricer.unknownModels()). */
  unknownModels: ReadonlyMap<string, number>;
  failOn: readonly Severity[];
  /** Input errors are listed but do not fail the gate (--allow-input-errors). */
  allowInputErrors?: boolean;
  /** A trace whose recorded outcome failed fails the gate (failOn.outcome). */
  failOnOutcome?: boolean;
  verdicts?: Verdict[];
  notes?: string[];
  judgeStats?: TribunalStats;
  /** What tier 3 (embeddings) cost, in USD, when it ran (0 for the offline embedder). */
  tier3Usd?: number;
  /** Escalated cases no judge could judge (no API key, no cassette entry), and the first reason. */
  judgesNotRun?: { cases: number; reason: string };
  /** tribunal.required: such cases fail the gate. */
  tribunalRequired?: boolean;
  /** Detectors that threw (the runner's `failures`): they fail the gate. */
  detectorFailures?: readonly GateDetectorFailure[];
  /**
   * Session scores (session/sessions.ts), in the order their sessions were first seen; read once,
   * as they come (a spilling accumulator writes each to its file, so a generator keeps them out of
   * memory: a gigabyte of short sessions scores to tens of thousands of entries).
   */
  sessions?: Iterable<SessionScore>;
  /** sessions.failGate: a session below its threshold fails the gate. */
  failOnSessions?: boolean;
  /** How the traces fell into sessions (session/sessions.ts coverage()). */
  sessionCoverage?: Report['sessionCoverage'];
  /** Which baseline each baseline detector used, per agent version (baseline/account.ts). */
  baselines?: BaselineUse[];
  now?: Date;
}

/** What the report keeps of one trace; the trace itself is dropped. */
export function summariseTrace(
  { trace, source }: LoadedTrace,
  traceSignals: readonly Signal[],
): TraceSummary {
  const m = measureTrace(trace);
  const unpriced = trace.steps.filter(isUnpricedCall).length;
  const unmeasured = trace.steps.filter(isUnmeasuredCall).length;
  const unread = Object.values(unreadSpansOf(trace) ?? {}).reduce((a, n) => a + n, 0);
  return {
    id: trace.id,
    file: source.file,
    ...(source.line !== undefined ? { line: source.line } : {}),
    format: source.format,
    agentId: trace.agentId,
    ...(trace.agentVersion ? { agentVersion: trace.agentVersion } : {}),
    ...(trace.sessionId ? { sessionId: trace.sessionId } : {}),
    status: trace.status,
    steps: m.stepCount,
    llmCalls: m.llmCalls,
    toolCalls: m.toolCalls,
    tokens: { input: m.inputTokens, output: m.outputTokens },
    costUsd: m.costUsd,
    unpricedLlmCalls: unpriced,
    ...(unmeasured > 0 ? { unmeasuredLlmCalls: unmeasured } : {}),
    ...(trace.taskId !== undefined ? { task: trace.taskId } : {}),
    ...(m.durationMs !== undefined ? { durationMs: m.durationMs } : {}),
    measures: {
      maxPromptTokens: m.maxPromptTokens,
      llmToolRatio: m.llmToolRatio,
      ...(m.maxStepDurationMs !== undefined ? { maxStepDurationMs: m.maxStepDurationMs } : {}),
    },
    signals: countedSignals(traceSignals),
    ...(unread > 0 ? { unreadSpans: unread } : {}),
    ...(trace.outcome ? { outcome: trace.outcome } : {}),
    ...(source.agentIdFrom ? { agentIdFrom: source.agentIdFrom } : {}),
  };
}

/** The signals of a trace that its summary counts: its findings (status.ts), as every total does. */
export function countedSignals(traceSignals: readonly Signal[]): number {
  let n = 0;
  for (const s of traceSignals) if (statusOf(s) === 'finding') n++;
  return n;
}

/** Where the accumulator keeps a list: an array, or a temporary file (ReportAccumulatorOptions.spill). */
interface EntryList<T> {
  push(value: T): void;
  readonly length: number;
}

function arrayList<T>(array: T[]): EntryList<T> {
  return {
    push: (value) => void array.push(value),
    get length() {
      return array.length;
    },
  };
}

function spillList<T>(file: SpillFile<T>): EntryList<T> {
  return {
    push: (value) => file.append(value),
    get length() {
      return file.length;
    },
  };
}

export function createReportAccumulator(options: ReportAccumulatorOptions = {}): ReportAccumulator {
  const traceArray: TraceSummary[] = [];
  const signalArray: ReportSignal[] = [];
  const spilled: SpilledLists | undefined = options.spill ? openSpilledLists() : undefined;
  const traces = spilled ? spillList(spilled.traces) : arrayList(traceArray);
  const signals = spilled ? spillList(spilled.signals) : arrayList(signalArray);
  // What finish reads of every entry, tallied as entries come (the lists may be on disk).
  const waste = createWasteTally();
  const reviewArray: ReviewItem[] = [];
  const sessionArray: SessionScore[] = [];
  const review = spilled ? spillList(spilled.review) : arrayList(reviewArray);
  /** Findings as the gate counts them: detector, severity and status. */
  const findings: Pick<ReportSignal, 'detector' | 'severity' | 'status' | 'confidence'>[] = [];
  const repeatedIds = createRepeatedIdTally();
  const failedOutcomes = { count: 0, first: undefined as TraceSummary | undefined };
  const rootCauses: Pick<TraceSummary, 'rootCause'>[] = [];
  const totals = { steps: 0, llmCalls: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  let unmeasuredLlmCalls = 0;
  const outcomes = createOutcomeTally();
  const decisions = createDecisionTally();
  const unread = { traces: 0, byName: new Map<string, number>() };

  return {
    add(loaded, traceSignals) {
      this.addSummary(summariseTrace(loaded, traceSignals), traceSignals, unreadSpansOf(loaded.trace));
    },

    addSummary(summary, traceSignals, unreadSpans, dismissed = []) {
      const entry = summary.rootCause
        ? { ...summary, rootCause: redactRootCause(summary.rootCause) }
        : summary;
      traces.push(entry);
      repeatedIds.add(entry);
      if (entry.outcome && !entry.outcome.success) {
        failedOutcomes.count++;
        failedOutcomes.first ??= { id: entry.id, file: entry.file } as TraceSummary;
      }
      if (entry.rootCause) rootCauses.push({ rootCause: rootCauseTallied(entry.rootCause) });
      decisions.add(traceSignals, dismissed);
      if (unreadSpans) tallyUnread(unreadSpans, unread);
      if (summary.outcome) outcomes.add(summary.outcome.success, traceSignals);
      for (const s of traceSignals) {
        const entry = reportSignal(s);
        signals.push(entry);
        waste.add(entry);
        if (isGrayZone(entry)) review.push(reviewItem(entry));
        if (entry.status === 'finding') {
          findings.push({
            detector: entry.detector,
            severity: entry.severity,
            status: entry.status,
            confidence: entry.confidence,
          });
          if (spilled) spilled.findings++;
        } else if (spilled && entry.status === 'review') spilled.forReview++;
      }
      totals.steps += summary.steps;
      totals.llmCalls += summary.llmCalls;
      totals.toolCalls += summary.toolCalls;
      totals.inputTokens += summary.tokens.input;
      totals.outputTokens += summary.tokens.output;
      totals.costUsd += summary.costUsd;
      unmeasuredLlmCalls += summary.unmeasuredLlmCalls ?? 0;
    },

    finish({
      stats,
      unknownModels: unpricedModels,
      failOn,
      allowInputErrors = false,
      failOnOutcome = false,
      judgesNotRun,
      tribunalRequired = false,
      verdicts = [],
      notes = [],
      judgeStats,
      tier3Usd,
      detectorFailures = [],
      sessions = [],
      failOnSessions = false,
      sessionCoverage,
      baselines,
      now = new Date(),
    }) {
      const unknownModels = [...unpricedModels]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
        .map(([model, calls]) => ({ model: redact(model), calls }));
      const allNotes = [...notes];
      if (unknownModels.length > 0) {
        allNotes.push(
          `${plural(unknownModels.length, 'model')} ${unknownModels.length === 1 ? 'has' : 'have'} no recorded cost and no price (${unknownModels
            .slice(0, 5)
            .map((u) => u.model)
            .join(
              ', ',
            )}${unknownModels.length > 5 ? ', …' : ''}): their calls are not in the cost totals; add them under prices: in tracejury.yml${
            unknownModels.some((u) => isUnnamedModel(u.model))
              ? '; calls that name no model ("unknown") can be priced as one with --default-model or prices.defaultModel'
              : ''
          }`,
        );
      }
      if (unmeasuredLlmCalls > 0) {
        const how = 'record usage (input and output tokens) or a cost per call to price them';
        allNotes.push(
          unmeasuredLlmCalls === totals.llmCalls
            ? `none of the ${plural(totals.llmCalls, 'LLM call')} carries token counts or a recorded cost: ` +
                `the run's cost and waste are unknown, not $0; ${how}`
            : `${plural(unmeasuredLlmCalls, 'LLM call')} of ${fmtInt(totals.llmCalls)} carry no token counts and no ` +
                `recorded cost: their cost is unknown and counted as $0 in the totals; ${how}`,
        );
      }
      if (unread.traces > 0) {
        const names = [...unread.byName].sort((a, b) => b[1] - a[1]);
        allNotes.push(
          `${plural(unread.traces, 'trace')} ${unread.traces === 1 ? 'has' : 'have'} spans tracejury could not read: ` +
            `${names
              .slice(0, 5)
              .map(([name, n]) => `${name} ×${n}`)
              .join(', ')}${names.length > 5 ? ', …' : ''} — their steps may be missing`,
        );
      }
      const repeated = repeatedIds.finish();
      if (repeated) {
        allNotes.push(
          `${plural(repeated.ids, 'trace id')} ${repeated.ids === 1 ? 'appears' : 'appear'} more than once in the same file ` +
            `(e.g. "${redact(repeated.example.id)}" in ${repeated.example.file}): each is analysed as a separate trace; ` +
            `were files concatenated, or runs logged under one id?`,
        );
      }
      const gate: Report['gate'] = evaluateGate(
        findings as Signal[],
        failOn,
        stats.traces,
        detectorFailures,
        {
          count: stats.errorCount,
          allowed: allowInputErrors,
          ...(stats.errors[0] ? { first: redactInputError(stats.errors[0]) } : {}),
        },
      );
      gate.failOn = [...failOn];
      if (judgesNotRun) {
        allNotes.push(
          `judges never ran: ${plural(judgesNotRun.cases, 'case')} left for review — ${judgesNotRun.reason}`,
        );
        if (tribunalRequired) {
          gate.passed = false;
          gate.reasons.push(
            `judges never ran on ${plural(judgesNotRun.cases, 'escalated case')} (tribunal.required): ${judgesNotRun.reason}`,
          );
        }
      }
      if (failOnOutcome) {
        const { count, first } = failedOutcomes;
        if (first) {
          gate.passed = false;
          gate.reasons.push(
            `${plural(count, 'trace')} with a failed outcome (failOn.outcome; first: ${first.file} ${redact(first.id)})`,
          );
        }
      }
      const sessionList = spilled ? spillList(spilled.sessions) : arrayList(sessionArray);
      /** What the gate reads of each score (sessionRows): a few numbers, whatever the metadata holds. */
      const sessionViews: SessionScore[] = [];
      for (const score of sessions) {
        sessionList.push({ ...score, reason: redact(score.reason) });
        if (failOnSessions) sessionViews.push(gateViewOf(score));
      }
      if (failOnSessions) {
        const reason = sessionGateReason(sessionViews);
        if (reason) {
          gate.passed = false;
          gate.reasons.push(reason);
        }
      }
      if (allowInputErrors && stats.errorCount > 0) {
        gate.allowedInputErrors = stats.errorCount;
        allNotes.push(
          `${plural(stats.errorCount, 'input error')} allowed (--allow-input-errors or failOn.inputErrors: false): ` +
            'the gate judged only the traces that could be read',
        );
      }
      const report: Report = {
        schemaVersion: REPORT_SCHEMA_VERSION,
        schemaMinor: REPORT_SCHEMA_MINOR,
        tool: { name: 'tracejury', version: VERSION },
        generatedAt: now.toISOString(),
        inputs: {
          files: stats.files,
          traces: stats.traces,
          records: stats.records,
          errors: stats.errors.map(redactInputError),
          errorCount: stats.errorCount,
          formats: stats.formats,
        },
        totals: { ...totals, unknownModels, ...(unmeasuredLlmCalls > 0 ? { unmeasuredLlmCalls } : {}) },
        traces: traceArray,
        signals: signalArray,
        waste: waste.finish(),
        verdicts: verdicts.map((v) => redactDeep(v)),
        sessions: sessionArray,
        ...(sessionCoverage ? { sessionCoverage } : {}),
        review: reviewArray,
        cost: costOf(judgeStats, verdicts, traces.length, tier3Usd),
        gate,
        ...(judgesNotRun ? { judgesNotRun: { ...judgesNotRun, reason: redact(judgesNotRun.reason) } } : {}),
        ...(outcomes.recorded > 0 ? { outcomes: outcomes.finish() } : {}),
        decisions: decisions.finish(),
        ...withAttribution(rootCauses),
        ...(baselines && baselines.length > 0 ? { baselines } : {}),
        notes: allNotes.map(redact),
      };
      if (spilled) attachSpilledLists(report, spilled);
      return report;
    },

    discard() {
      if (spilled) removeLists(spilled);
    },
  };
}

/** The report's four temporary files, one a spilled list (those opened removed if one cannot be). */
function openSpilledLists(): SpilledLists {
  const opened: SpillFile<never>[] = [];
  const open = <T>(name: string): SpillFile<T> => {
    const file = createSpillFile<T>(name, topLevelElementJson);
    opened.push(file as SpillFile<never>);
    return file;
  };
  try {
    return {
      traces: open<TraceSummary>('traces'),
      signals: open<ReportSignal>('signals'),
      review: open<ReviewItem>('review'),
      sessions: open<SessionScore>('sessions'),
      findings: 0,
      forReview: 0,
    };
  } catch (err) {
    for (const file of opened) file.remove();
    throw err;
  }
}

type ReviewItem = Report['review'][number];

/** A gray-zone signal as the review list gives it. */
function reviewItem(s: ReportSignal): ReviewItem {
  return {
    traceId: s.traceId,
    detector: s.detector,
    file: s.file,
    ...(s.shadow ? { shadow: true } : {}),
    confidence: s.confidence,
    ...(s.evidence ? { evidence: s.evidence } : {}),
    // Its parts are redacted already; joined, they can make a new `name: value` shape.
    reason: redact(
      typeof s.evidence?.escalation === 'string'
        ? `${s.evidence.escalation}: ${s.message}`
        : `confidence ${s.confidence.toFixed(2)} is in the gray zone (0.35–0.65) and no higher tier decided it: ${s.message}`,
    ),
  };
}

/** What the attribution tally reads of a root cause (the rest, its sentences, is in the list). */
function rootCauseTallied(cause: RootCause): RootCause {
  if (!('step' in cause)) return cause;
  return { step: cause.step, agent: cause.agent, rule: cause.rule } as RootCause;
}

/** A session score with only what sessionRows reads of it. */
function gateViewOf(score: SessionScore): SessionScore {
  const { threshold, total_traces_in_session } = score.metadata;
  return {
    sessionId: score.sessionId,
    ...(score.test !== undefined ? { test: score.test } : {}),
    metric: score.metric,
    score: score.score,
    passed: score.passed,
    reason: '',
    metadata: { threshold, total_traces_in_session },
  };
}

/** Failing sessions the gate reason names; the rest are counted. */
const MAX_SESSIONS_NAMED = 3;

/**
 * "2 sessions below their threshold (sessions.failGate): s-43 agent_reliability 0.10 < 0.50,
 * agent_consistency 0.12 < 0.50; …", worst first; undefined when every session passed.
 */
function sessionGateReason(sessions: SessionScore[]): string | undefined {
  const failed = sessionRows({ sessions }).filter((r) => !r.passed);
  if (failed.length === 0) return undefined;
  const named = failed.slice(0, MAX_SESSIONS_NAMED).map((r) => {
    const scores = [
      r.reliability && !r.reliability.passed ? sessionScoreText('agent_reliability', r.reliability) : '',
      r.consistency && !r.consistency.passed ? sessionScoreText('agent_consistency', r.consistency) : '',
    ].filter(Boolean);
    return `session ${redact(r.sessionId)} ${scores.join(', ')}`;
  });
  const more = failed.length - named.length;
  return (
    `${plural(failed.length, 'session')} below ${failed.length === 1 ? 'its' : 'their'} threshold (sessions.failGate): ` +
    named.join('; ') +
    (more > 0 ? `; and ${fmtInt(more)} more` : '')
  );
}

/**
 * The cost tracker: judge spend per tier (tiers 1–3 are local and free, tier 4 is the judges),
 * per provider and model, and the run's detection spend per trace.
 */
function costOf(
  judgeStats: TribunalStats | undefined,
  verdicts: readonly Verdict[],
  traces: number,
  tier3Usd: number | undefined,
): Report['cost'] {
  const judgeUsd = judgeStats?.judgeUsd ?? verdicts.reduce((a, v) => a + v.costUsd, 0);
  const cost: Report['cost'] = {
    judgeUsd,
    byTier: {
      ...(tier3Usd !== undefined ? { '3': tier3Usd } : {}),
      ...(judgeStats ? { '4': judgeStats.judgeUsd } : {}),
    },
    // Escalation spend per trace: embeddings (tier 3) and judges (tier 4); tiers 1–2 cost nothing.
    perTraceUsd: traces > 0 ? (judgeUsd + (tier3Usd ?? 0)) / traces : 0,
  };
  if (!judgeStats) return cost;
  const models = Object.entries(judgeStats.costByModel).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  cost.byModel = Object.fromEntries(
    models.map(([k, m]) => [
      k,
      { calls: m.calls, usd: m.usd, provider: m.provider, model: m.model, cachedCalls: m.cachedCalls },
    ]),
  );
  const byProvider = dict<{ calls: number; usd: number }>();
  for (const [, m] of models) {
    const p = (byProvider[m.provider] ??= { calls: 0, usd: 0 });
    p.calls += m.calls;
    p.usd += m.usd;
  }
  cost.byProvider = byProvider;
  return cost;
}

/** At most this many span names are tallied for the report's note; the rest count under "other". */
const MAX_UNREAD_NAMES = 50;

/**
 * The number of unread spans an importer recorded in `metadata.unreadSpans` (counts by span
 * name), added to the run's tally. Anything else in that field (a user's own metadata) counts 0.
 */
export function unreadSpansOf(trace: Trace): Record<string, number> | undefined {
  const raw = trace.metadata?.unreadSpans;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const out = dict<number>();
  let any = false;
  for (const [name, n] of Object.entries(raw)) {
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0) continue;
    out[name] = n;
    any = true;
  }
  return any ? out : undefined;
}

function tallyUnread(
  counts: Record<string, number>,
  tally: { traces: number; byName: Map<string, number> },
): void {
  for (const [name, n] of Object.entries(counts)) {
    const key = tally.byName.has(name) || tally.byName.size < MAX_UNREAD_NAMES ? name : 'other';
    tally.byName.set(key, (tally.byName.get(key) ?? 0) + n);
  }
  tally.traces += 1;
}

/** Counts recorded outcomes, and each detector's findings on failed and on successful runs. */
function createOutcomeTally() {
  let recorded = 0;
  let failed = 0;
  const byDetector = new Map<string, { onFailed: number; onSucceeded: number }>();
  return {
    get recorded() {
      return recorded;
    },
    add(success: boolean, signals: readonly Signal[]) {
      recorded++;
      if (!success) failed++;
      for (const s of signals) {
        if (!isFinding(s)) continue;
        let d = byDetector.get(s.detector);
        if (!d) byDetector.set(s.detector, (d = { onFailed: 0, onSucceeded: 0 }));
        if (success) d.onSucceeded++;
        else d.onFailed++;
      }
    },
    finish(): Outcomes {
      const out: Outcomes = { recorded, failed, succeeded: recorded - failed };
      if (recorded < MIN_OUTCOMES_FOR_PRECISION) return out;
      out.byDetector = Object.fromEntries(
        [...byDetector.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([id, d]) => [id, { ...d, precision: d.onFailed / (d.onFailed + d.onSucceeded) }]),
      );
      return out;
    },
  };
}

/** The signal as the report keeps it: its final status set, its text redacted. */
export function reportSignal(s: Signal): ReportSignal {
  const message = redact(s.message);
  const evidence = s.evidence === undefined ? undefined : redactDeep(s.evidence);
  return {
    ...s,
    status: signalStatus(s),
    ...(message !== s.message ? { message } : {}),
    ...(evidence !== s.evidence && evidence !== undefined ? { evidence } : {}),
  };
}

/** The tally when some run failed; nothing otherwise, so reports without failures stay as they were. */
function withAttribution(traces: readonly Pick<TraceSummary, 'rootCause'>[]): {
  attribution?: Report['attribution'];
} {
  const tally = attributionTally(traces);
  return tally ? { attribution: tally } : {};
}

/** A root cause's sentences come from the trace (tool names, errors, the judges' reasoning). */
function redactRootCause(cause: RootCause): RootCause {
  if (!('step' in cause)) return cause;
  return {
    ...cause,
    evidence: redact(cause.evidence),
    ...(cause.effect ? { effect: { ...cause.effect, evidence: redact(cause.effect.evidence) } } : {}),
    ...(cause.tribunal?.reasoning !== undefined
      ? { tribunal: { ...cause.tribunal, reasoning: redact(cause.tribunal.reasoning) } }
      : {}),
  };
}

function redactInputError(e: InputError): InputError {
  const message = redact(e.message);
  return message === e.message ? e : { ...e, message };
}

/**
 * How many trace ids occur more than once within one file, and the first of them: two runs logged
 * under one id count twice in baselines and sessions, which a reader should hear about.
 */
function createRepeatedIdTally() {
  /**
   * The ids seen, by file and test: the one per-trace thing a run keeps to the end. A Set of ids
   * per file holds the id strings the traces had (about 20 bytes an entry), where one key joining
   * file, id and test for each trace held that joined string too (about 80 bytes more a trace).
   */
  const seen = new Map<string, Set<string>>();
  /** The ids seen more than once, likewise. */
  const repeated = new Map<string, Set<string>>();
  let repeatedIds = 0;
  let example: { id: string; file: string } | undefined;
  const idsOf = (sets: Map<string, Set<string>>, scope: string) => {
    let ids = sets.get(scope);
    if (!ids) sets.set(scope, (ids = new Set()));
    return ids;
  };
  return {
    add(t: Pick<TraceSummary, 'file' | 'id' | 'test'>) {
      // In a Vitest report one recording read by several tests is one trace per test, not a repeat.
      // (A file name holds no NUL.)
      const scope = t.test ? `${t.file}\u0000${t.test}` : t.file;
      const ids = idsOf(seen, scope);
      if (!ids.has(t.id)) {
        ids.add(t.id);
        return;
      }
      const again = idsOf(repeated, scope);
      if (again.has(t.id)) return;
      again.add(t.id);
      repeatedIds++;
      example ??= { id: t.id, file: t.file };
    },
    finish: (): { ids: number; example: { id: string; file: string } } | undefined =>
      example ? { ids: repeatedIds, example } : undefined,
  };
}
