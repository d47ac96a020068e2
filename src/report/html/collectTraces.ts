/**
 * The traces an HTML page embeds, read again from the files the report names, within a size
 * budget. analyze() streams traces and holds none, so the page cannot be written from what the run
 * kept: the traces to show are known only once the report is (which have findings), and are then
 * re-read from their files, one file at a time, keeping at most `budgetBytes` of them.
 *
 * The budget goes to traces by priority (traceRefs.ts): one pass over the files for the traces with
 * findings or review items, then, while room is left, one for those with other signals, then one
 * for the rest. Memory stays bounded by the budget: a trace is kept as its embedded JSON (redacted
 * and escaped by scriptJson, the page's one path) only when it fits, and is measured before it is
 * serialised, so the many traces of a large input that cannot get in cost a read, not a copy.
 * What was left out, and why, is counted for the page to say.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { scriptJson } from '../../redact/html.js';
import type { Pricer } from '../../pricing/pricer.js';
import type { InputFormat } from '../../trace/importer.js';
import { streamTraces } from '../../trace/load.js';
import type { Trace } from '../../trace/schema.js';
import { fsErrorReason } from '../../util/fsError.js';
import { realPathInsideSync } from '../../util/realPath.js';
import { traceRefKey, traceRefsOfReport, type TracePriority, type TraceRef } from './traceRefs.js';
import type { Report } from '../schema.js';
import type { TracesLeftOut } from './pageData.js';

/** The default budget of embedded trace JSON: a page a browser opens in a second or two. */
export const DEFAULT_HTML_TRACES_MB = 25;
export const MB = 1024 * 1024;

/** The budget an option gives, in bytes: unset is the default budget, null is every trace. */
export const budgetBytesOrDefault = (budgetBytes: number | null | undefined): number | null =>
  budgetBytes === undefined ? DEFAULT_HTML_TRACES_MB * MB : budgetBytes;

export interface CollectTracesOptions {
  /** The directory the report's file names are relative to. */
  cwd: string;
  /** Bytes of embedded trace JSON at most; null for every trace the report names. */
  budgetBytes: number | null;
  /**
   * Read only files whose real path is inside this directory (followed through every link, the
   * directory's own too: util/realPath.ts): a report made elsewhere (a fork's, a downloaded one, a
   * shard's) must not make tracejury read files outside the workspace, by a `../` or by a link.
   * Unset: any file the report names.
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

const PRIORITIES: readonly TracePriority[] = [0, 1, 2];

/** Why a file the report names is not read again, or undefined when it can be. */
function unreadableReason(file: string, options: CollectTracesOptions): string | undefined {
  if (file.startsWith('<'))
    return `${file} is not a file: traces read from stdin or given as objects are not kept; write them to a file to see their timelines`;
  const resolved = path.resolve(options.cwd, file);
  try {
    if (options.within !== undefined && !realPathInsideSync(resolved, options.within).inside)
      return `outside ${options.within}: not read`;
    if (!statSync(resolved).isFile()) return 'not a file';
  } catch (err) {
    return fsErrorReason(err);
  }
  return undefined;
}

/**
 * About how many characters `JSON.stringify(value)` would write, counted without writing it: a
 * trace's strings are most of its JSON, and building the string of every trace of a large input
 * only to measure it would fill the heap with garbage (each is tens of kilobytes).
 */
export function jsonLength(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value === 'number') return 8;
  if (typeof value === 'boolean') return 5;
  if (typeof value !== 'object' || value === null) return 4;
  let n = 2;
  if (Array.isArray(value)) {
    for (const v of value) n += jsonLength(v) + 1;
    return n;
  }
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) n += key.length + 4 + jsonLength(v);
  }
  return n;
}

/** The traces taken so far, while they fit. */
function createBudget(budgetBytes: number | null) {
  const kept = new Map<number, TraceJson>();
  let used = 0;
  let overBudget = 0;
  /** The smallest trace read so far (by jsonLength): once less room is left, the budget is spent. */
  let smallest = Infinity;
  const room = () => (budgetBytes === null ? Infinity : budgetBytes - used);
  return {
    kept,
    get overBudget() {
      return overBudget;
    },
    /** Counts a trace left out unread, the budget being spent. */
    leaveOut(n = 1): void {
      overBudget += n;
    },
    /** Notes the size of a trace read, taken or not; returns it. */
    measure(trace: unknown): number {
      const length = jsonLength(trace);
      smallest = Math.min(smallest, length);
      return length;
    },
    /** No trace as small as the smallest read so far fits any more (a smaller one is left out too). */
    spent: () => room() <= 0 || (smallest !== Infinity && room() < smallest * 0.9),
    /**
     * Takes the trace when it fits. It is measured before it is serialised: near a full budget most
     * traces read do not fit, and serialising (redacting) one costs several times reading it.
     * Escapes and redaction move the size a little either way; a tenth of slack covers it.
     */
    take(index: number, ref: TraceRef, trace: unknown, length: number): void {
      if (length * 0.9 > room()) {
        overBudget++;
        return;
      }
      const json = scriptJson(trace);
      const bytes = Buffer.byteLength(json);
      if (bytes > room()) {
        overBudget++;
        return;
      }
      kept.set(index, { ref, json, bytes });
      used += bytes;
    },
  };
}

/** The traces kept in the report's order, and the account of those left out. */
function collected(
  refs: readonly TraceRef[],
  indices: readonly number[],
  budget: ReturnType<typeof createBudget>,
  budgetBytes: number | null,
  unreadable: TracesLeftOut['unreadable'],
  notFound: number,
): CollectedTraces {
  const leftOut = indices.filter((i) => !budget.kept.has(i));
  return {
    traces: [...budget.kept.entries()].sort(([a], [b]) => a - b).map(([, t]) => t),
    leftOut: {
      traces: leftOut.length,
      withFindings: leftOut.filter((i) => refs[i]!.priority === 0).length,
      overBudget: budget.overBudget,
      budgetBytes,
      unreadable,
      notFound,
    },
  };
}

export async function collectTraces(
  refs: readonly TraceRef[],
  options: CollectTracesOptions,
): Promise<CollectedTraces> {
  const budget = createBudget(options.budgetBytes);
  const indexOf = new Map<string, number>();
  refs.forEach((ref, i) => {
    const key = traceRefKey(ref);
    if (!indexOf.has(key)) indexOf.set(key, i);
  });
  const indices = [...indexOf.values()];

  const reasons = new Map<string, string | undefined>();
  const unreadable: TracesLeftOut['unreadable'] = [];
  for (const i of indices) {
    const file = refs[i]!.file;
    if (!reasons.has(file)) reasons.set(file, unreadableReason(file, options));
    const reason = reasons.get(file);
    if (reason === undefined) continue;
    const known = unreadable.find((u) => u.file === file);
    if (known) known.traces++;
    else unreadable.push({ file, reason, traces: 1 });
  }

  let notFound = 0;
  for (const priority of PRIORITIES) {
    // This pass's traces, by file in the report's order.
    const byFile = new Map<string, Set<number>>();
    for (const i of indices) {
      const ref = refs[i]!;
      if (ref.priority !== priority || reasons.get(ref.file) !== undefined) continue;
      const set = byFile.get(ref.file);
      if (set) set.add(i);
      else byFile.set(ref.file, new Set([i]));
    }
    for (const [file, wanted] of byFile) {
      if (budget.spent()) {
        budget.leaveOut(wanted.size);
        continue;
      }
      const { traces } = streamTraces([file], {
        cwd: options.cwd,
        maxErrors: 0,
        ...(options.inputFormat ? { inputFormat: options.inputFormat } : {}),
        ...(options.agent !== undefined ? { agent: options.agent } : {}),
        ...(options.pricer ? { pricer: options.pricer } : {}),
      });
      for await (const { trace, source } of traces) {
        const length = budget.measure(trace);
        const i = indexOf.get(traceRefKey({ id: trace.id, file: source.file, line: source.line }));
        if (i === undefined || !wanted.delete(i)) continue;
        budget.take(i, refs[i]!, trace, length);
        if (wanted.size === 0 || budget.spent()) break;
      }
      // Read to its end, the file no longer holds these (it changed since the run); else the budget
      // was spent before they were reached.
      if (budget.spent()) budget.leaveOut(wanted.size);
      else notFound += wanted.size;
    }
  }
  return collected(refs, indices, budget, options.budgetBytes, unreadable, notFound);
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
  const given = new Map<number, Trace>();
  for (const trace of traces) {
    const i = unused.get(trace.id)?.shift();
    if (i !== undefined) given.set(i, trace);
  }
  const budget = createBudget(budgetBytes);
  const lengths = new Map([...given].map(([i, trace]) => [i, budget.measure(trace)]));
  for (const priority of PRIORITIES)
    for (const [i, trace] of [...given].sort(([a], [b]) => a - b)) {
      if (refs[i]!.priority !== priority) continue;
      if (budget.spent()) budget.leaveOut();
      else budget.take(i, refs[i]!, trace, lengths.get(i)!);
    }
  const indices = refs.map((_, i) => i);
  return collected(refs, indices, budget, budgetBytes, [], refs.length - given.size);
}
