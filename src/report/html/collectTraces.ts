/**
 * The traces an HTML page embeds, read again from the files the report names, within a size
 * budget. analyze() streams traces and holds none, so the page cannot be written from what the run
 * kept: the traces to show are known only once the report is (which have findings), and are then
 * re-read from their files, one file at a time, keeping at most `budgetBytes` of them.
 *
 * Memory stays bounded by the budget: a trace is kept as its embedded JSON (redacted, escaped by
 * scriptJson, the page's one path) and only while it fits. The budget goes to traces by priority
 * (traceRefs.ts): a trace with a finding that does not fit pushes out traces of lower priority
 * taken before it, the latest first. What was left out, and why, is counted for the page to say.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { scriptJson } from '../../redact/html.js';
import type { Pricer } from '../../pricing/pricer.js';
import type { InputFormat } from '../../trace/importer.js';
import { streamTraces } from '../../trace/load.js';
import type { Trace } from '../../trace/schema.js';
import { fsErrorReason } from '../../util/fsError.js';
import { traceRefKey, traceRefsOfReport, type TracePriority, type TraceRef } from './traceRefs.js';
import type { Report } from '../schema.js';
import type { TracesLeftOut } from './pageData.js';

/** The default budget of embedded trace JSON: a page a browser opens in a second or two. */
export const DEFAULT_HTML_TRACES_MB = 25;
export const MB = 1024 * 1024;

export interface CollectTracesOptions {
  /** The directory the report's file names are relative to. */
  cwd: string;
  /** Bytes of embedded trace JSON at most; null for every trace the report names. */
  budgetBytes: number | null;
  /**
   * Read only files inside this directory: a report made elsewhere (a fork's, a downloaded one)
   * must not make tracejury read files outside the workspace. Unset: any file the report names.
   */
  within?: string | undefined;
  /** As the run read them: the same format, agent and prices give the same traces. */
  inputFormat?: InputFormat | undefined;
  agent?: string | undefined;
  pricer?: Pricer | undefined;
}

/** One trace as the page embeds it. */
export interface TraceJson {
  ref: TraceRef;
  /** scriptJson of the trace: redacted, safe inside a `<script>` element. */
  json: string;
  bytes: number;
}

export interface CollectedTraces {
  /** In the report's order. */
  traces: TraceJson[];
  leftOut: TracesLeftOut;
}

/** Below this much budget left, a trace of no interest is not worth reading on for. */
const NEARLY_FULL = 1024;

/** Why a file the report names is not read again, or undefined when it can be. */
function unreadableReason(file: string, options: CollectTracesOptions): string | undefined {
  if (file.startsWith('<'))
    return `${file} is not a file: traces read from stdin or given as objects are not kept; write them to a file to see their timelines`;
  const resolved = path.resolve(options.cwd, file);
  if (options.within !== undefined) {
    const rel = path.relative(options.within, resolved);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return `outside ${options.within}: not read`;
  }
  try {
    if (!statSync(resolved).isFile()) return 'not a file';
  } catch (err) {
    return fsErrorReason(err);
  }
  return undefined;
}

/** The traces kept so far, by priority, so a trace with a finding can push out lesser ones. */
function createBudget(budgetBytes: number | null) {
  const kept = new Map<number, TraceJson>();
  const stacks: Record<TracePriority, number[]> = { 0: [], 1: [], 2: [] };
  const usedBy: Record<TracePriority, number> = { 0: 0, 1: 0, 2: 0 };
  let used = 0;
  let overBudget = 0;

  const drop = (index: number) => {
    const t = kept.get(index)!;
    kept.delete(index);
    used -= t.bytes;
    usedBy[t.ref.priority] -= t.bytes;
    overBudget++;
  };

  return {
    kept,
    get overBudget() {
      return overBudget;
    },
    nearlyFull: () => budgetBytes !== null && budgetBytes - used < NEARLY_FULL,
    offer(index: number, trace: TraceJson): void {
      const p = trace.ref.priority;
      if (budgetBytes !== null && used + trace.bytes > budgetBytes) {
        const lesser = ([1, 2] as const).filter((q) => q > p).reduce((n, q) => n + usedBy[q], 0);
        if (used - lesser + trace.bytes > budgetBytes) {
          overBudget++;
          return;
        }
        for (const q of [2, 1] as const) {
          while (q > p && used + trace.bytes > budgetBytes && stacks[q].length > 0) drop(stacks[q].pop()!);
        }
      }
      kept.set(index, trace);
      stacks[p].push(index);
      used += trace.bytes;
      usedBy[p] += trace.bytes;
    },
  };
}

export async function collectTraces(
  refs: readonly TraceRef[],
  options: CollectTracesOptions,
): Promise<CollectedTraces> {
  const budget = createBudget(options.budgetBytes);
  const indexOf = new Map<string, number>();
  const byFile = new Map<string, number[]>();
  refs.forEach((ref, i) => {
    const key = traceRefKey(ref);
    if (indexOf.has(key)) return;
    indexOf.set(key, i);
    const list = byFile.get(ref.file);
    if (list) list.push(i);
    else byFile.set(ref.file, [i]);
  });

  const seen = new Set<number>();
  /** Traces of interest (priority 0 or 1) not yet read. */
  let wanted = [...indexOf.values()].filter((i) => refs[i]!.priority < 2).length;
  const unreadable: TracesLeftOut['unreadable'] = [];
  let stoppedEarly = false;
  let notFound = 0;

  for (const [file, indices] of byFile) {
    if (stoppedEarly) break;
    const reason = unreadableReason(file, options);
    if (reason !== undefined) {
      unreadable.push({ file, reason, traces: indices.length });
      for (const i of indices) {
        seen.add(i);
        if (refs[i]!.priority < 2) wanted--;
      }
      continue;
    }
    let left = indices.length;
    const { traces } = streamTraces([file], {
      cwd: options.cwd,
      maxErrors: 0,
      ...(options.inputFormat ? { inputFormat: options.inputFormat } : {}),
      ...(options.agent !== undefined ? { agent: options.agent } : {}),
      ...(options.pricer ? { pricer: options.pricer } : {}),
    });
    for await (const { trace, source } of traces) {
      const i = indexOf.get(traceRefKey({ id: trace.id, file: source.file, line: source.line }));
      if (i === undefined || seen.has(i)) continue;
      seen.add(i);
      const ref = refs[i]!;
      if (ref.priority < 2) wanted--;
      const json = scriptJson(trace);
      budget.offer(i, { ref, json, bytes: Buffer.byteLength(json) });
      if (--left === 0) break;
      // Only traces of no interest are left and the budget is spent: reading on would keep none.
      if (wanted === 0 && budget.nearlyFull()) {
        stoppedEarly = true;
        break;
      }
    }
    // Read to its end: the file no longer holds these (it changed since the run).
    if (!stoppedEarly) notFound += left;
  }

  const unseen = [...indexOf.values()].filter((i) => !seen.has(i)).length;
  const kept = [...budget.kept.entries()].sort(([a], [b]) => a - b).map(([, t]) => t);
  const keptIndices = new Set(budget.kept.keys());
  const leftOutIndices = [...indexOf.values()].filter((i) => !keptIndices.has(i));
  return {
    traces: kept,
    leftOut: {
      traces: leftOutIndices.length,
      withFindings: leftOutIndices.filter((i) => refs[i]!.priority === 0).length,
      // Traces not read because the budget was spent before their file was reached.
      overBudget: budget.overBudget + (unseen - notFound),
      budgetBytes: options.budgetBytes,
      unreadable,
      notFound,
    },
  };
}

/**
 * Trace objects in memory (a library caller's, analysed with `analyze(traces)`), within the budget
 * as files are: each is matched to the report's summary of the same id, in order, for its file name
 * and priority. A trace the report does not name is ignored; one it names but not given is counted
 * as not found.
 */
export function collectTraceObjects(
  report: Pick<Report, 'traces' | 'signals' | 'review' | 'tests'>,
  traces: readonly Trace[],
  budgetBytes: number | null,
): CollectedTraces {
  const refs = traceRefsOfReport({ ...report, tests: undefined });
  const unused = new Map<string, number[]>();
  refs.forEach((ref, i) => unused.set(ref.id, [...(unused.get(ref.id) ?? []), i]));
  const budget = createBudget(budgetBytes);
  for (const trace of traces) {
    const i = unused.get(trace.id)?.shift();
    if (i === undefined) continue;
    const json = scriptJson(trace);
    budget.offer(i, { ref: refs[i]!, json, bytes: Buffer.byteLength(json) });
  }
  const kept = [...budget.kept.entries()].sort(([a], [b]) => a - b).map(([, t]) => t);
  const leftOut = refs.filter((_, i) => !budget.kept.has(i));
  return {
    traces: kept,
    leftOut: {
      traces: leftOut.length,
      withFindings: leftOut.filter((r) => r.priority === 0).length,
      overBudget: budget.overBudget,
      budgetBytes,
      unreadable: [],
      notFound: leftOut.length - budget.overBudget,
    },
  };
}
