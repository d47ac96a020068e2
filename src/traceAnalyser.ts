/**
 * The detectors over one trace at a time, synchronously, with everything a run needs prepared
 * once: what the Vitest matchers call for every `expect(trace)`. The signals are those
 * `analyze()` reports for the same trace and config (same runner, same pricing, tier 2's state-delta
 * decisions, same statuses); gray-zone signals tier 2 leaves undecided stay `review` here, since
 * escalation to embeddings and judges is a run's job, not a matcher's.
 */
import { attributionFacts } from './attribute/candidates.js';
import { chooseRootCause } from './attribute/choose.js';
import { failureOf } from './attribute/failedRun.js';
import type { RootCause } from './attribute/rootCause.js';
import type { Config } from './config/config.js';
import type { Pricer } from './pricing/pricer.js';
import { isGrayZone } from './detect/grayZone.js';
import { reportSignal, summariseTrace } from './report/build.js';
import type { ReportSignal, TraceSummary } from './report/schema.js';
import { prepareRun, type RunSetupOptions } from './runSetup.js';
import { applyStateDeltas } from './tiers/stateDeltas.js';
import { keyAgent } from './trace/agentKey.js';
import { invalidTraceError, priceTrace } from './trace/load.js';
import { parseTrace } from './trace/fastParse.js';
import type { LoadedTrace, Trace } from './trace/schema.js';
import { formatInputError } from './trace/inputError.js';
import { unpricedModelsOf } from './pricing/unpricedModels.js';

export interface TraceAnalyserOptions extends Omit<RunSetupOptions, 'cwd'> {
  cwd?: string;
  /** The agent of traces that name none (default `<input>`, as analyze() names trace objects). */
  agent?: string;
}

export interface TraceAnalysis {
  trace: Trace;
  /** What a report keeps of the trace. */
  summary: TraceSummary;
  /** Every signal, with its report status (finding, review, suppressed, shadow). */
  signals: ReportSignal[];
  /** Models of its calls that could not be priced, with how many calls each (empty when all were). */
  unpricedModels: Record<string, number>;
  /**
   * A failed run's root cause by the attribution rules (no judges here, as no escalation: the
   * rules' answer stands); undefined when the run did not fail or attribution is off.
   */
  rootCause?: RootCause;
}

export interface TraceAnalyser {
  config: Config;
  /** The run's pricer (config prices and default model): load files with it so costs agree. */
  pricer: Pricer;
  /**
   * A trace object (validated here; an invalid one throws with its field) or a loaded trace.
   * Analysing the same object twice returns the first analysis: matchers share one run per trace.
   */
  analyse(input: LoadedTrace | Trace | Record<string, unknown>): TraceAnalysis;
}

function isLoaded(input: unknown): input is LoadedTrace {
  const l = input as Partial<LoadedTrace>;
  return typeof l === 'object' && l !== null && typeof l.trace === 'object' && typeof l.source === 'object';
}

/** The attribute stage for one trace, as analyze() runs it without judges. */
function rootCauseOf(trace: Trace, signals: readonly ReportSignal[], config: Config): RootCause | undefined {
  if (!config.attribution.enabled || failureOf(trace, signals, config.failOn) === undefined) return undefined;
  const facts = attributionFacts(trace, signals, config.attribution);
  return chooseRootCause(facts.candidates, signals, facts.failures).rootCause;
}

export function createTraceAnalyser(options: TraceAnalyserOptions = {}): TraceAnalyser {
  const setup = prepareRun({ ...options, cwd: options.cwd ?? process.cwd() });
  const agent = options.agent ?? setup.config.agent;
  const done = new WeakMap<object, TraceAnalysis>();
  // Tier 2 is deterministic and free, so a matcher sees what analyze() decides there.
  const stateDeltas = new Set(setup.config.tiers.stateDeltas);

  function toLoaded(input: LoadedTrace | Trace | Record<string, unknown>): LoadedTrace {
    if (isLoaded(input)) return input;
    const keyed = keyAgent(input, agent, '<input>');
    const parsed = parseTrace(keyed.input);
    if (!parsed.success)
      throw new TypeError(formatInputError(invalidTraceError('<trace>', input, parsed.error)));
    priceTrace(parsed.data, setup.pricer);
    return { trace: parsed.data, source: { file: '<input>', format: 'native', agentIdFrom: keyed.from } };
  }

  return {
    config: setup.config,
    pricer: setup.pricer,
    analyse(input) {
      // A loaded trace and its trace are one recording: cache by the trace object.
      const key = isLoaded(input) ? input.trace : input;
      const cached = done.get(key);
      if (cached) return cached;
      const loaded = toLoaded(input);
      const detected = setup.runner.run(loaded);
      // Tier 2's decisions settle who charges each wasted call, as in analyze().
      const signals = (
        stateDeltas.size > 0 && detected.some(isGrayZone)
          ? setup.runner.settleWaste(
              loaded.trace,
              applyStateDeltas(loaded.trace, detected, stateDeltas).signals,
            )
          : detected
      ).map(reportSignal);
      const failure = setup.runner.failures.shift();
      if (failure)
        throw new Error(
          `detector ${failure.detector} failed on trace ${failure.traceId}: ${failure.message} (please report this)`,
        );
      const rootCause = rootCauseOf(loaded.trace, signals, setup.config);
      const analysis = {
        trace: loaded.trace,
        summary: { ...summariseTrace(loaded, signals), ...(rootCause ? { rootCause } : {}) },
        signals,
        unpricedModels: unpricedModelsOf(loaded.trace),
        ...(rootCause ? { rootCause } : {}),
      };
      done.set(key, analysis);
      return analysis;
    },
  };
}
