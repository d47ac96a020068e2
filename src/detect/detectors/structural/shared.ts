/**
 * Small helpers the structural detectors share: how steps are named in messages, what counts as an
 * empty LLM output or an answer, provider spellings of finish reasons, and the adaptive-vs-static
 * choice of the six baseline detectors. Not a detector itself.
 */
import { z } from 'zod';
import type { BaselineSource, DetectContext } from '../../detector.js';
import type { LlmStep, Step, ToolStep, Trace } from '../../../trace/schema.js';
import { fmtInt, fmtThousands } from '../../../util/thousands.js';

export { fmtInt, fmtThousands, plural } from '../../../util/thousands.js';

/** 1-based step number of an index into trace.steps. */
export const stepNo = (index: number): number => index + 1;

/** "step 4" or "steps 3–9" (first to last of the given step numbers). */
export function stepSpan(steps: readonly number[]): string {
  if (steps.length === 0) return 'no steps';
  // A loop, not Math.min(...steps): spread arguments go on the call stack, and a long run's step
  // list (over ~120,000 numbers) overflows it.
  let first = steps[0]!;
  let last = first;
  for (let i = 1; i < steps.length; i++) {
    const n = steps[i]!;
    if (n < first) first = n;
    else if (n > last) last = n;
  }
  return first === last ? `step ${first}` : `steps ${first}–${last}`;
}

/**
 * "1 tool call", "12,500 tool calls". Detectors do not import report/summarise.ts (the renderers'
 * module); this is the same wording.
 */

/** "12,500 tokens". */
export const fmtTokens = (n: number): string => `${fmtInt(n)} tokens`;

/** A number with at most one decimal and thousands separators: 12.5, 50,000. */
export function fmtNum(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

/** A ratio or factor with at most one decimal: 3, 4.2. */
export function fmtX(n: number): string {
  let r = Number.isInteger(n) ? n : Number(n.toFixed(1));
  // 1.01× must not print as 1×: a second decimal when one would round to a whole number.
  if (r !== n && Number.isInteger(r)) r = Number(n.toFixed(2));
  return `${Number.isInteger(r) ? fmtThousands(r) : r < 1000 ? r : fmtNum(r)}×`;
}

export function fmtMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(1))} s`;
  return `${Number((ms / 60_000).toFixed(1))} min`;
}

/**
 * A duration shown beside the limit it broke: rounded as fmtMs, unless that would print the same
 * text as the limit ("took 15 s, limit 15 s"), in which case exact milliseconds.
 */
export function fmtMsBeside(ms: number, limit: number): string {
  return fmtMs(ms) === fmtMs(limit) ? `${fmtInt(ms)} ms` : fmtMs(ms);
}

/** JSON with sorted keys, so `{a,b}` and `{b,a}` compare equal; undefined args become "". */
export function stableJson(v: unknown): string {
  if (v === undefined) return '';
  return flatStableJson(v) ?? sortedJson(v);
}

/**
 * The common case of tool arguments, a plain object of primitive values whose keys are not
 * array indices, written directly: the same text as `sortedJson`, without the replacer's copies.
 * Undefined for anything else.
 */
function flatStableJson(v: unknown): string | undefined {
  if (v === null || typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype) return undefined;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  for (const k of keys) {
    // Index-like keys are ordered numerically by the object itself, not by the sort: leave them
    // (and nested values, undefined, functions…) to JSON.stringify.
    const c = k.charCodeAt(0);
    if (c >= 48 && c <= 57) return undefined;
    const value = o[k];
    const t = typeof value;
    if (value !== null && t !== 'string' && t !== 'number' && t !== 'boolean') return undefined;
  }
  if (keys.length > 1) keys.sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (i > 0) out += ',';
    out += `${JSON.stringify(k)}:${JSON.stringify(o[k])}`;
  }
  return `${out}}`;
}

function sortedJson(v: unknown): string {
  return JSON.stringify(v, (_k, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : value,
  );
}

/**
 * True when every value has the same stable JSON (and there is more than one). Unrecorded
 * (undefined) arguments are unknown, never "identical".
 */
export function allIdentical(values: readonly unknown[]): boolean {
  if (values.length < 2) return false;
  for (const v of values) if (v === undefined) return false;
  const first = stableJson(values[0]);
  for (let i = 1; i < values.length; i++) if (stableJson(values[i]) !== first) return false;
  return true;
}

/**
 * What TOOL_LOOP and TOOL_THRASHING say about one group of arguments, each argument's stable JSON
 * computed once: `identical` as allIdentical, `distinct` the number of different stable JSONs
 * (unrecorded arguments count as ""), `recorded` when every argument was recorded.
 */
export function argsSummary(values: readonly unknown[]): {
  identical: boolean;
  distinct: number;
  recorded: boolean;
} {
  const keys = values.map(stableJson);
  let recorded = true;
  for (const v of values) if (v === undefined) recorded = false;
  let identical = recorded && values.length >= 2;
  for (let i = 1; identical && i < keys.length; i++) if (keys[i] !== keys[0]) identical = false;
  let distinct = 0;
  if (keys.length > 16) distinct = new Set(keys).size;
  else {
    // Few arguments: count first occurrences without a Set.
    for (let i = 0; i < keys.length; i++) {
      let seen = false;
      for (let j = 0; j < i && !seen; j++) seen = keys[j] === keys[i];
      if (!seen) distinct++;
    }
  }
  return { identical, distinct, recorded };
}

/** A tool step with its 1-based step number. */
export interface ToolCall {
  step: ToolStep;
  no: number;
}

// The last trace's tool calls (one entry rather than a WeakMap: see measureTrace).
let lastTrace: Trace | undefined;
let lastSteps = 0;
let lastCalls: ToolCall[] = [];

/**
 * The trace's tool steps in order, derived once per trace and shared (read-only) by the detectors
 * that walk them.
 */
export function toolCalls(trace: Trace): readonly ToolCall[] {
  if (trace === lastTrace && trace.steps.length === lastSteps) return lastCalls;
  const calls: ToolCall[] = [];
  const steps = trace.steps;
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]!;
    if (s.type === 'tool') calls.push({ step: s, no: i + 1 });
  }
  lastTrace = trace;
  lastSteps = steps.length;
  lastCalls = calls;
  return calls;
}

/**
 * True when a content value carries no text and nothing else: undefined, null, whitespace, an empty
 * array, text parts that are all blank, or a chat message whose content is blank. Non-text parts
 * (images, audio, arbitrary JSON objects) are content, so they are not blank.
 */
export function isBlankContent(content: unknown): boolean {
  if (content === undefined || content === null) return true;
  if (typeof content === 'string') return content.trim() === '';
  if (Array.isArray(content)) return content.every(isBlankContent);
  if (typeof content === 'object') {
    const o = content as Record<string, unknown>;
    if (Array.isArray(o.toolCalls) && o.toolCalls.length > 0) return false;
    if (Array.isArray(o.tool_calls) && o.tool_calls.length > 0) return false;
    if ('role' in o && !('text' in o)) return isBlankContent(o.content);
    if (
      typeof o.text === 'string' &&
      (o.type === undefined || o.type === 'text' || o.type === 'output_text')
    ) {
      return o.text.trim() === '';
    }
    return false;
  }
  return false;
}

/** What an LLM step's output amounts to. `absent` means the trace did not record one. */
export type LlmOutputKind = 'absent' | 'empty' | 'toolCalls' | 'text';

export function llmOutputKind(step: LlmStep): LlmOutputKind {
  const out = step.output;
  if (out === undefined) return 'absent';
  if (typeof out === 'string') return out.trim() === '' ? 'empty' : 'text';
  if (out.toolCalls && out.toolCalls.length > 0) return 'toolCalls';
  return isBlankContent(out.content) ? 'empty' : 'text';
}

/** The LLM asked for tools (in a chat message output). */
export const requestsTools = (step: LlmStep): boolean => llmOutputKind(step) === 'toolCalls';

/**
 * The model produced nothing: a recorded output that is blank (and not tool calls), or no recorded
 * output while usage was recorded (prompt tokens > 0) and says zero completion tokens. A step whose
 * output was simply not captured (common with OTel content capture off) is not empty.
 */
export function isEmptyCompletion(step: LlmStep): boolean {
  const kind = llmOutputKind(step);
  if (kind === 'empty') return true;
  return kind === 'absent' && step.usage.inputTokens > 0 && step.usage.outputTokens === 0;
}

/** The trace ends with a non-blank output. */
export const hasTraceOutput = (trace: Trace): boolean => !isBlankContent(trace.output);

/**
 * A trace that ends without an output and with status error or running has no exit (DESIGN,
 * Contract details → Trace); any other trace has one.
 */
export const hasExit = (trace: Trace): boolean => trace.status === 'ok' || hasTraceOutput(trace);

const norm = (reason: string | undefined): string | undefined => reason?.trim().toLowerCase() || undefined;

/** Finish reasons meaning "cut off at the token limit", as providers spell them (compared lowercased). */
export const TRUNCATION_REASONS: ReadonlySet<string> = new Set([
  'length', // OpenAI chat, Mistral, vLLM
  'max_tokens', // Anthropic, Bedrock; Gemini/Vertex MAX_TOKENS
  'max_output_tokens', // OpenAI Responses incomplete_details.reason
  'model_length', // Mistral: context window exhausted
]);

/** Finish reasons meaning "the model chose to stop". */
export const STOP_REASONS: ReadonlySet<string> = new Set([
  'stop', // OpenAI, Gemini STOP
  'end_turn', // Anthropic, Bedrock
  'stop_sequence', // Anthropic
  'complete', // Cohere COMPLETE
  'completed', // OpenAI Responses status
]);

// Finish reasons are a handful of distinct strings, asked about for every LLM call: answers are
// remembered per string (up to a bound, for traces with free-form reasons).
const MAX_REASON_CACHE = 1024;
const truncationCache = new Map<string, boolean>();
const stopCache = new Map<string, boolean>();

function classifyReason(
  reason: string | undefined,
  set: ReadonlySet<string>,
  cache: Map<string, boolean>,
): boolean {
  if (reason === undefined) return false;
  let hit = cache.get(reason);
  if (hit === undefined) {
    hit = set.has(norm(reason) ?? '');
    if (cache.size < MAX_REASON_CACHE) cache.set(reason, hit);
  }
  return hit;
}

export const isTruncation = (reason: string | undefined): boolean =>
  classifyReason(reason, TRUNCATION_REASONS, truncationCache);
export const isStop = (reason: string | undefined): boolean =>
  classifyReason(reason, STOP_REASONS, stopCache);

/** A tool step, a retrieval, or an LLM output that requests tools: the agent acted on the world. */
export function isToolUse(step: Step): boolean {
  if (step.type === 'tool' || step.type === 'retrieval') return true;
  return step.type === 'llm' && requestsTools(step);
}

/** Config key every baseline detector takes. */
export const baselineMultiplier = (def: number) =>
  z
    .number()
    .positive()
    .default(def)
    .describe(
      'Fire above this multiple of the agent’s P75 baseline (inflation_factor overrides it per agent)',
    );

/** How a baseline detector decided: the adaptive P75 rule or the static fallback. */
export interface AdaptiveLimit {
  rule: 'baseline';
  p75: number;
  runs: number;
  /** Where the baseline's runs come from. */
  source: BaselineSource;
  multiplier: number;
  /** multiplier × p75: the value must exceed it. */
  limit: number;
}

/**
 * The adaptive limit when the runner gave a baseline (it does so only once enough runs exist), else
 * undefined and the detector uses its static fallback. A degenerate baseline (P75 ≤ 0 or not
 * finite) would make every run an outlier, so it is treated as absent.
 */
export function adaptiveLimit(
  ctx: DetectContext<unknown>,
  configMultiplier: number,
): AdaptiveLimit | undefined {
  const b = ctx.baseline;
  if (!b || !Number.isFinite(b.p75) || b.p75 <= 0) return undefined;
  const multiplier = ctx.inflationFactor ?? configMultiplier;
  return {
    rule: 'baseline',
    p75: b.p75,
    runs: b.runs,
    source: b.source ?? 'store',
    multiplier,
    limit: multiplier * b.p75,
  };
}

const BASELINE_OF: Record<BaselineSource, string> = {
  store: 'runs',
  'base-report': "good runs in the base branch's report",
  input: 'good runs in this input',
};

/**
 * "P75 baseline of 35 runs: 2× 4 s = 8 s" (the store), "P75 baseline of 38 good runs in this
 * input: …", with the unit formatter of the metric.
 */
export function describeAdaptive(a: AdaptiveLimit, fmt: (n: number) => string): string {
  return `P75 baseline of ${a.runs} ${BASELINE_OF[a.source]}: ${fmtX(a.multiplier)} ${fmt(a.p75)} = ${fmt(a.limit)}`;
}

/** Evidence fields common to baseline detectors. */
export function adaptiveEvidence(a: AdaptiveLimit): Record<string, unknown> {
  return {
    rule: 'baseline',
    p75: a.p75,
    runs: a.runs,
    baselineSource: a.source,
    multiplier: a.multiplier,
    limit: a.limit,
  };
}

/**
 * Confidence of a threshold rule: `base` when the value is just over its limit, `strong` once it is
 * at least twice the limit. Baseline rules start higher than static fallbacks, which know nothing of
 * this agent's normal runs.
 */
export function thresholdConfidence(ratioToLimit: number, base: number, strong = 0.92): number {
  return ratioToLimit >= 2 ? strong : base;
}

export const CONFIDENCE = {
  /** Baseline rule, just over the limit. */
  baseline: 0.86,
  /** Static fallback, just over the limit. */
  static: 0.8,
} as const;
