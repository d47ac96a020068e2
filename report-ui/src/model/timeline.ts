/**
 * A trace's steps laid out as a waterfall: one row per step, a bar on a shared axis from its start
 * and duration. Steps without a start follow the step before them (in order where times are
 * missing); without any start, the axis is the steps' order. Tool calls one LLM response issued
 * together (`issuedBy`) are one batch: they share a start when none is recorded, so parallel calls
 * stand side by side. Each row carries the findings that name its step. In a multi-agent run each
 * row names its agent, one lane per agent; a failed run's root cause marks its step (and the step
 * it led to), and the findings that follow from it point back at it.
 */
import type { Step, StepMarker, Trace, TraceSummary } from './page.js';
import { formatMs, oneLine } from './format.js';

export type StepKind = Step['type'];

export interface TimelineRow {
  /** Step number, from 1, as findings name steps. */
  n: number;
  kind: StepKind;
  label: string;
  /** Tokens, a tool's status, a result count: the short facts beside the label. */
  detail: string;
  failed: boolean;
  /** Position and length on the axis, as fractions of it. */
  left: number;
  width: number;
  /** From the trace's start, when the recording has the step's start. */
  startMs?: number | undefined;
  durationMs?: number | undefined;
  /** The batch of parallel tool calls the step is part of (two or more calls of one response). */
  batch?: { issuedBy: number; size: number; position: number } | undefined;
  /** Under the LLM step that issued it. */
  indent: number;
  markers: StepMarker[];
  /** One of its markers is the detector the address highlights. */
  highlighted: boolean;
  /** The agent that owns the step and its lane, when two or more agents own steps. */
  agent?: { name: string; lane: number } | undefined;
  /** What failure attribution says of the step: the root cause, or the step it led to. */
  cause?: { role: 'root' | 'effect'; text: string } | undefined;
  /** A finding on this step follows from the root cause at that step. */
  followsFrom?: number | undefined;
}

export type RootCause = NonNullable<TraceSummary['rootCause']>;

export interface Timeline {
  rows: TimelineRow[];
  /** `time`: bars by recorded start and duration; `order`: by the steps' order alone. */
  mode: 'time' | 'order';
  spanMs: number;
  ticks: { x: number; label: string }[];
  /** The agents that own steps, in the order they first act: the lanes (empty for one agent or none). */
  agents: string[];
}

/** The shortest bar, as a fraction of the axis: a 0 ms step is still a mark to click. */
export const MIN_BAR = 0.006;

const parseTime = (s: string | undefined): number | undefined => {
  if (s === undefined) return undefined;
  const t = Date.parse(s);
  return Number.isFinite(t) ? t : undefined;
};

export function stepFailed(step: Step): boolean {
  if (step.type === 'llm') return step.error !== undefined;
  if (step.type === 'tool') return step.status === 'error' || step.error !== undefined;
  return false;
}

function labelOf(step: Step): { label: string; detail: string } {
  switch (step.type) {
    case 'llm': {
      const u = step.usage;
      const tokens = u ? `${u.inputTokens} → ${u.outputTokens} tokens` : '';
      return {
        // A span name that already holds the model (`chat gpt-4.1-mini`) is the label alone.
        label: !step.name
          ? step.model
          : step.name.includes(step.model)
            ? step.name
            : `${step.name} · ${step.model}`,
        detail: tokens,
      };
    }
    case 'tool':
      // A failed call says so with its own tag; an unknown outcome (no result recorded) is worth a word.
      return { label: step.name, detail: step.status === 'unknown' ? 'no result recorded' : '' };
    case 'retrieval':
      return {
        label: step.query !== undefined ? `retrieve “${oneLine(step.query, 60)}”` : 'retrieval',
        detail: `${step.results.length} result${step.results.length === 1 ? '' : 's'}`,
      };
    case 'state':
      return { label: `state of ${step.agentId}`, detail: `${Object.keys(step.state).length} keys` };
    case 'message':
      return { label: `${step.from} → ${step.to ?? 'all'}`, detail: '' };
  }
}

/** Tool calls with one `issuedBy`, two or more: a batch, by the issuing step's number. */
function batchesOf(steps: readonly Step[]): Map<number, number[]> {
  const byIssuer = new Map<number, number[]>();
  steps.forEach((s, i) => {
    if (s.type !== 'tool' || s.issuedBy === undefined) return;
    const list = byIssuer.get(s.issuedBy);
    if (list) list.push(i);
    else byIssuer.set(s.issuedBy, [i]);
  });
  for (const [k, list] of byIssuer) if (list.length < 2) byIssuer.delete(k);
  return byIssuer;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.floor(s.length / 2)]!;
};

/** "0", "500 ms", "20 s", "1 min", "1 min 20 s": an axis label, as short as it can be. */
export function tickLabel(ms: number): string {
  if (ms === 0) return '0';
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms >= 1000 && ms < 60_000 && ms % 1000 === 0) return `${ms / 1000} s`;
  return formatMs(ms);
}

/** Tick marks at a round step (1, 2 or 5 × 10ⁿ ms) that gives at most `max` of them. */
export function timeTicks(spanMs: number, max = 6): { x: number; label: string }[] {
  if (!(spanMs > 0)) return [];
  let step = 1;
  for (let p = 1; ; p *= 10) {
    const s = [1, 2, 5].map((m) => m * p).find((c) => spanMs / c <= max);
    if (s !== undefined) {
      step = s;
      break;
    }
  }
  const ticks: { x: number; label: string }[] = [];
  for (let t = 0; t <= spanMs + 1e-9; t += step) ticks.push({ x: t / spanMs, label: tickLabel(t) });
  return ticks;
}

/** The agent that owns a step: its own, else (a tool call) that of the LLM step that issued it. */
export function agentOf(steps: readonly Step[], i: number): string | undefined {
  const s = steps[i];
  if (!s || s.type === 'retrieval' || s.type === 'state') return undefined;
  if (s.agent !== undefined || s.type !== 'tool' || s.issuedBy === undefined) return s.agent;
  const issuer = steps[s.issuedBy - 1];
  return issuer && issuer.type === 'llm' ? issuer.agent : undefined;
}

/** The sentence of a root cause, as the row that is its step shows it. */
const causeText = (c: Extract<RootCause, { step: number }>) =>
  `root cause (${c.rule}, ${c.confidence.toFixed(2)}): ${c.evidence}`;

export function layoutTimeline(
  trace: Pick<Trace, 'steps'>,
  markers: readonly StepMarker[],
  highlight?: string,
  rootCause?: RootCause,
): Timeline {
  const steps = trace.steps;
  const starts = steps.map((s) => parseTime(s.startedAt));
  const batches = batchesOf(steps);
  const batchOf = new Map<number, { issuedBy: number; members: number[] }>();
  for (const [issuedBy, members] of batches) for (const i of members) batchOf.set(i, { issuedBy, members });

  const timed = starts.some((t) => t !== undefined);
  const durations = steps.map((s) => s.durationMs);
  const knownDurations = durations.filter((d): d is number => d !== undefined && d > 0);
  const haveDurations = knownDurations.length > 0;
  const mode: Timeline['mode'] = timed || haveDurations ? 'time' : 'order';
  // A step with no duration still takes room when the others are laid by duration.
  const nominal = haveDurations ? median(knownDurations) : 1;

  // The axis spans the steps, not the trace's own start and end: a run that idles for a minute after
  // its last step would squeeze every bar into the first pixels.
  const t0 = Math.min(...starts.filter((t): t is number => t !== undefined));
  const placed: { start: number; length: number }[] = [];
  let cursor = 0;
  steps.forEach((_, i) => {
    const batch = batchOf.get(i);
    const first = batch && batch.members[0] !== i ? placed[batch.members[0]!] : undefined;
    let start: number;
    if (starts[i] !== undefined) start = starts[i]! - t0;
    else if (first) start = first.start;
    else start = cursor;
    const length = mode === 'order' ? 1 : (durations[i] ?? (timed ? 0 : nominal));
    placed.push({ start, length });
    cursor = Math.max(cursor, start + length);
  });
  const spanMs = cursor || 1;

  const owners = steps.map((_, i) => agentOf(steps, i));
  const agents = [...new Set(owners.filter((a): a is string => a !== undefined))];
  const lanes = agents.length >= 2 ? new Map(agents.map((a, k) => [a, k])) : undefined;
  const cause = rootCause && 'step' in rootCause ? rootCause : undefined;
  const symptomSteps = new Set(cause?.symptoms.map((x) => x.step));

  const rows = steps.map((step, i): TimelineRow => {
    const n = i + 1;
    const { label, detail } = labelOf(step);
    const owner = owners[i];
    const lane = owner !== undefined ? lanes?.get(owner) : undefined;
    const own = markers.filter((m) => m.steps.includes(n));
    const batch = batchOf.get(i);
    const p = placed[i]!;
    const left = Math.min(p.start / spanMs, 1 - MIN_BAR);
    return {
      n,
      kind: step.type,
      label,
      detail,
      failed: stepFailed(step),
      left,
      width: Math.max(Math.min(p.length / spanMs, 1 - left), MIN_BAR),
      startMs: starts[i] !== undefined ? p.start : undefined,
      durationMs: step.durationMs,
      batch: batch
        ? { issuedBy: batch.issuedBy, size: batch.members.length, position: batch.members.indexOf(i) }
        : undefined,
      indent: step.type === 'tool' && step.issuedBy !== undefined ? 1 : 0,
      markers: own,
      highlighted: highlight !== undefined && own.some((m) => m.detector === highlight),
      agent: owner !== undefined && lane !== undefined ? { name: owner, lane } : undefined,
      cause:
        cause?.step === n
          ? { role: 'root', text: causeText(cause) }
          : cause?.effect?.step === n
            ? { role: 'effect', text: `caused by step ${cause.step}: ${cause.effect.evidence}` }
            : undefined,
      followsFrom: cause && cause.step !== n && symptomSteps.has(n) ? cause.step : undefined,
    };
  });
  return {
    rows,
    mode,
    spanMs: mode === 'time' ? spanMs : 0,
    ticks: mode === 'time' ? timeTicks(spanMs) : [],
    agents: lanes ? agents : [],
  };
}
