/**
 * What a judge sees when a detector is unsure: the rubric names the suspected failure, the
 * response is the steps the signal is about (with a step of context either side), clipped and
 * redacted. The tribunal fences all of it as untrusted data.
 */
import type { Signal } from '../detect/signal.js';
import { redact, redactDeep } from '../redact/redact.js';
import type { Step, Trace } from '../trace/schema.js';

const MAX_FIELD_CHARS = 1500;
const MAX_STEPS = 12;

/** Redacted before it is cut: a cut through a secret leaves a prefix no pattern recognises. */
function clip(value: unknown): unknown {
  if (value === undefined) return undefined;
  const raw = typeof value === 'string' ? value : JSON.stringify(value);
  if (raw === undefined) return undefined;
  const text = redact(raw);
  return text.length > MAX_FIELD_CHARS
    ? `${text.slice(0, MAX_FIELD_CHARS)}… [${text.length - MAX_FIELD_CHARS} more characters]`
    : text;
}

/**
 * The best score, 0 when none is recorded. A loop, not Math.max(...scores): spread arguments go on
 * the call stack, which a retrieval with over ~120,000 results overflows.
 */
function topScore(results: readonly { score?: number }[]): number {
  let top = 0;
  for (const r of results) if ((r.score ?? 0) > top) top = r.score!;
  return top;
}

function describeStep(step: Step, n: number): Record<string, unknown> {
  switch (step.type) {
    case 'llm':
      return {
        step: n,
        type: 'llm',
        model: step.model,
        output: clip(step.output),
        finishReason: step.finishReason,
        error: step.error,
      };
    case 'tool':
      return {
        step: n,
        type: 'tool',
        name: step.name,
        args: clip(step.args),
        status: step.status,
        result: clip(step.result),
        error: step.error,
      };
    case 'retrieval':
      return {
        step: n,
        type: 'retrieval',
        query: clip(step.query),
        results: step.results.length,
        topScore: topScore(step.results),
      };
    case 'state':
      return { step: n, type: 'state', agentId: step.agentId, state: clip(step.state) };
    case 'message':
      return { step: n, type: 'message', from: step.from, to: step.to, content: clip(step.content) };
  }
}

/** The step numbers to show: the signal's own, one either side, at most MAX_STEPS. */
export function stepsToShow(signal: Signal, stepCount: number): number[] {
  const wanted = new Set<number>();
  for (const n of signal.steps)
    for (const m of [n - 1, n, n + 1]) if (m >= 1 && m <= stepCount) wanted.add(m);
  if (wanted.size === 0)
    for (let m = Math.max(1, stepCount - MAX_STEPS + 1); m <= stepCount; m++) wanted.add(m);
  return [...wanted].sort((a, b) => a - b).slice(0, MAX_STEPS);
}

export interface FailureCase {
  rubric: string;
  response: unknown;
  context: Record<string, unknown>;
}

export function failureCase(trace: Trace, signal: Signal, description: string): FailureCase {
  const steps = stepsToShow(signal, trace.steps.length).map((n) => describeStep(trace.steps[n - 1]!, n));
  return {
    rubric:
      `A rule-based detector (${signal.detector}: ${description}) suspects a failure in this agent run but is unsure ` +
      `(confidence ${signal.confidence.toFixed(2)}). Its finding: "${signal.message}". Read the steps and decide whether ` +
      'the run really shows this failure. Score 1.0 and passed=true when the run is healthy and the suspected failure ' +
      'did not happen; score 0.0 and passed=false when it clearly happened; confidence is how sure you are.',
    response: redactDeep({ steps }),
    context: redactDeep({
      task: clip(trace.input),
      finalOutput: clip(trace.output),
      runStatus: trace.status,
      detectorEvidence: signal.evidence,
    }) as Record<string, unknown>,
  };
}
