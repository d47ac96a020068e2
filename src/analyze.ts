/**
 * analyze(): one run of the pipeline over a whole input, as a short sequence of named stages over
 * plain data (src/run/stages/): load and detect (streaming, on worker threads with --jobs) →
 * escalate → deferred baseline detectors → attribute → sessions and the report's accumulation →
 * the report.
 * The CLI, the Vitest reporter and the Action call this; it does no printing.
 */
import type { Config } from './config/config.js';
import type { Detector } from './detect/detector.js';
import type { Severity, Signal } from './detect/signal.js';
import type { CassetteMode } from './judge/cassette.js';
import type { TribunalSession } from './judge/tribunal.js';
import type { Embedder } from './embed/embedder.js';
import type { BaselineFile } from './baseline/store.js';
import type { Report } from './report/schema.js';
import { prepareRun, type RunSetupOptions } from './runSetup.js';
import { attributeTrace, prepareAttribution } from './run/stages/attribute.js';
import { createRunCollector } from './run/stages/collect.js';
import { createDeferredBaselines } from './run/stages/deferredBaselines.js';
import {
  escalateTrace,
  escalationOutcome,
  prepareEscalation,
  readsGrayZoneTraces,
} from './run/stages/escalate.js';
import { inputKind } from './run/stages/input.js';
import { loadAndDetect } from './run/stages/loadAndDetect.js';
import { finishReport, notifyReviewers } from './run/stages/report.js';
import type { InputFormat } from './trace/importer.js';
import type { LoadProgress } from './trace/load.js';
import type { LoadedTrace, TraceInput } from './trace/schema.js';

export { DEFAULT_STATE_DIR } from './runSetup.js';
export { MAX_HELD_TRACES } from './run/stages/deferredBaselines.js';

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
  /**
   * Keep the report's `traces[]`, `signals[]`, `review[]` and `sessions[]` in temporary files rather
   * than in memory, as the CLI's JSON report does (default false): the returned Report holds them
   * empty, `reportJsonChunks` writes them from the files, and the caller removes the files with
   * `removeSpilledLists(report)` (or the process does at exit). On an error the files are removed before it is thrown.
   */
  spillReport?: boolean;
}

/** What prepareRun needs of the options: the config, the state, the baselines, the detectors. */
function setupOptions(options: AnalyzeOptions, cwd: string): RunSetupOptions {
  return {
    cwd,
    ...(options.config ? { config: options.config } : {}),
    ...(options.configFile ? { configFile: options.configFile } : {}),
    ...(options.stateDir ? { stateDir: options.stateDir } : {}),
    ...(options.baselines !== undefined ? { baselines: options.baselines } : {}),
    ...(options.detectors ? { detectors: options.detectors } : {}),
    ...(options.defaultModel ? { defaultModel: options.defaultModel } : {}),
    ...(options.baseReport ? { baseReport: options.baseReport } : {}),
    inputBaselines: options.inputBaselines !== false,
  };
}

export async function analyze(
  input: string | string[] | TraceInput[],
  options: AnalyzeOptions = {},
): Promise<Report> {
  const cwd = options.cwd ?? process.cwd();
  const kind = inputKind(input);
  if (options.config && options.configFile)
    throw new TypeError('analyze(): give options.config or options.configFile, not both');
  const setup = prepareRun(setupOptions(options, cwd));
  const { config, runner } = setup;
  const escalation = prepareEscalation({
    config,
    stateDir: setup.stateDir,
    cwd,
    escalate: options.escalate !== false,
    ...(options.tribunal ? { tribunal: options.tribunal } : {}),
    ...(options.embedder ? { embedder: options.embedder } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.cassette ? { cassette: options.cassette } : {}),
    ...(options.rerunCommand ? { rerunCommand: options.rerunCommand } : {}),
  });
  const agent = options.agent ?? config.agent;
  const run = await loadAndDetect({
    input: kind,
    setup,
    cwd,
    ...(options.within !== undefined ? { within: options.within } : {}),
    ...(config.taskKey !== undefined ? { taskKey: config.taskKey } : {}),
    ...(agent !== undefined ? { agent } : {}),
    ...(options.inputFormat ? { inputFormat: options.inputFormat } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    jobs: options.jobs ?? 1,
    // onTrace hands each trace to the caller: the traces stay in this thread.
    inThisThread: Boolean(options.detectors) || Boolean(options.onTrace),
    keepGrayZoneTraces: readsGrayZoneTraces(escalation),
    keepTraces: options.onTrace !== undefined,
    attribution: { settings: config.attribution, excerpts: escalation.attributionTribunal !== undefined },
  });
  const attribution = prepareAttribution(config, escalation, options.failOn ?? config.failOn);
  const collector = createRunCollector(options.onTrace, { spill: options.spillReport === true });
  try {
    return await finishRun();
  } catch (err) {
    collector.report.discard();
    throw err;
  }

  async function finishRun(): Promise<Report> {
    const deferred = createDeferredBaselines({
      deferring: setup.deferring,
      settings: config.baselines,
      knownBeforeRun: setup.baselines,
      runner,
      next: async (decided) =>
        collector.add({ ...decided, rootCause: await attributeTrace(decided, attribution) }),
    });
    for await (const batch of run.results) {
      for (const result of batch) {
        await deferred.offer(await escalateTrace(result, escalation, runner), result.baselineRun);
      }
    }
    // Every trace has been read: the input's own baselines are known.
    await deferred.release();
    const report = finishReport({
      config,
      store: setup.store,
      ...(setup.baseReportBaselines ? { baseReportBaselines: setup.baseReportBaselines } : {}),
      runner,
      collector,
      loaded: run.finished(),
      deferred,
      escalation: await escalationOutcome(escalation, setup.pricer),
      ...(options.failOn ? { failOn: options.failOn } : {}),
      ...(options.allowInputErrors !== undefined ? { allowInputErrors: options.allowInputErrors } : {}),
    });
    if (options.notify !== false) await notifyReviewers(report, config, options.fetch ?? globalThis.fetch);
    return report;
  }
}
