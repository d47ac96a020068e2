/**
 * Which findings are new in head, which were resolved (in base, gone from head), and which
 * persist. A finding is keyed by
 * - `test + detector` when it belongs to a Vitest test (its trace ids change from run to run);
 * - `task + detector` (plus the subject below) when its trace names the task it attempted
 *   (traces[].task): two runs of one task, in different files or under different ids, are the
 *   same place for a finding to be new or resolved;
 * - otherwise `file + traceId + detector`, plus the tool or model its evidence names
 *   (`evidence.tool`, `.model`, `.firstModel`, `.cheapModel`), so a retry loop on another model
 *   of the same trace is a different finding.
 * Findings with one key pair up in order (by first step), so a detector that fires twice in a
 * trace in base and three times in head gives two persisting and one new.
 *
 * What cannot be matched: a trace whose id changed (renamed, or ids generated per run outside a
 * test) or that moved to another file shows as its findings resolved and the same findings new;
 * so does a test that was renamed. Only findings (status `finding`) are matched: a signal that
 * moved into the gray zone or into shadow mode reads as resolved.
 */
import { z } from 'zod';
import { SeveritySchema } from '../detect/signal.js';
import type { Report, ReportSignal } from '../report/schema.js';
import type { TraceLineOf } from '../report/traceLines.js';

export const DiffSignalSchema = z.object({
  detector: z.string(),
  severity: SeveritySchema,
  traceId: z.string(),
  file: z.string().optional(),
  /** The line of `file` its trace starts on (in its own report: base for resolved, head for new). */
  line: z.number().int().positive().optional(),
  test: z.string().optional(),
  /** The tool or model the signal's evidence names, part of its key. */
  subject: z.string().optional(),
  steps: z.array(z.number().int().positive()),
  message: z.string(),
  wasteUsd: z.number().nonnegative().optional(),
});
export type DiffSignal = z.infer<typeof DiffSignalSchema>;

export interface SignalMatch {
  new: DiffSignal[];
  resolved: DiffSignal[];
  persisting: number;
}

const SUBJECT_KEYS = ['tool', 'model', 'firstModel', 'cheapModel'] as const;

/** The tool or model a signal is about, when its evidence names one. */
export function subjectOf(s: Pick<ReportSignal, 'evidence'>): string | undefined {
  for (const k of SUBJECT_KEYS) {
    const v = s.evidence?.[k];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

/** The task a signal's trace attempted (traces[].task), when its report says. */
export type TaskOf = (s: Pick<ReportSignal, 'file' | 'traceId' | 'test'>) => string | undefined;

/** A report's TaskOf: by file + trace id (+ test), as the report keys its traces. */
export function taskLookup(report: Pick<Report, 'traces'>): TaskOf {
  const tasks = new Map<string, string>();
  for (const t of report.traces)
    if (t.task !== undefined) tasks.set(`${t.file}\u0000${t.id}\u0000${t.test ?? ''}`, t.task);
  return (s) => tasks.get(`${s.file ?? ''}\u0000${s.traceId}\u0000${s.test ?? ''}`);
}

function matchKey(s: ReportSignal, taskOf: TaskOf = () => undefined): string {
  if (s.test !== undefined) return ['test', s.test, s.detector].join('\u0000');
  const task = taskOf(s);
  if (task !== undefined) return ['task', task, s.detector, subjectOf(s) ?? ''].join('\u0000');
  return ['trace', s.file ?? '', s.traceId, s.detector, subjectOf(s) ?? ''].join('\u0000');
}

function compact(s: ReportSignal, lineOf: TraceLineOf): DiffSignal {
  const subject = subjectOf(s);
  const line = lineOf(s.file, s.traceId);
  return {
    detector: s.detector,
    severity: s.severity,
    traceId: s.traceId,
    ...(s.file !== undefined ? { file: s.file } : {}),
    ...(line !== undefined ? { line } : {}),
    ...(s.test !== undefined ? { test: s.test } : {}),
    ...(subject !== undefined ? { subject } : {}),
    steps: s.steps,
    message: s.message,
    ...(s.wasteUsd !== undefined ? { wasteUsd: s.wasteUsd } : {}),
  };
}

const firstStep = (s: ReportSignal) => s.steps[0] ?? 0;

function groupFindings(signals: readonly ReportSignal[], taskOf?: TaskOf): Map<string, ReportSignal[]> {
  const groups = new Map<string, ReportSignal[]>();
  for (const s of signals) {
    if (s.status !== 'finding') continue;
    const k = matchKey(s, taskOf);
    const g = groups.get(k);
    if (g) g.push(s);
    else groups.set(k, [s]);
  }
  // A stable order inside a group, so the pairing (and which one is "new") is the same each run.
  for (const g of groups.values())
    g.sort(
      (a, b) => firstStep(a) - firstStep(b) || cmp(a.file ?? '', b.file ?? '') || cmp(a.traceId, b.traceId),
    );
  return groups;
}

const noLine: TraceLineOf = () => undefined;
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export interface MatchContext {
  /** Where each side's traces start (traceLines), so a finding can name its line. */
  base?: TraceLineOf;
  head?: TraceLineOf;
  /** The task of each side's traces (taskLookup), so runs of one task match across ids and files. */
  baseTask?: TaskOf;
  headTask?: TaskOf;
}

export function matchSignals(
  base: readonly ReportSignal[],
  head: readonly ReportSignal[],
  lines: MatchContext = {},
): SignalMatch {
  const b = groupFindings(base, lines.baseTask);
  const h = groupFindings(head, lines.headTask);
  const baseLine = lines.base ?? noLine;
  const headLine = lines.head ?? noLine;
  const out: SignalMatch = { new: [], resolved: [], persisting: 0 };
  for (const [k, hs] of h) {
    const bs = b.get(k) ?? [];
    out.persisting += Math.min(bs.length, hs.length);
    for (const s of hs.slice(bs.length)) out.new.push(compact(s, headLine));
  }
  for (const [k, bs] of b) {
    const hs = h.get(k) ?? [];
    for (const s of bs.slice(hs.length)) out.resolved.push(compact(s, baseLine));
  }
  return out;
}

/**
 * Head's side of each persisting pair, paired as matchSignals pairs them (the HTML diff lists them;
 * the diff itself only counts them).
 */
export function persistingFindings(
  base: Pick<Report, 'signals' | 'traces'>,
  head: Pick<Report, 'signals' | 'traces'>,
  headLine: TraceLineOf = noLine,
): DiffSignal[] {
  const b = groupFindings(base.signals, taskLookup(base));
  const out: DiffSignal[] = [];
  for (const [k, hs] of groupFindings(head.signals, taskLookup(head))) {
    const bs = b.get(k) ?? [];
    for (const s of hs.slice(0, bs.length)) out.push(compact(s, headLine));
  }
  return out;
}
