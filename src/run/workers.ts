/**
 * Runs analyze()'s loading and detection on N worker threads and merges their results into one
 * stream in the canonical trace order (trace/order.ts), so that everything after it (escalation,
 * the report) sees exactly what a single-threaded run sees. Each worker's results arrive in that
 * order already; the merge releases the smallest head once every worker still running has a
 * result waiting. Workers send only as many result messages as the main thread has consumed plus
 * a small window, so a worker that runs ahead cannot fill memory.
 */
import { Worker } from 'node:worker_threads';
import type { DetectorFailure } from '../detect/runner.js';
import { emptyStats, type LoadProgress, type LoadStats } from '../trace/load.js';
import { compareTraceOrder } from '../trace/order.js';
import type { AnalysedRun, CreditMessage, TraceResult, WorkerInput, WorkerMessage } from './protocol.js';

/** Result messages a worker may have in flight before it waits (each holds a batch of a few traces). */
const WINDOW = 64;

interface WorkerState {
  worker: Worker;
  queue: TraceResult[][];
  /** Index of the next result in queue[0]. */
  head: number;
  done: boolean;
  progress: { bytesRead: number; traces: number; filesDone: number; file: string };
}

export function analyseInWorkers(
  inputs: Omit<WorkerInput, 'shard'>,
  count: number,
  onProgress?: (p: LoadProgress) => void,
  bytesTotal = 0,
  files = 0,
): AnalysedRun {
  const unknownModels = new Map<string, number>();
  const outcome = { stats: emptyStats(), unknownModels, failures: [] as DetectorFailure[] };
  const states: WorkerState[] = [];
  let notify: (() => void) | undefined;
  let failure: Error | undefined;
  const poke = () => {
    notify?.();
    notify = undefined;
  };

  for (let index = 0; index < count; index++) {
    const worker = new Worker(new URL('./worker.js', import.meta.url), {
      workerData: { ...inputs, shard: { index, count } } satisfies WorkerInput,
    });
    const state: WorkerState = {
      worker,
      queue: [],
      head: 0,
      done: false,
      progress: { bytesRead: 0, traces: 0, filesDone: 0, file: '' },
    };
    states.push(state);
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'results') state.queue.push(m.results);
      else if (m.type === 'progress') {
        state.progress = m;
        if (onProgress) {
          // Every worker reads every file: the slowest one says how far the run is.
          const slowest = states.reduce((a, s) => (s.progress.bytesRead < a.progress.bytesRead ? s : a));
          onProgress({
            file: slowest.progress.file,
            filesDone: slowest.progress.filesDone,
            files,
            traces: states.reduce((n, s) => n + s.progress.traces, 0),
            bytesRead: slowest.progress.bytesRead,
            bytesTotal,
          });
        }
      } else if (m.type === 'done') {
        mergeOutcome(outcome, m, index);
        state.done = true;
        void worker.terminate();
      } else {
        failure ??= new Error(`analysis worker ${index + 1} of ${count} failed: ${m.message}`);
      }
      poke();
    });
    worker.on('error', (err) => {
      failure ??= err;
      poke();
    });
    worker.on('exit', (code) => {
      if (!state.done && code !== 0)
        failure ??= new Error(`analysis worker ${index + 1} of ${count} exited with code ${code}`);
      poke();
    });
    worker.postMessage({ type: 'credit', messages: WINDOW } satisfies CreditMessage);
  }

  async function* merged(): AsyncGenerator<TraceResult[]> {
    try {
      for (;;) {
        if (failure) throw failure;
        // Every running worker must have a result waiting: one without could still send a smaller one.
        if (states.some((s) => !s.done && s.queue.length === 0)) {
          await new Promise<void>((resolve) => (notify = resolve));
          continue;
        }
        const ready = states.filter((s) => s.queue.length > 0);
        if (ready.length === 0) break;
        const out: TraceResult[] = [];
        // Release in order until some running worker's queue runs dry.
        while (out.length < 256) {
          let best: WorkerState | undefined;
          for (const s of states) {
            if (s.queue.length === 0) {
              if (!s.done) {
                best = undefined;
                break;
              }
              continue;
            }
            if (!best || compareTraceOrder(s.queue[0]![s.head]!.order, best.queue[0]![best.head]!.order) < 0)
              best = s;
          }
          if (!best) break;
          out.push(best.queue[0]![best.head++]!);
          if (best.head === best.queue[0]!.length) {
            best.queue.shift();
            best.head = 0;
            best.worker.postMessage({ type: 'credit', messages: 1 } satisfies CreditMessage);
          }
        }
        if (out.length > 0) yield out;
      }
    } finally {
      for (const s of states) if (!s.done) void s.worker.terminate();
    }
  }

  return { results: merged(), finished: () => outcome };
}

/** Adds one worker's totals to the run's. */
function mergeOutcome(
  outcome: { stats: LoadStats; unknownModels: Map<string, number>; failures: DetectorFailure[] },
  m: Extract<WorkerMessage, { type: 'done' }>,
  index: number,
): void {
  const total = outcome.stats;
  total.records += m.stats.records;
  total.traces += m.stats.traces;
  total.errorCount += m.stats.errorCount;
  for (const e of m.stats.errors) total.errors.push(e);
  // Each file's counts come from the one worker that owns it.
  total.files += m.stats.files;
  for (const [format, n] of Object.entries(m.stats.formats))
    total.formats[format] = (total.formats[format] ?? 0) + n;
  for (const note of m.stats.notes) total.notes.push(note);
  total.notesDropped += m.stats.notesDropped;
  if (index === 0) total.fileNames = m.stats.fileNames;
  for (const [model, calls] of m.unknownModels)
    outcome.unknownModels.set(model, (outcome.unknownModels.get(model) ?? 0) + calls);
  for (const f of m.failures) outcome.failures.push(f);
}
