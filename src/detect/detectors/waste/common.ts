/**
 * Shared pieces of the waste detectors: the trace's LLM calls with their times, prompt identity,
 * the cost of a call (recorded, else priced), and message formatting.
 *
 * Missing timestamps ("reasonable defaults", per the reference): a call without `startedAt` is
 * taken to start when the call before it did (leading calls without one take the first known
 * time), so a missing time never breaks a pattern on its own and a trace with no times at all is
 * judged on prompts, models and order alone. Messages then say the timing is unknown.
 */
import { z } from 'zod';
import type { Pricer } from '../../../pricing/pricer.js';
import { ERROR_QUOTE, redactAndCut } from '../../../redact/safeText.js';
import { parseIsoMs } from '../../../trace/measure.js';
import type { LlmStep, Trace } from '../../../trace/schema.js';
import type { Severity } from '../../signal.js';

export interface LlmCall {
  step: LlmStep;
  /** 1-based index into trace.steps. */
  n: number;
  /** Effective start time in ms (see the module comment). */
  t: number;
  /** False when the step had no usable startedAt. */
  timed: boolean;
}

// Four waste detectors walk the same calls and compare the same prompts; traces are immutable
// while detectors run, and the runner takes one trace at a time, so the calls of the last trace
// (and the prompt keys of its steps) are derived once and shared. Not WeakMaps: their entries keep
// every trace alive through young-generation collections, which promotes them all to the old
// generation and doubles peak memory. The step count guards against a trace extended in between.
let lastTrace: Trace | undefined;
let lastSteps = 0;
let lastCalls: LlmCall[] = [];
/** Prompt keys of recent steps; emptied when a new trace comes in, and bounded. */
const promptKeyCache = new Map<LlmStep, string | undefined>();
const MAX_PROMPT_KEYS = 10_000;

export function llmCalls(trace: Trace): LlmCall[] {
  if (trace === lastTrace && trace.steps.length === lastSteps) return lastCalls;
  if (trace !== lastTrace && promptKeyCache.size > 0) promptKeyCache.clear();
  lastCalls = computeLlmCalls(trace);
  lastTrace = trace;
  lastSteps = trace.steps.length;
  return lastCalls;
}

function computeLlmCalls(trace: Trace): LlmCall[] {
  const out: LlmCall[] = [];
  let firstKnown: number | undefined;
  const steps = trace.steps;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    if (step.type !== 'llm') continue;
    const parsed = step.startedAt ? parseIsoMs(step.startedAt) : NaN;
    const timed = Number.isFinite(parsed);
    if (timed && firstKnown === undefined) firstKnown = parsed;
    out.push({ step, n: i + 1, t: parsed, timed });
  }
  // Untimed calls start when the call before them did (leading ones at the first known time).
  let prev = firstKnown ?? 0;
  for (const c of out) {
    if (c.timed) prev = c.t;
    else c.t = prev;
  }
  return out;
}

function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) =>
        typeof part === 'string'
          ? part
          : part && typeof part === 'object' && 'text' in part && typeof part.text === 'string'
            ? part.text
            : '',
      )
      .join('');
  }
  return content === undefined || content === null ? '' : JSON.stringify(content);
}

/** The prompt as text: a string prompt as is, chat messages' contents joined by newlines. */
export function promptText(step: LlmStep): string | undefined {
  if (step.input === undefined) return undefined;
  if (typeof step.input === 'string') return step.input;
  return step.input.map((m) => messageText(m.content)).join('\n');
}

/**
 * Identity of a prompt for "same prompt" comparisons: a string prompt trimmed; chat messages by
 * role, name, content and tool calls. Undefined when the step records no prompt (such calls are
 * never "the same" as another).
 */
export function promptKey(step: LlmStep): string | undefined {
  if (promptKeyCache.has(step)) return promptKeyCache.get(step);
  const key = computePromptKey(step);
  if (promptKeyCache.size >= MAX_PROMPT_KEYS) promptKeyCache.clear();
  promptKeyCache.set(step, key);
  return key;
}

/**
 * A cheap summary of a prompt, equal whenever the prompt keys are equal (so different shapes mean
 * different prompts): the trimmed length of a string prompt, or the number of messages and their
 * trimmed text lengths. Undefined exactly when the prompt key is. Comparing shapes first spares
 * building (and keeping) the full keys of prompts that cannot match.
 */
export function promptShape(step: LlmStep): number | undefined {
  const input = step.input;
  if (input === undefined) return undefined;
  if (typeof input === 'string') return -1 - input.trim().length;
  let shape = input.length;
  for (const m of input) {
    const text = typeof m.content === 'string' ? m.content : messageText(m.content);
    shape = (Math.imul(shape, 31) + text.trim().length) | 0;
  }
  return shape;
}

/** Same prompt key (and a recorded prompt), checking the cheap shape first. */
export function samePrompt(a: LlmStep, b: LlmStep): boolean {
  const shape = promptShape(a);
  if (shape === undefined || shape !== promptShape(b)) return false;
  const key = promptKey(a);
  return key !== undefined && key === promptKey(b);
}

function computePromptKey(step: LlmStep): string | undefined {
  if (step.input === undefined) return undefined;
  if (typeof step.input === 'string') return `s:${step.input.trim()}`;
  return `m:${JSON.stringify(
    step.input.map((m) => [m.role, m.name ?? null, messageText(m.content).trim(), m.toolCalls ?? null]),
  )}`;
}

export interface CallCost {
  usd: number;
  source: 'recorded' | 'priced' | 'unpriced';
}

/** The call's recorded cost when present, else tokens × price; 0 (unpriced) when neither is known. */
export function callCost(step: LlmStep, pricer: Pricer): CallCost {
  if (step.costUsd !== undefined) return { usd: step.costUsd, source: 'recorded' };
  const priced = pricer.quote(step.model, step.usage, step.provider);
  return priced ? { usd: priced.usd, source: 'priced' } : { usd: 0, source: 'unpriced' };
}

export function callTokens(step: LlmStep): number {
  return step.usage.inputTokens + step.usage.outputTokens;
}

export interface WasteSum {
  usd: number;
  tokens: number;
  /** How the cost of the counted calls was known, e.g. { recorded: 2, priced: 1 }. */
  costSources: Partial<Record<CallCost['source'], number>>;
}

export function sumWaste(calls: readonly LlmCall[], pricer: Pricer): WasteSum {
  const sum: WasteSum = { usd: 0, tokens: 0, costSources: {} };
  for (const c of calls) addCall(sum, c.step, pricer);
  return sum;
}

/** The waste of the trace's LLM steps with these numbers (from 1); a number that is not an LLM step adds nothing. */
export function sumStepsWaste(trace: Trace, steps: readonly number[], pricer: Pricer): WasteSum {
  const sum: WasteSum = { usd: 0, tokens: 0, costSources: {} };
  for (const n of steps) {
    const step = trace.steps[n - 1];
    if (step?.type === 'llm') addCall(sum, step, pricer);
  }
  return sum;
}

function addCall(sum: WasteSum, step: LlmStep, pricer: Pricer): void {
  const cost = callCost(step, pricer);
  sum.usd += cost.usd;
  sum.tokens += callTokens(step);
  sum.costSources[cost.source] = (sum.costSources[cost.source] ?? 0) + 1;
}

/** A call that did not fail outright: no error and no error finish reason. */
export function callFailed(step: LlmStep): boolean {
  return Boolean(step.error) || step.finishReason === 'error';
}

/** The answer as text (tool calls left out), or undefined when no output was recorded. */
export function outputText(step: LlmStep): string | undefined {
  const out = step.output;
  if (out === undefined) return undefined;
  return typeof out === 'string' ? out : messageText(out.content);
}

export function hasOutput(step: LlmStep): boolean {
  if (step.usage.outputTokens > 0) return true;
  const out = step.output;
  if (out === undefined) return false;
  if (typeof out === 'string') return out.trim() !== '';
  return messageText(out.content).trim() !== '' || (out.toolCalls?.length ?? 0) > 0;
}

/** A prompt quoted in evidence: its first 120 characters (redacted before the cut), then "…". */
export function clipPrompt(prompt: string): string {
  return redactAndCut(prompt, ERROR_QUOTE);
}

/** "$0.0045", "$0.000162", "$1.23". */
export function fmtUsd(usd: number): string {
  usd = roundUsd(usd);
  if (usd === 0) return '$0';
  if (Math.abs(usd) >= 1) return `$${usd.toFixed(2)}`;
  return `$${Number(usd.toPrecision(3)).toString()}`;
}

/** "3 s", "2.5 min", or "unknown time" when any call of the group was untimed. */
export function fmtSpan(calls: readonly LlmCall[]): string {
  if (calls.some((c) => !c.timed)) return 'unknown time';
  const ms = Math.abs(calls[calls.length - 1]!.t - calls[0]!.t);
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(1))} s`;
  return `${Number((ms / 60_000).toFixed(1))} min`;
}

/** "steps 1–4" for a contiguous run, "steps 2, 5, 7" otherwise, "step 3" for one. */
export function fmtSteps(steps: readonly number[]): string {
  if (steps.length === 1) return `step ${steps[0]}`;
  const contiguous = steps.every((s, i) => i === 0 || s === steps[i - 1]! + 1);
  return contiguous ? `steps ${steps[0]}–${steps[steps.length - 1]}` : `steps ${steps.join(', ')}`;
}

/** `high` when the waste exceeds the configured amount (the reference's `> 0.01`), else `base`. */
export function wasteSeverity(wasteUsd: number, highWasteUsd: number, base: Severity = 'medium'): Severity {
  return wasteUsd > highWasteUsd ? 'high' : base;
}

/** Rounds away float noise (1e-12 USD) without touching real fractions of a cent. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e12) / 1e12;
}

/** The waste above which a finding is high severity: one setting, shared by the four detectors. */
export const highSeverityWasteUsd = (defaultUsd: number) =>
  z.number().nonnegative().default(defaultUsd).describe('Waste above which it is high severity');

/** The call count at which a retry loop or storm is high severity. */
export const highSeverityCalls = (what: string) =>
  z.number().int().min(2).default(6).describe(`Calls in the ${what} that make it high severity`);

/** A loop or storm is high severity by its length or by its waste, whichever says so first. */
export function runSeverity(
  calls: number,
  wasteUsd: number,
  cfg: { high_severity_calls: number; high_severity_waste_usd: number },
): Severity {
  return calls >= cfg.high_severity_calls ? 'high' : wasteSeverity(wasteUsd, cfg.high_severity_waste_usd);
}
