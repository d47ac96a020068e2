/**
 * The LLM calls a structural loop charges for its redundant tool calls: the calls that issued them.
 *
 * A tool step's issuer is its `issuedBy` (the llm step whose response asked for it), else — a
 * recording that does not link them, or a link to a step that is not an LLM call — the nearest LLM
 * step before it. A tool step with neither is issued by no call, and charges nothing.
 *
 * An LLM call that issued a batch of parallel calls of which only some were redundant is not
 * charged (and is listed as partly redundant): the call had to be made for its other calls anyway,
 * so skipping the redundant ones would not have saved it, only a few output tokens of it; charging
 * a share of it would charge input tokens that were needed. A call is charged when every tool call
 * it issued is redundant. This keeps the waste figure to dollars that could certainly have been
 * saved, and keeps charges at the level of whole calls, so that "charged once" holds call by call.
 *
 * Worked out only for signals that fire: the issuers of the last trace asked about are kept (one
 * entry, as toolCalls in shared.ts), since several loop detectors may ask about the same trace.
 */
import type { Trace } from '../../../trace/schema.js';

interface Issuers {
  /** Per step index: the step number of the tool step's issuer, 0 for none (other steps: 0). */
  issuerOf: Int32Array;
  /** Per issuer step number: how many tool steps it issued. */
  issued: Map<number, number>;
}

let lastTrace: Trace | undefined;
let lastSteps = 0;
let lastIssuers: Issuers | undefined;

function issuersOf(trace: Trace): Issuers {
  if (trace === lastTrace && trace.steps.length === lastSteps && lastIssuers) return lastIssuers;
  const steps = trace.steps;
  const issuerOf = new Int32Array(steps.length);
  const issued = new Map<number, number>();
  let lastLlm = 0;
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]!;
    if (s.type === 'llm') {
      lastLlm = i + 1;
      continue;
    }
    if (s.type !== 'tool') continue;
    const linked = s.issuedBy;
    const issuer = linked !== undefined && steps[linked - 1]?.type === 'llm' ? linked : lastLlm;
    if (issuer === 0) continue;
    issuerOf[i] = issuer;
    issued.set(issuer, (issued.get(issuer) ?? 0) + 1);
  }
  lastTrace = trace;
  lastSteps = steps.length;
  lastIssuers = { issuerOf, issued };
  return lastIssuers;
}

export interface IssuingCalls {
  /** The LLM steps (numbers from 1, ascending) every tool call of which is among the redundant ones. */
  charged: number[];
  /** The LLM steps that issued some of the redundant calls beside calls that were not: not charged. */
  partly: number[];
}

/** The LLM calls that issued the redundant tool calls (step numbers from 1), by the module's rule. */
export function issuingCalls(trace: Trace, redundantToolSteps: Iterable<number>): IssuingCalls {
  const { issuerOf, issued } = issuersOf(trace);
  const redundantOf = new Map<number, number>();
  const seen = new Set<number>();
  for (const n of redundantToolSteps) {
    if (seen.has(n)) continue;
    seen.add(n);
    const issuer = issuerOf[n - 1] ?? 0;
    if (issuer > 0) redundantOf.set(issuer, (redundantOf.get(issuer) ?? 0) + 1);
  }
  const charged: number[] = [];
  const partly: number[] = [];
  for (const [issuer, count] of redundantOf) (count === issued.get(issuer) ? charged : partly).push(issuer);
  charged.sort((a, b) => a - b);
  partly.sort((a, b) => a - b);
  return { charged, partly };
}

/** The LLM calls issued no tool call at all, among `llmSteps` (numbers from 1). */
export function issuedNoToolCall(trace: Trace, llmSteps: readonly number[]): number[] {
  const { issued } = issuersOf(trace);
  return llmSteps.filter((n) => !issued.has(n));
}

/** Evidence of a loop's charge, as the detectors write it: the calls charged, and those partly redundant. */
export function chargeEvidence(calls: IssuingCalls): Record<string, unknown> {
  return {
    wastedSteps: calls.charged,
    ...(calls.partly.length > 0 ? { partlyRedundantCalls: calls.partly } : {}),
  };
}
