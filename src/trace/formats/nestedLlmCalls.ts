/**
 * One LLM call is one step, whoever else wrapped it. A call can be recorded twice: a wrapper's span
 * (OpenInference's `Anthropic Messages`, Traceloop's `anthropic.chat`) with the SDK's own span inside
 * it (the Anthropic SDK writes `anthropic.messages.create`). Read as two steps, every call counted
 * twice: twice the LLM steps, the cost doubled or more.
 *
 * The rule: an LLM span whose only step below it is one LLM span, itself with no step below, records
 * the same request as that span. The two steps become one, with the outer span's fields (messages,
 * tool calls, its place in the trace) and, where the inner span counted tokens, the inner span's
 * usage: the SDK's own count of its call, as the GenAI conventions define it. An LLM span with
 * several calls below it (a model-as-agent wrapper) is left as it is.
 */
import type { Span, StepInput } from './otlp.js';

type LlmStepInput = Extract<StepInput, { type: 'llm' }>;

const isLlm = (step: StepInput | undefined): step is LlmStepInput => step?.type === 'llm';

function merged(outer: LlmStepInput, inner: LlmStepInput): LlmStepInput {
  const innerCounted = (inner.usage?.inputTokens ?? 0) > 0 || (inner.usage?.outputTokens ?? 0) > 0;
  return {
    // Each field the outer span lacks comes from the inner one.
    ...inner,
    ...outer,
    model: outer.model === 'unknown' ? inner.model : outer.model,
    usage: innerCounted ? { ...outer.usage, ...inner.usage } : { ...inner.usage, ...outer.usage },
  };
}

/**
 * Merges each nested pair in `stepOf` (the step each span maps to, spans in trace order) into the
 * outer span's entry, and returns the inner spans, whose steps are no longer steps of their own.
 */
export function mergeNestedLlmCalls(ordered: Span[], stepOf: Map<Span, StepInput>): Set<Span> {
  const byId = new Map<string, Span>();
  for (const s of ordered) if (!byId.has(s.spanId)) byId.set(s.spanId, s);
  /** The step spans directly below each step span (through spans that are not steps). */
  const stepChildren = new Map<Span, Span[]>();
  for (const s of ordered) {
    if (!stepOf.has(s)) continue;
    const seen = new Set<Span>([s]);
    let parent = s.parentSpanId !== undefined ? byId.get(s.parentSpanId) : undefined;
    while (parent && !stepOf.has(parent) && !seen.has(parent)) {
      seen.add(parent);
      parent = parent.parentSpanId !== undefined ? byId.get(parent.parentSpanId) : undefined;
    }
    if (!parent || seen.has(parent)) continue;
    const list = stepChildren.get(parent) ?? [];
    list.push(s);
    stepChildren.set(parent, list);
  }
  const folded = new Set<Span>();
  for (const [outerSpan, kids] of stepChildren) {
    const outer = stepOf.get(outerSpan);
    const innerSpan = kids.length === 1 ? kids[0]! : undefined;
    const inner = innerSpan ? stepOf.get(innerSpan) : undefined;
    if (!isLlm(outer) || !isLlm(inner) || stepChildren.has(innerSpan!)) continue;
    stepOf.set(outerSpan, merged(outer, inner));
    folded.add(innerSpan!);
  }
  return folded;
}
