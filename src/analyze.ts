/**
 * analyze(): the main job. Loads traces (streaming), runs the detectors with per-agent config
 * and baselines, scores sessions (session/sessions.ts: each trace is reduced to four numbers as it
 * passes) and accumulates a Report v1. The CLI, the Vitest reporter and the Action call
 * this; it does no printing.
 */
import { baselineAccount, type AgentSeen } from './baseline/account.js';
import { createInputBaselines } from './baseline/inputBaselines.js';
import { agentKey, baselineNotes, firstBaseline, type BaselineFile } from './baseline/store.js';
import type { Config } from './config/config.js';
import { unmatchedAgentSections } from './config/unmatchedAgents.js';
import type { Detector } from './detect/detector.js';
import type { Severity, Signal } from './detect/signal.js';
import { findDetector } from './detect/registry.js';
import { unpackSkeleton } from './detect/baselineSkeleton.js';
import { assertJudgesAllowed, createTribunalSession, type TribunalSession } from './judge/tribunal.js';
import { cassetteModeFromEnv, type CassetteMode } from './judge/cassette.js';
import { postReview, webhookNote } from './report/reviewWebhook.js';
import { redact } from './redact/redact.js';
import type { Verdict } from './judge/verdict.js';
import { createReportAccumulator } from './report/build.js';
import { prepareRun, tribunalSettingsFor } from './runSetup.js';
import type { Report } from './report/schema.js';
import { budgetReason, escalateGrayZone } from './tiers/escalate.js';
import { judgesFor, routedJudges } from './tiers/routing.js';
import { escalateWithEmbeddings } from './tiers/embeddings.js';
import { applyStateDeltas } from './tiers/stateDeltas.js';
import { createEmbeddingCache, withCache } from './embed/cache.js';
import type { Embedder } from './embed/embedder.js';
import { createLexicalEmbedder } from './embed/lexicalEmbedder.js';
import { createOpenAIEmbedder } from './embed/openaiEmbedder.js';
import type { Pricer } from './pricing/pricer.js';
import type { InputFormat } from './trace/importer.js';
import { GRAY_ZONE_LOWER, isGrayZone } from './detect/grayZone.js';
import { countedSignals } from './report/build.js';
import { effectiveJobs } from './run/jobs.js';
import { analyseInThisThread } from './run/local.js';
import { fmtInt } from './util/thousands.js';
import type { AnalysedRun, TraceResult } from './run/protocol.js';
import { analyseInWorkers } from './run/workers.js';
import { createSessionAccumulator } from './session/sessions.js';
import {
  emptyStats,
  invalidTraceError,
  STDIN_NAME,
  type LoadProgress,
  type LoadStats,
} from './trace/load.js';
import { keyAgent } from './trace/agentKey.js';
import { keyTask } from './trace/taskKey.js';
import { parseTrace } from './trace/fastParse.js';
import type { LoadedTrace, TraceInput } from './trace/schema.js';

export { DEFAULT_STATE_DIR } from './runSetup.js';

export interface AnalyzeOptions {
  /**
   * A config from parseConfig / loadConfig, or the same settings as a plain object
   * (`{ default: { tool_loop: { threshold: 4 } } }`, checked as a file would be); otherwise
   * `configFile`, otherwise tracejury.yml / detectors.yml in cwd.
   */
  config?: Config | Record<string, unknown>;
  configFile?: string;
  inputFormat?: InputFormat;
  /** Where baselines.json and the cassette live (default `.tracejury` under cwd). */
  stateDir?: string;
  /**
   * Baselines to use instead of `<stateDir>/baselines.json`; `false` for static thresholds only
   * (neither the store, the base report nor the input's own runs).
   */
  baselines?: BaselineFile | false;
  /**
   * The base branch's report (a pull request's comparison): its good runs are the baseline of
   * agents the store has too few runs of, before the input's own (config `baselines.fromInput`).
   */
  baseReport?: Report;
  /**
   * Gather the good runs of each agent in the input as its baseline when neither the store nor the
   * base report has enough (default true, with config `baselines.fromInput`; `baseline update`
   * says false: it judges the runs it learns against the store as it stands).
   */
  inputBaselines?: boolean;
  detectors?: readonly Detector[];
  onProgress?: (p: LoadProgress) => void;
  cwd?: string;
  /**
   * The folder links in the input may lead into (default `cwd`): a file found in a directory or
   * by a glob whose real path is outside it is an input error, not read (trace/paths.ts).
   */
  within?: string;
  /** A tribunal session to share (one circuit breaker per run); made from config when absent. */
  tribunal?: TribunalSession;
  /** Where judges read API keys, and TRACEJURY_CASSETTE its mode (default process.env). */
  env?: Record<string, string | undefined>;
  /** The judge cassette's mode, over TRACEJURY_CASSETTE and the config's (the CLI's --cassette). */
  cassette?: CassetteMode;
  /** The command that runs this again, for the message of a cassette miss (the CLI's own command line). */
  rerunCommand?: string;
  /**
   * Worker threads for loading and detection (default 1, as the CLI's --jobs). Inputs under 32 MB,
   * trace objects, custom `detectors` and `onTrace` always run in this thread.
   * The report is the same whatever the number.
   */
  jobs?: number;
  /** Input errors are listed but do not fail the gate (default: from config's failOn.inputErrors). */
  allowInputErrors?: boolean;
  /** Price calls whose model is not named ("unknown") as this model (the CLI's --default-model). */
  defaultModel?: string;
  /** Severities of findings that fail the gate, instead of the config's (the CLI's --fail-on). */
  failOn?: readonly Severity[];
  /**
   * The agent of traces whose recording names none (`--agent`); else config's `agent:`, else each
   * file's path relative to cwd (`<input>` for trace objects), so unrelated inputs never share a
   * baseline.
   */
  agent?: string;
  /**
   * The embedder for tier 3 instead of the one config's `embeddings:` names (default: that
   * endpoint, cached in `<stateDir>/embeddings.jsonl`, or the offline lexical embedder).
   */
  embedder?: Embedder;
  /**
   * Escalate gray-zone signals to tier 3 (embeddings) and the configured judges (default true;
   * `baseline update` says false).
   */
  escalate?: boolean;
  /**
   * Called with each trace and its final signals, as they are added to the report. When baseline
   * detectors wait for the input's own baselines (config `baselines.fromInput`), the traces from
   * the first such one on are held and handed over at the end of the run.
   */
  onTrace?: (loaded: LoadedTrace, signals: readonly Signal[]) => void;
  /** POST the review list to config's `review.webhook` after the run (default true; `baseline update` says false). */
  notify?: boolean;
  /** The fetch the review webhook uses (default globalThis.fetch). */
  fetch?: typeof globalThis.fetch;
}

/**
 * Traces held at most while their baseline detectors wait for the input's own baselines (about
 * 1–2 KB each): a CI job's input is far below it; past it, traces are judged as they are read.
 */
export const MAX_HELD_TRACES = 10_000;

/** The empty list every trace without dismissals or verdicts shares (thousands may be held). */
const NONE: readonly never[] = [];

/** A trace's results once escalation has decided its gray-zone signals. */
interface Decided {
  /** The trace's results, without the trace sent for escalation, the signals before it or its order. */
  result: Omit<TraceResult, 'trace' | 'signals' | 'order' | 'baselineRun'>;
  /** Its final signals. */
  signals: Signal[];
  /** Signals a tier dismissed as no failure (for the report's decisions). */
  dismissed: readonly Signal[];
  verdicts: readonly Verdict[];
}

/** The tribunal session for a run, when judges are configured and escalation is on. */
function tribunalFor(config: Config, stateDir: string, cwd: string, options: AnalyzeOptions) {
  if (!config.tribunal || !config.tiers.escalate) return undefined;
  const routed = routedJudges(config.tribunal);
  if (config.tribunal.judges.length === 0 && routed.length === 0) return undefined;
  // Route judges are checked before the run, as `judges` are, not at their first case.
  assertJudgesAllowed(routed, config.tribunal.allowedModels);
  const { env } = options;
  const settings = tribunalSettingsFor(config, stateDir, cwd);
  // The run's own choice (--cassette, then TRACEJURY_CASSETTE) over the config's: recording is one command.
  const mode = options.cassette ?? cassetteModeFromEnv(env ?? process.env);
  return createTribunalSession({
    ...settings,
    ...(mode && settings.cassette ? { cassette: { ...settings.cassette, mode } } : {}),
    ...(env ? { env } : {}),
    ...(options.rerunCommand ? { rerunCommand: options.rerunCommand } : {}),
  });
}

/** Tier 3's embedder: config's `embeddings:` endpoint behind the cache, or the free offline one. */
function embedderFor(config: Config, stateDir: string, env?: Record<string, string | undefined>): Embedder {
  if (!config.embeddings) return createLexicalEmbedder();
  return withCache(
    createOpenAIEmbedder({ ...config.embeddings, ...(env ? { env } : {}) }),
    createEmbeddingCache({ stateDir }),
  );
}

/** What tier 3 cost, and the notes that go with it (which embedder; unpriced tokens; failures). */
function tier3Outcome(
  embedder: Embedder,
  pricer: Pricer,
  checked: number,
  failures: { count: number; first?: string },
): { usd?: number; notes: string[] } {
  if (checked === 0) return { notes: [] };
  const notes: string[] = [];
  let usd = 0;
  if (embedder.offline) {
    notes.push('tier 3 used the offline lexical embedder; configure embeddings: for a model');
  } else {
    const tokens = embedder.usage?.().tokens ?? 0;
    const rates = embedder.model ? pricer.rates(embedder.model) : undefined;
    if (rates) usd = tokens * rates.inputPerToken;
    else if (tokens > 0)
      notes.push(
        `tier 3 spent ${tokens} embedding tokens on ${embedder.model ?? embedder.name}, which the price table does not price ` +
          '(add it under prices: to count it); cost.byTier.3 counts it as 0',
      );
  }
  if (failures.count > 0)
    notes.push(
      `tier 3 embeddings failed on ${failures.count} trace${failures.count === 1 ? '' : 's'} (${failures.first}); ` +
        'their gray-zone signals went on without it',
    );
  return { usd, notes };
}

/**
 * Traces given directly (library use) rather than as files, one batch each. An invalid one is an
 * input error named `<input>[i]` with its field, as a bad record of a file is, and the others are
 * still analysed.
 */
async function* fromObjects(
  traces: readonly unknown[],
  stats: LoadStats,
  agent: string | undefined,
  taskKey: string | undefined,
): AsyncGenerator<LoadedTrace[]> {
  for (const [i, t] of traces.entries()) {
    const file = `<input>[${i}]`;
    stats.records++;
    const keyed = keyAgent(keyTask(t, taskKey), agent, '<input>');
    const parsed = parseTrace(keyed.input);
    if (!parsed.success) {
      stats.errorCount++;
      stats.errors.push(invalidTraceError(file, t, parsed.error));
      continue;
    }
    stats.traces++;
    stats.formats.native = (stats.formats.native ?? 0) + 1;
    yield [{ trace: parsed.data, source: { file, format: 'native', agentIdFrom: keyed.from } }];
  }
}

/**
 * Escalated cases whose judges never ran — every judge failed before any HTTP answer for want of a
 * key or a cassette entry — so the verdict is INDETERMINATE by configuration, not by judgement.
 */
function judgesThatNeverRan(verdicts: readonly Verdict[]): {
  judgesNotRun?: { cases: number; reason: string };
} {
  const notRun = verdicts.filter(
    (v) =>
      v.indeterminate &&
      v.judges.length > 0 &&
      v.judges.every((j) => j.httpStatus === 0 && /^(?:no cassette entry|cannot record)/.test(j.error ?? '')),
  );
  if (notRun.length === 0) return {};
  return { judgesNotRun: { cases: notRun.length, reason: notRun[0]!.judges[0]!.error! } };
}

/**
 * Input errors by file (in the order the paths expanded to) and line, and the loader's notes
 * sorted: the order errors were met in depends on which thread met them, the report must not.
 */
function inCanonicalOrder(stats: LoadStats, maxErrors = 1000): void {
  const rank = new Map(stats.fileNames.map((name, i) => [name, i]));
  const rankOf = (file: string) => (file === STDIN_NAME ? stats.fileNames.length : (rank.get(file) ?? -1));
  stats.errors.sort((a, b) => rankOf(a.file) - rankOf(b.file) || (a.line ?? 0) - (b.line ?? 0));
  if (stats.errors.length > maxErrors) stats.errors.length = maxErrors;
  stats.notes.sort();
}

/** Paths, or trace objects; anything else is a programming error worth a clear message. */
function inputKind(input: unknown): { paths: string[] } | { objects: readonly unknown[] } {
  if (typeof input === 'string') return { paths: [input] };
  if (!Array.isArray(input))
    throw new TypeError(
      `analyze() takes a path, a list of paths or a list of trace objects; got ${input === null ? 'null' : typeof input}`,
    );
  const strings = input.filter((i) => typeof i === 'string').length;
  if (strings === input.length) return { paths: input as string[] };
  if (strings > 0) throw new TypeError('analyze() takes paths or trace objects, not a mix of both');
  return { objects: input };
}

export async function analyze(
  input: string | string[] | TraceInput[],
  options: AnalyzeOptions = {},
): Promise<Report> {
  const cwd = options.cwd ?? process.cwd();
  const kind = inputKind(input);
  if (options.config && options.configFile)
    throw new TypeError('analyze(): give options.config or options.configFile, not both');
  const {
    config,
    prices,
    pricer,
    stateDir,
    store,
    baseReportBaselines,
    baselines: knownBeforeRun,
    deferring,
    runner,
  } = prepareRun({
    cwd,
    ...(options.config ? { config: options.config } : {}),
    ...(options.configFile ? { configFile: options.configFile } : {}),
    ...(options.stateDir ? { stateDir: options.stateDir } : {}),
    ...(options.baselines !== undefined ? { baselines: options.baselines } : {}),
    ...(options.detectors ? { detectors: options.detectors } : {}),
    ...(options.defaultModel ? { defaultModel: options.defaultModel } : {}),
    ...(options.baseReport ? { baseReport: options.baseReport } : {}),
    inputBaselines: options.inputBaselines !== false,
  });
  const report = createReportAccumulator();
  const tribunal =
    options.escalate === false
      ? undefined
      : (options.tribunal ?? tribunalFor(config, stateDir, cwd, options));
  const agent = options.agent ?? config.agent;
  const noDowngrade = new Set(config.tiers.noDowngrade);
  const verdicts: Verdict[] = [];
  const sessions = createSessionAccumulator();
  // Agent versions of the run, with their trace counts, for the baselines account.
  const agentsSeen = new Map<string, AgentSeen>();
  // Agent ids of the run, for tracejury.yml sections that name none of them.
  const agentIdsSeen = new Set<string>();
  const routing = config.tribunal ?? {};
  const budgetUsd = config.tiers.budgetUsd;
  let overBudget = 0;

  // Tier 3 runs whenever escalation is on: the offline embedder is free.
  const embedder =
    options.escalate === false || !config.tiers.escalate
      ? undefined
      : (options.embedder ?? embedderFor(config, stateDir, options.env));
  let tier3Checked = 0;
  const tier3Failures: { count: number; first?: string } = { count: 0 };
  const describe = (id: string) => findDetector(id)?.meta;

  // Tier 2 is free and deterministic: it runs whatever `escalate` says, for the detectors listed.
  const stateDeltas = new Set(config.tiers.stateDeltas);
  const keepGrayZoneTraces = stateDeltas.size > 0 || tribunal !== undefined || embedder !== undefined;
  const jobs =
    // onTrace hands each trace to the caller: the traces stay in this thread.
    'paths' in kind && !options.detectors && !options.onTrace
      ? await effectiveJobs(kind.paths, options.jobs ?? 1, cwd)
      : { count: 1, bytes: 0, files: 0 };
  let run: AnalysedRun;
  if ('paths' in kind && jobs.count > 1) {
    run = analyseInWorkers(
      {
        paths: kind.paths,
        ...(options.inputFormat ? { inputFormat: options.inputFormat } : {}),
        cwd,
        ...(options.within !== undefined ? { within: options.within } : {}),
        ...(agent !== undefined ? { agent } : {}),
        ...(config.taskKey !== undefined ? { taskKey: config.taskKey } : {}),
        config: { sections: config.sections, prices, baselines: config.baselines },
        baselines: store,
        ...(baseReportBaselines ? { baseReportBaselines } : {}),
        deferMissingBaselines: deferring,
        keepGrayZoneTraces,
      },
      jobs.count,
      options.onProgress,
      jobs.bytes,
      jobs.files,
    );
  } else {
    const stats = emptyStats();
    run = analyseInThisThread({
      source:
        'paths' in kind
          ? {
              paths: kind.paths,
              load: {
                inputFormat: options.inputFormat,
                onProgress: options.onProgress,
                cwd,
                within: options.within,
                agent,
                taskKey: config.taskKey,
              },
            }
          : { batches: fromObjects(kind.objects, stats, agent, config.taskKey), stats },
      pricer,
      runner,
      keepGrayZoneTraces,
      keepTraces: options.onTrace !== undefined,
    });
  }

  // A trace whose baseline detectors wait for the input's own baselines is held (its results and
  // a skeleton, not the trace) until every trace has been read; the traces after it are held too,
  // so that the report keeps the input's order. Past MAX_HELD_TRACES held traces, memory would grow
  // with the input: those held are decided against the good runs read so far, and every later
  // trace as it is read, against the good runs read before it.
  const inputBaselines = deferring ? createInputBaselines(config.baselines) : undefined;
  const deferredLookup = inputBaselines
    ? firstBaseline(knownBeforeRun, inputBaselines.lookup)
    : knownBeforeRun;
  const held: Decided[] = [];
  /** Past MAX_HELD_TRACES: traces are decided as they are read; how many were. */
  let asRead = false;
  let readAfter = 0;
  // The baseline detectors never land in the gray zone (their confidence starts at 0.8), so what
  // they find needs no escalation.
  const runDeferred = (d: Decided) => {
    const packed = d.result.baselineSkeleton;
    if (!packed) return;
    const { file, format } = d.result.summary;
    const loaded = { trace: unpackSkeleton(packed), source: { file, format } };
    d.signals = [...d.signals, ...runner.runDeferred(loaded, deferredLookup)];
  };
  const release = () => {
    for (const h of held) {
      runDeferred(h);
      add(h);
    }
    held.length = 0;
  };
  const add = ({ result, signals, dismissed, verdicts: traceVerdicts }: Decided) => {
    report.addSummary(
      { ...result.summary, signals: countedSignals(signals) },
      signals,
      result.unreadSpans,
      dismissed,
    );
    sessions.add({
      traceId: result.summary.id,
      agentId: result.summary.agentId,
      ...(result.summary.sessionId !== undefined ? { sessionId: result.summary.sessionId } : {}),
      signals,
      facts: result.sessionSignals,
      verdicts: traceVerdicts,
    });
    if (options.onTrace && result.loaded) options.onTrace(result.loaded, signals);
    const { agentId, agentVersion } = result.summary;
    agentIdsSeen.add(agentId);
    const key = agentKey(agentId, agentVersion);
    const seen = agentsSeen.get(key);
    if (seen) seen.traces++;
    else agentsSeen.set(key, { agentId, ...(agentVersion !== undefined ? { agentVersion } : {}), traces: 1 });
  };

  for await (const batch of run.results) {
    for (const result of batch) {
      let signals = result.signals;
      let dismissed: readonly Signal[] = NONE;
      let traceVerdicts: readonly Verdict[] = NONE;
      const escalatable = result.trace ?? result.loaded?.trace;
      if (stateDeltas.size > 0 && escalatable && signals.some(isGrayZone)) {
        // Signals tier 2 resolved below the gray zone are no failure: they are not in t2.signals.
        const t2 = applyStateDeltas(escalatable, signals, stateDeltas);
        signals = t2.signals;
        if (t2.cleared.length > 0) dismissed = [...dismissed, ...t2.cleared];
      }
      if (embedder && escalatable && signals.some(isGrayZone)) {
        const t3 = await escalateWithEmbeddings(escalatable, signals, { embedder, noDowngrade, describe });
        tier3Checked += t3.checked;
        if (t3.error) {
          tier3Failures.count++;
          tier3Failures.first ??= t3.error;
        }
        // Signals tier 3 resolved below the gray zone are no failure: they are not in t3.signals.
        signals = t3.signals;
        if (t3.cleared.length > 0) dismissed = [...dismissed, ...t3.cleared];
      }
      if (tribunal && escalatable && signals.some(isGrayZone)) {
        const escalated = await escalateGrayZone(escalatable, signals, {
          session: tribunal,
          noDowngrade,
          describe,
          route: (failureMode) => judgesFor(failureMode, routing),
          ...(budgetUsd !== undefined ? { budgetUsd } : {}),
        });
        overBudget += escalated.overBudget;
        // A judge that clears a signal below the gray zone resolves it: the verdict stays, the signal goes.
        signals = escalated.signals.filter((s) => s.confidence >= GRAY_ZONE_LOWER);
        const cleared = escalated.signals.filter((s) => s.confidence < GRAY_ZONE_LOWER);
        if (cleared.length > 0) dismissed = [...dismissed, ...cleared];
        for (const v of escalated.verdicts) verdicts.push(v);
        traceVerdicts = escalated.verdicts;
      }
      // Escalation decided gray-zone signals: who charges each wasted call follows what it decided
      // (a loop that became a finding charges its calls, unless one before it in priority does).
      if (escalatable && signals !== result.signals) signals = runner.settleWaste(escalatable, signals);
      // What the report still needs of the trace: a held result must not keep the trace itself
      // (sent along for escalation), only the caller's onTrace may.
      const { trace: _escalated, signals: _detected, order: _order, baselineRun: _run, ...kept } = result;
      const decided: Decided = { result: kept, signals, dismissed, verdicts: traceVerdicts };
      if (result.baselineSkeleton && result.baselineRun)
        inputBaselines?.offer(result.baselineSkeleton.head, result.baselineRun, signals);
      if (asRead) {
        if (result.baselineSkeleton) readAfter++;
        runDeferred(decided);
        add(decided);
      } else if (held.length > 0 || result.baselineSkeleton) {
        held.push(decided);
        if (held.length >= MAX_HELD_TRACES) {
          release();
          asRead = true;
        }
      } else add(decided);
    }
  }
  // Every trace has been read: the input's own baselines are known.
  release();
  const finished = run.finished();
  const { stats, unknownModels } = finished;
  // Deferred baseline detectors ran in this thread: with workers, their failures are this runner's.
  const failures = jobs.count > 1 ? [...finished.failures, ...runner.failures] : finished.failures;
  const baselineUse = baselineAccount(
    agentsSeen.values(),
    runner.baselineDetectors,
    {
      store,
      ...(baseReportBaselines ? { baseReport: baseReportBaselines } : {}),
      ...(inputBaselines ? { input: inputBaselines.file() } : {}),
    },
    config.baselines,
  );
  // Agents whose detectors fell back to static thresholds: the store's notes say how far it is.
  const staticAgents = baselineUse
    .filter((u) => Object.values(u.detectors).some((d) => d.source === 'static'))
    .map((u) => u.agent);

  inCanonicalOrder(stats);
  const notes = [
    ...config.warnings,
    ...unmatchedAgentSections(config, agentIdsSeen),
    ...baselineNotes(store, staticAgents, config.baselines),
    ...stats.notes,
  ];
  if (readAfter > 0)
    notes.push(
      `more than ${fmtInt(MAX_HELD_TRACES)} traces waited for their agent's baselines from the input: ` +
        `the ${fmtInt(readAfter)} read after were judged against the good runs read before them, ` +
        'not the whole input (memory stays bounded); a baseline store (`tracejury baseline update`) avoids this',
    );
  if (stats.notesDropped > 0)
    notes.push(
      `${stats.notesDropped} more note${stats.notesDropped === 1 ? '' : 's'} about reading the input are not listed`,
    );
  // The gate names every detector that failed and says "see notes": each gets at least one note,
  // and the rest are listed up to a bound (a detector may fail on every trace).
  const noted = new Set<string>();
  let listed = 0;
  for (const f of failures) {
    if (listed >= 20 && noted.has(f.detector)) continue;
    noted.add(f.detector);
    listed++;
    notes.push(`detector ${f.detector} failed on trace ${f.traceId}: ${f.message} (please report this)`);
  }
  if (failures.length > listed) {
    const more = failures.length - listed;
    notes.push(`${more} more detector failure${more === 1 ? ' is' : 's are'} not listed`);
  }
  const tier3 = embedder ? tier3Outcome(embedder, pricer, tier3Checked, tier3Failures) : { notes: [] };
  notes.push(...tier3.notes);
  const judgeStats = tribunal?.stats();
  if (tribunal) await tribunal.flush();
  if (judgeStats?.circuitOpen) {
    notes.push(
      `tribunal circuit breaker opened: ${judgeStats.indeterminate} of ${judgeStats.verdicts} verdicts were INDETERMINATE (over 10 %); ` +
        `${judgeStats.circuitOpenVerdicts} later case(s) got stages 0–1 only and are listed for review`,
    );
  }
  if (overBudget > 0 && budgetUsd !== undefined) {
    notes.push(
      `${budgetReason(budgetUsd)} (tiers.budgetUsd; judges spent $${(judgeStats?.judgeUsd ?? 0).toFixed(4)}): ` +
        `${overBudget} later gray-zone case${overBudget === 1 ? ' was' : 's were'} not escalated and ${overBudget === 1 ? 'is' : 'are'} listed for review`,
    );
  }
  const built = report.finish({
    stats,
    unknownModels,
    failOn: options.failOn ?? config.failOn,
    allowInputErrors: options.allowInputErrors ?? !config.failOnInputErrors,
    failOnOutcome: config.failOnOutcome,
    notes,
    verdicts,
    judgeStats,
    ...(tier3.usd !== undefined ? { tier3Usd: tier3.usd } : {}),
    ...judgesThatNeverRan(verdicts),
    tribunalRequired: config.tribunal?.required ?? false,
    detectorFailures: failures,
    sessions: sessions.finish(config.sessions),
    failOnSessions: config.sessions.failGate,
    sessionCoverage: sessions.coverage(),
    baselines: baselineUse,
  });
  const webhook = config.review?.webhook;
  if (webhook && options.notify !== false && built.review.length > 0) {
    const result = await postReview(built, webhook, { fetch: options.fetch ?? globalThis.fetch });
    if (!result.delivered) built.notes.push(redact(webhookNote(built, webhook, result)));
  }
  return built;
}
