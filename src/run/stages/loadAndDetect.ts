/**
 * The load and detect stages, run together as the input streams: every trace is read, normalised,
 * priced and run through the detectors, in this thread or on worker threads (`--jobs N`), and
 * handed on as a TraceResult in the canonical trace order. The trace itself goes no further unless
 * escalation or the caller needs it.
 */
import type { InputFormat } from '../../trace/importer.js';
import { emptyStats, type LoadProgress } from '../../trace/load.js';
import type { RunSetup } from '../../runSetup.js';
import { effectiveJobs } from '../jobs.js';
import { analyseInThisThread } from '../local.js';
import type { AnalysedRun, AttributionInput } from '../protocol.js';
import { analyseInWorkers } from '../workers.js';
import { fromObjects, type RunInput } from './input.js';

export interface LoadAndDetectInput {
  input: RunInput;
  setup: RunSetup;
  cwd: string;
  /** The folder links in the input may lead into (default cwd). */
  within?: string;
  /** The metadata path of the task a run attempted (config `taskKey:`). */
  taskKey?: string;
  /** The agent of traces whose recording names none. */
  agent?: string;
  inputFormat?: InputFormat;
  onProgress?: (p: LoadProgress) => void;
  /** Worker threads asked for; inputs under 32 MB run in this thread whatever it says. */
  jobs: number;
  /**
   * Everything stays in this thread: custom detectors (functions cannot be sent to a worker), or a
   * caller that wants every trace handed back.
   */
  inThisThread: boolean;
  /** Keep the trace with its results when a signal is in the gray zone (escalation will read it). */
  keepGrayZoneTraces: boolean;
  /** Keep every trace with its results (the caller's onTrace). */
  keepTraces: boolean;
  /** The attribution rules run with detection, where the trace is. */
  attribution: AttributionInput;
}

export async function loadAndDetect(given: LoadAndDetectInput): Promise<AnalysedRun> {
  const { input, setup, cwd, agent } = given;
  const { config, runner } = setup;
  const jobs =
    'paths' in input && !given.inThisThread
      ? await effectiveJobs(input.paths, given.jobs, cwd)
      : { count: 1, bytes: 0, files: 0 };
  if ('paths' in input && jobs.count > 1) {
    const run = analyseInWorkers(
      {
        paths: input.paths,
        ...(given.inputFormat ? { inputFormat: given.inputFormat } : {}),
        cwd,
        ...(given.within !== undefined ? { within: given.within } : {}),
        ...(agent !== undefined ? { agent } : {}),
        ...(given.taskKey !== undefined ? { taskKey: given.taskKey } : {}),
        config: { sections: config.sections, prices: setup.prices, baselines: config.baselines },
        baselines: setup.store,
        ...(setup.baseReportBaselines ? { baseReportBaselines: setup.baseReportBaselines } : {}),
        deferMissingBaselines: setup.deferring,
        keepGrayZoneTraces: given.keepGrayZoneTraces,
        attribution: given.attribution,
      },
      jobs.count,
      given.onProgress,
      jobs.bytes,
      jobs.files,
    );
    return {
      results: run.results,
      // Deferred baseline detectors run in this thread: with workers, their failures are this runner's.
      finished: () => {
        const outcome = run.finished();
        return { ...outcome, failures: [...outcome.failures, ...runner.failures] };
      },
    };
  }
  const stats = emptyStats();
  return analyseInThisThread({
    source:
      'paths' in input
        ? {
            paths: input.paths,
            load: {
              inputFormat: given.inputFormat,
              onProgress: given.onProgress,
              cwd,
              within: given.within,
              agent,
              taskKey: given.taskKey,
            },
          }
        : { batches: fromObjects(input.objects, stats, agent, given.taskKey), stats },
    pricer: setup.pricer,
    runner,
    keepGrayZoneTraces: given.keepGrayZoneTraces,
    keepTraces: given.keepTraces,
    attribution: given.attribution,
  });
}
