/**
 * Plain measurements of a trace that several stages need (report totals, baselines, detectors).
 * One place, so a "step count" or a "duration" means the same thing everywhere.
 */
import type { LlmStep, Step, ToolStep, Trace } from './schema.js';

export const isLlm = (s: Step): s is LlmStep => s.type === 'llm';
export const isTool = (s: Step): s is ToolStep => s.type === 'tool';

export function parseTime(iso: string | undefined): number | undefined {
  if (!iso) return undefined;
  const t = parseIsoMs(iso);
  return Number.isFinite(t) ? t : undefined;
}

/** Value of the two ASCII digits at `i`, or a negative number when either is not a digit. */
function twoDigits(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return (a | b | (9 - a) | (9 - b)) < 0 ? -1 : a * 10 + b;
}

/**
 * Days from 1970-01-01 to a proleptic Gregorian date (month 1–12), by whole-number arithmetic
 * (H. Hinnant's days_from_civil): what Date.UTC computes, without its range checks and time clip,
 * which made it most of the cost of reading a timestamp.
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/**
 * `Date.parse(s)`, with the common shape of trace timestamps (what toISOString writes:
 * `2026-11-01T10:00:00.000Z`, or without milliseconds) read directly, which is several times
 * faster. Anything else, and any field whose handling could differ (day 32, hour 24, years
 * before 1000), goes to Date.parse, except that a date-time without a zone is read as UTC. Days 29–31 are read directly in every month: Date.parse (V8)
 * carries a day the month lacks into the next month, as the day arithmetic below does.
 */
export function parseIsoMs(s: string): number {
  const len = s.length;
  if (
    (len === 24 || len === 20) &&
    s.charCodeAt(4) === 45 && // -
    s.charCodeAt(7) === 45 &&
    s.charCodeAt(10) === 84 && // T
    s.charCodeAt(13) === 58 && // :
    s.charCodeAt(16) === 58 &&
    s.charCodeAt(len - 1) === 90 && // Z
    (len === 20 || s.charCodeAt(19) === 46) // .
  ) {
    const century = twoDigits(s, 0);
    const yy = twoDigits(s, 2);
    const month = twoDigits(s, 5);
    const day = twoDigits(s, 8);
    const hour = twoDigits(s, 11);
    const minute = twoDigits(s, 14);
    const second = twoDigits(s, 17);
    let ms = 0;
    if (len === 24) {
      const c = s.charCodeAt(22) - 48;
      ms = (c | (9 - c)) < 0 ? -1 : twoDigits(s, 20) * 10 + c;
    }
    if (
      century >= 10 &&
      yy >= 0 &&
      month >= 1 &&
      month <= 12 &&
      day >= 1 &&
      day <= 31 &&
      hour >= 0 &&
      hour <= 23 &&
      minute >= 0 &&
      minute <= 59 &&
      second >= 0 &&
      second <= 59 &&
      ms >= 0
    ) {
      const days = daysFromCivil(century * 100 + yy, month, day);
      return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + ms;
    }
  }
  // A date-time without a zone is local time to Date.parse, so one trace would give other times
  // (and other findings) on another machine: traces are read as UTC unless they name a zone.
  if (ZONELESS.test(s)) return Date.parse(`${s}Z`);
  return Date.parse(s);
}

/** An ISO 8601 date-time (T or space) with no `Z` and no offset, as Python's isoformat() writes. */
const ZONELESS = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;

/** Wall-clock duration of the run: endedAt − startedAt, else the span covered by its steps. */
export function traceDurationMs(trace: Trace): number | undefined {
  const start = parseTime(trace.startedAt);
  const end = parseTime(trace.endedAt);
  if (start !== undefined && end !== undefined && end >= start) return end - start;
  let first: number | undefined;
  let last: number | undefined;
  for (const s of trace.steps) {
    const t = parseTime(s.startedAt);
    if (t === undefined) continue;
    const e = t + (s.durationMs ?? 0);
    if (first === undefined || t < first) first = t;
    if (last === undefined || e > last) last = e;
  }
  if (first === undefined || last === undefined) {
    const sum = trace.steps.reduce((acc, s) => acc + (s.durationMs ?? 0), 0);
    return sum > 0 ? sum : undefined;
  }
  return last - first;
}

export interface TraceMeasures {
  stepCount: number;
  llmCalls: number;
  toolCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** Largest prompt of any LLM call (context size). */
  maxPromptTokens: number;
  /**
   * LLM calls that do not directly answer new input: a call right after a message step (a user
   * turn in a chat, another agent's hand-off) is a conversational turn, not reasoning.
   */
  reasoningLlmCalls: number;
  /**
   * Reasoning LLM calls per tool call, tool count taken as max(1, n) so a run with no tools is not
   * infinite. Conversational turns are left out so a customer-service chat (assistant, user,
   * assistant, …) is not a reasoning stall.
   */
  llmToolRatio: number;
  /** Longest single step. */
  maxStepDurationMs: number | undefined;
  durationMs: number | undefined;
  costUsd: number;
}

// Report totals, baselines and several detectors measure the same trace, one trace after another;
// traces are not modified once loaded and priced. So the last trace measured is remembered (the
// step count guards against a caller that appends steps to a trace it already measured). One
// entry, not a WeakMap: entries of a WeakMap keep every trace alive through young-generation
// collections, which promotes them all to the old generation and doubles peak memory.
let lastTrace: Trace | undefined;
let lastSteps = 0;
let lastMeasures: TraceMeasures | undefined;

export function measureTrace(trace: Trace): TraceMeasures {
  if (lastMeasures !== undefined && trace === lastTrace && trace.steps.length === lastSteps)
    return lastMeasures;
  const m = computeMeasures(trace);
  lastTrace = trace;
  lastSteps = trace.steps.length;
  lastMeasures = m;
  return m;
}

function computeMeasures(trace: Trace): TraceMeasures {
  let llmCalls = 0;
  let toolCalls = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let maxPromptTokens = 0;
  let maxStep: number | undefined;
  let costUsd = 0;
  let reasoningLlmCalls = 0;
  let previous: Step['type'] | undefined;
  for (const s of trace.steps) {
    if (s.durationMs !== undefined && (maxStep === undefined || s.durationMs > maxStep))
      maxStep = s.durationMs;
    if (s.type === 'llm') {
      llmCalls++;
      if (previous !== 'message') reasoningLlmCalls++;
      inputTokens += s.usage.inputTokens;
      outputTokens += s.usage.outputTokens;
      if (s.usage.inputTokens > maxPromptTokens) maxPromptTokens = s.usage.inputTokens;
      costUsd += s.costUsd ?? 0;
    } else if (s.type === 'tool') {
      toolCalls++;
    }
    // State snapshots are bookkeeping, not input: they do not separate a call from what it answers.
    if (s.type !== 'state') previous = s.type;
  }
  return {
    stepCount: trace.steps.length,
    llmCalls,
    toolCalls,
    inputTokens,
    outputTokens,
    maxPromptTokens,
    reasoningLlmCalls,
    llmToolRatio: reasoningLlmCalls / Math.max(1, toolCalls),
    maxStepDurationMs: maxStep,
    durationMs: traceDurationMs(trace),
    costUsd,
  };
}
