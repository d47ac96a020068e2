/**
 * Loading and detection in this thread: the path of a library call, a small input, `--jobs 1`, or
 * custom detectors (functions cannot be sent to a worker). Yields the same TraceResults, in the same
 * canonical order, as the worker threads do.
 */
import type { DetectorRunner } from '../detect/runner.js';
import type { Pricer } from '../pricing/pricer.js';
import { priceTrace, streamTraceBatches, type LoadOptions, type LoadStats } from '../trace/load.js';
import type { LoadedTrace } from '../trace/schema.js';
import { resultOrInputError } from './analyseTrace.js';
import type { AnalysedRun, AttributionInput } from './protocol.js';
import { traceResult } from './traceResult.js';

export interface LocalRunInput {
  /** Trace files, or batches of traces already validated (library input). */
  source:
    { paths: string[]; load: LoadOptions } | { batches: AsyncIterable<LoadedTrace[]>; stats: LoadStats };
  pricer: Pricer;
  runner: DetectorRunner;
  /** Keep the trace with its results when a signal is in the gray zone (judges are configured). */
  keepGrayZoneTraces: boolean;
  /** Keep every trace with its results (the caller's onTrace wants them). */
  keepTraces?: boolean;
  /** The attribution rules, run with detection where the trace is. */
  attribution?: AttributionInput;
}

export function analyseInThisThread(input: LocalRunInput): AnalysedRun {
  const { pricer, runner } = input;
  let stats: LoadStats;
  let batches: AsyncIterable<LoadedTrace[]>;
  const given = 'paths' in input.source ? undefined : input.source;
  if ('paths' in input.source) {
    const stream = streamTraceBatches(input.source.paths, { ...input.source.load, pricer });
    batches = stream.batches;
    stats = stream.stats;
  } else {
    batches = input.source.batches;
    stats = input.source.stats;
  }

  async function* results() {
    let n = 0;
    for await (const batch of batches) {
      yield batch.flatMap((loaded) => {
        // Files are priced by the loader; trace objects given directly are priced here.
        if (given) priceTrace(loaded.trace, pricer);
        // Trace objects given directly have no file: their order is the order given.
        const order = loaded.source.order ?? { file: 0, emit: n++, first: 0, seq: 0 };
        return resultOrInputError(loaded, stats, () =>
          traceResult(
            loaded,
            order,
            runner,
            { grayZoneTrace: input.keepGrayZoneTraces, loaded: input.keepTraces === true },
            input.attribution,
          ),
        );
      });
    }
  }

  return {
    results: results(),
    finished: () => ({ stats, unknownModels: pricer.unknownModels(), failures: runner.failures }),
  };
}
