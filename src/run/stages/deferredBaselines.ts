/**
 * The deferred baseline detectors. When an agent has too few good runs in the store and the base
 * report, its baseline detectors wait for the input's own good runs: such a trace is held (its
 * results and a skeleton, not the trace) until every trace has been read, and the traces after it
 * are held too, so that the report keeps the input's order. Past MAX_HELD_TRACES held traces,
 * memory would grow with the input: those held are decided against the good runs read so far, and
 * every later trace as it is read, against the good runs read before it.
 */
import { createInputBaselines } from '../../baseline/inputBaselines.js';
import { firstBaseline, type BaselineFile, type BaselineRun } from '../../baseline/store.js';
import { unpackSkeleton } from '../../detect/baselineSkeleton.js';
import type { BaselineLookup } from '../../detect/detector.js';
import type { DetectorRunner } from '../../detect/runner.js';
import type { Config } from '../../config/config.js';
import type { Decided } from './decided.js';

/**
 * Traces held at most while their baseline detectors wait for the input's own baselines (about
 * 1–2 KB each): a CI job's input is far below it; past it, traces are judged as they are read.
 */
export const MAX_HELD_TRACES = 10_000;

export interface DeferredBaselinesInput {
  /** Whether the runner deferred baseline detectors at all (runSetup's `deferring`). */
  deferring: boolean;
  settings: Config['baselines'];
  /** The baselines known before the run: the store's, then the base report's. */
  knownBeforeRun: BaselineLookup;
  runner: DetectorRunner;
  /** Where a trace goes once its deferred detectors have run (the next stage). */
  next: (decided: Decided) => Promise<void>;
}

export interface DeferredBaselines {
  /** A decided trace, and its run as the input's baselines would learn it (when it was deferred). */
  offer(decided: Decided, run: BaselineRun | undefined): Promise<void>;
  /** Every trace has been read: runs what waited and hands on every held trace. */
  release(): Promise<void>;
  /** The input's own baselines, when they were gathered. */
  inputBaselines(): BaselineFile | undefined;
  /** How many deferred traces, read past MAX_HELD_TRACES, were judged against the good runs before them. */
  readAfter(): number;
}

export function createDeferredBaselines(given: DeferredBaselinesInput): DeferredBaselines {
  const { runner, next } = given;
  const input = given.deferring ? createInputBaselines(given.settings) : undefined;
  const lookup = input ? firstBaseline(given.knownBeforeRun, input.lookup) : given.knownBeforeRun;
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
    d.signals = [...d.signals, ...runner.runDeferred(loaded, lookup)];
  };
  const release = async () => {
    for (const h of held) {
      runDeferred(h);
      await next(h);
    }
    held.length = 0;
  };

  return {
    async offer(decided, run) {
      const skeleton = decided.result.baselineSkeleton;
      if (skeleton && run) input?.offer(skeleton.head, run, decided.signals);
      if (asRead) {
        if (skeleton) readAfter++;
        runDeferred(decided);
        await next(decided);
      } else if (held.length > 0 || skeleton) {
        held.push(decided);
        if (held.length >= MAX_HELD_TRACES) {
          await release();
          asRead = true;
        }
      } else await next(decided);
    },
    release,
    inputBaselines: () => input?.file(),
    readAfter: () => readAfter,
  };
}
