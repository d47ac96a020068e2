/**
 * Messages between analyze() and its worker threads (`--jobs N`). Each worker reads every input
 * file but imports and analyses only its shard of the traces (see trace/shard.ts), and sends back
 * what the report needs of each trace: its summary, its signals, its session facts, and the trace itself only when a
 * gray-zone signal may be escalated to judges on the main thread.
 */
import type { AttributionFacts } from '../attribute/candidates.js';
import type { AttributionSettings } from '../attribute/config.js';
import type { BaselineFile, BaselineRun } from '../baseline/store.js';
import type { PackedSkeleton } from '../detect/baselineSkeleton.js';
import type { DetectorFailure } from '../detect/runner.js';
import type { Signal } from '../detect/signal.js';
import type { TraceSummary } from '../report/schema.js';
import type { SessionFacts } from '../session/traceFacts.js';
import type { InputFormat } from '../trace/importer.js';
import type { LoadStats } from '../trace/load.js';
import type { DetectorSections } from '../detect/config.js';
import type { PriceOverrides } from '../pricing/pricer.js';
import type { LoadedTrace, Trace } from '../trace/schema.js';
import type { TraceOrder } from '../trace/order.js';

export interface WorkerInput {
  paths: string[];
  shard: { index: number; count: number };
  inputFormat?: InputFormat;
  cwd: string;
  /** The folder links may lead into (LoadOptions.within). */
  within?: string;
  /** The agent of traces that name none (`--agent` / `agent:`). */
  agent?: string;
  /** The metadata path of a trace's task, for traces that name none (`taskKey:`). */
  taskKey?: string;
  config: DetectorSections & { prices: PriceOverrides; baselines: { minRuns: number; window: number } };
  baselines: BaselineFile;
  /** Baselines of the base branch's report, after the store's. */
  baseReportBaselines?: BaselineFile;
  /** Leave baseline detectors of agents with too few runs in `baselines` to the main thread. */
  deferMissingBaselines: boolean;
  /** Send the trace with its results when a signal is in the gray zone (judges are configured). */
  keepGrayZoneTraces: boolean;
  /** Failure attribution's rules run where the trace is: here, with these settings. */
  attribution: AttributionInput;
}

/** What the attribution rules need where they run (detection), and whether to keep step text. */
export interface AttributionInput {
  settings: AttributionSettings;
  /** Keep candidate steps' text for the tribunal (judges are configured for attribution). */
  excerpts: boolean;
}

/** One analysed trace, as the report and the escalation tier need it. */
export interface TraceResult {
  order: TraceOrder;
  summary: TraceSummary;
  signals: Signal[];
  /**
   * What the session metrics need of the trace (a few numbers and a 32-number fingerprint), taken
   * here so that the trace itself need not be kept or sent.
   */
  sessionSignals: SessionFacts;
  /** Spans of the trace no importer read, by span name (report/build.ts unreadSpansOf). */
  unreadSpans?: Record<string, number>;
  /** The trace, for escalation; only sent when one of its signals is in the gray zone. */
  trace?: Trace;
  /**
   * When the runner deferred baseline detectors of this trace until the input's own baselines are
   * known (its agent has too few runs in the store): what they and the good-run rule read of the
   * trace, packed (detect/baselineSkeleton.ts), kept until the end of the run instead of the trace.
   */
  baselineSkeleton?: PackedSkeleton;
  /** With a skeleton: the trace's run as the input's baselines would learn it. */
  baselineRun?: BaselineRun;
  /** The trace and its source, in this thread only, when the caller asked for every trace (onTrace). */
  loaded?: LoadedTrace;
  /**
   * What failure attribution named in the trace (candidate root causes), for a run that may turn
   * out failed; the attribution stage chooses among them once escalation has decided.
   */
  attribution?: AttributionFacts;
}

export type WorkerMessage =
  | { type: 'results'; results: TraceResult[] }
  | { type: 'progress'; bytesRead: number; traces: number; filesDone: number; file: string }
  | {
      type: 'done';
      stats: LoadStats;
      unknownModels: [string, number][];
      failures: DetectorFailure[];
    }
  | { type: 'failed'; message: string };

/** What a run of loading and detection ends with, besides its results. */
export interface RunOutcome {
  stats: LoadStats;
  unknownModels: ReadonlyMap<string, number>;
  failures: DetectorFailure[];
}

/** Loading and detection, in this thread or in workers: results in canonical order, then the totals. */
export interface AnalysedRun {
  results: AsyncIterable<TraceResult[]>;
  /** Call once `results` has been read to the end. */
  finished(): RunOutcome;
}

/** Main thread → worker: the number of result messages it may send before waiting again. */
export interface CreditMessage {
  type: 'credit';
  messages: number;
}
