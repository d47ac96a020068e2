/**
 * Which llm step issued each tool call (`ToolStep.issuedBy`): the link that makes the calls of one
 * model response a batch, with no order among themselves. Span-based formats and Langfuse exports
 * record the model's requested calls on the LLM step (its output message's `toolCalls`) and each
 * executed call as a step of its own; this joins the two once the steps are in trace order.
 *
 * The evidence, strongest first:
 * 1. the call id: the tool step's `callId` is the id of a call in an earlier llm step's output (the
 *    nearest such step: some providers restart ids like `call_0` every response);
 * 2. the tool's name: the last llm step before the tool step asked for a call of that name which no
 *    other tool step has taken (a recording without call ids: an AI SDK `ai.toolCall` span without
 *    `ai.toolCall.id`, an execute_tool span without `gen_ai.tool.call.id`).
 * Nothing else: a tool step after an llm step that asked for no such call is not guessed to be its.
 * A tool step that already has `issuedBy` (a native trace, an importer that knows better) keeps it.
 */
import type { ChatMessage, TraceInput } from './schema.js';

type StepInput = NonNullable<TraceInput['steps']>[number];
type ToolCall = NonNullable<ChatMessage['toolCalls']>[number];

function requestedCalls(step: StepInput): ToolCall[] {
  if (step.type !== 'llm') return [];
  const output = step.output;
  return typeof output === 'object' && output !== null && Array.isArray(output.toolCalls)
    ? output.toolCalls
    : [];
}

/** Sets `issuedBy` on the tool steps it can link, in place. */
export function linkIssuedBy(steps: StepInput[]): void {
  /** Call id → the step number of the nearest llm step so far that requested it. */
  const byId = new Map<string, number>();
  /** The last llm step so far: its number and the calls it requested that no step took yet. */
  let last: { number: number; open: ToolCall[] } | undefined;
  steps.forEach((step, i) => {
    if (step.type === 'llm') {
      const calls = requestedCalls(step);
      for (const c of calls) if (c.id) byId.set(c.id, i + 1);
      last = { number: i + 1, open: [...calls] };
      return;
    }
    if (step.type !== 'tool') return;
    if (step.issuedBy !== undefined) return;
    const byCallId = step.callId !== undefined ? byId.get(step.callId) : undefined;
    if (byCallId !== undefined) {
      step.issuedBy = byCallId;
      if (last?.number === byCallId) {
        const taken = last.open.findIndex((c) => c.id === step.callId);
        if (taken !== -1) last.open.splice(taken, 1);
      }
      return;
    }
    if (!last) return;
    const taken = last.open.findIndex(
      (c) => c.name === step.name && (c.id === undefined || step.callId === undefined),
    );
    if (taken === -1) return;
    last.open.splice(taken, 1);
    step.issuedBy = last.number;
  });
}
