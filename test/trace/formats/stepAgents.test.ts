/**
 * Every step knows its agent: each importer that records which agent owns a step fills `agent` on
 * llm, tool and message steps (OTel `gen_ai.agent.name` / `gen_ai.agent.id` and span parentage,
 * OpenInference AGENT spans, Langfuse AGENT observations, a transcript message's `name`, a
 * multi-agent log's speaker), and leaves it out where the recording names none.
 */
import { describe, expect, it } from 'vitest';
import type { Importer, ImportProblem } from '../../../src/trace/importer.js';
import { langfuseImporter } from '../../../src/trace/formats/langfuse.js';
import { openaiMessagesImporter, speakerAgent } from '../../../src/trace/formats/openaiMessages.js';
import { openinferenceImporter } from '../../../src/trace/formats/openinference.js';
import { otelImporter } from '../../../src/trace/formats/otel.js';
import { TraceSchema, type Trace } from '../../../src/trace/schema.js';

function read(importer: Importer, value: unknown): { traces: Trace[]; problems: ImportProblem[] } {
  const problems: ImportProblem[] = [];
  const reader = importer.createReader({ problem: (p) => problems.push(p) });
  const imported = [...reader.push(value, 1), ...reader.end()];
  return { traces: imported.map((t) => TraceSchema.parse(t.trace)), problems };
}

type Attr = Record<string, string | number>;
const attributes = (a: Attr) =>
  Object.entries(a).map(([key, v]) => ({
    key,
    value: typeof v === 'number' ? { intValue: String(v) } : { stringValue: v },
  }));

let clock = 0;
/** One OTLP span of trace "t1", started 1 ms after the previous one. */
function span(spanId: string, parent: string | undefined, name: string, attrs: Attr, status = 1) {
  clock += 1;
  return {
    traceId: 't1',
    spanId,
    ...(parent ? { parentSpanId: parent } : {}),
    name,
    startTimeUnixNano: String(1_700_000_000_000_000_000n + BigInt(clock) * 1_000_000n),
    endTimeUnixNano: String(1_700_000_000_000_000_000n + BigInt(clock) * 1_000_000n + 500_000n),
    attributes: attributes(attrs),
    status: { code: status },
  };
}
const otlp = (spans: unknown[]) => ({
  resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'test' }, spans }] }],
});
const agentsOf = (t: Trace) =>
  t.steps.map((s) => `${s.type}:${'agent' in s && s.agent !== undefined ? s.agent : '-'}`);

describe('OTel GenAI spans', () => {
  const chat = { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o' };
  const tool = (name: string) => ({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name });

  it('a step belongs to the nearest invoke_agent span above it; a call may name its agent itself', () => {
    const { traces, problems } = read(
      otelImporter,
      otlp([
        span('a1', undefined, 'invoke_agent Triage', {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.name': 'Triage',
        }),
        span('c1', 'a1', 'chat gpt-4o', chat),
        span('a2', 'a1', 'invoke_agent Billing', {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.id': 'billing-7',
        }),
        span('c2', 'a2', 'chat gpt-4o', chat),
        span('t2', 'a2', 'execute_tool refund', tool('refund')),
        // The conventions name an agent span `invoke_agent <name>`: the name alone is enough.
        span('a3', 'a1', 'invoke_agent WebSurfer', { 'gen_ai.operation.name': 'invoke_agent' }),
        span('c3', 'a3', 'chat gpt-4o', chat),
        // A call that names its own agent, wherever it sits.
        span('c4', 'a1', 'chat gpt-4o', { ...chat, 'gen_ai.agent.name': 'Critic' }),
      ]),
    );
    expect(problems).toEqual([]);
    expect(traces[0]!.agentId).toBe('Triage');
    expect(agentsOf(traces[0]!)).toEqual([
      'llm:Triage',
      'llm:billing-7',
      'tool:billing-7',
      'llm:WebSurfer',
      'llm:Critic',
    ]);
  });

  it('names no agent when no span does', () => {
    const { traces } = read(
      otelImporter,
      otlp([span('c1', undefined, 'chat', chat), span('t1', undefined, 'x', tool('x'))]),
    );
    expect(agentsOf(traces[0]!)).toEqual(['llm:-', 'tool:-']);
  });

  it('a parent cycle ends the climb instead of looping', () => {
    const { traces } = read(
      otelImporter,
      otlp([span('p', 'q', 'chat', chat), span('q', 'p', 'execute_tool x', tool('x'))]),
    );
    expect(agentsOf(traces[0]!)).toEqual(['llm:-', 'tool:-']);
  });
});

describe('OpenInference spans', () => {
  it('AGENT spans own the LLM and TOOL spans below them; agent.name over the span name', () => {
    const { traces, problems } = read(
      openinferenceImporter,
      otlp([
        span('r', undefined, 'planner', { 'openinference.span.kind': 'AGENT' }),
        span('l1', 'r', 'llm', { 'openinference.span.kind': 'LLM', 'llm.model_name': 'gpt-4o' }),
        span('a', 'r', 'agent', { 'openinference.span.kind': 'AGENT', 'agent.name': 'researcher' }),
        span('l2', 'a', 'llm', { 'openinference.span.kind': 'LLM', 'llm.model_name': 'gpt-4o' }),
        span('t', 'a', 'search', { 'openinference.span.kind': 'TOOL', 'tool.name': 'search' }),
      ]),
    );
    expect(problems).toEqual([]);
    expect(agentsOf(traces[0]!)).toEqual(['llm:planner', 'llm:researcher', 'tool:researcher']);
  });
});

describe('Langfuse exports', () => {
  it('observations belong to the nearest AGENT observation above them', () => {
    const obs = (id: string, type: string, parent: string | null, extra: Record<string, unknown> = {}) => ({
      id,
      traceId: 'lf',
      type,
      parentObservationId: parent,
      startTime: `2025-05-02T14:00:0${id.length}.000Z`,
      ...extra,
    });
    const { traces, problems } = read(langfuseImporter, {
      id: 'lf',
      name: 'support',
      observations: [
        obs('o', 'AGENT', null, { name: 'orchestrator' }),
        obs('og', 'GENERATION', 'o', { model: 'gpt-4o' }),
        obs('oss', 'AGENT', 'o', { name: 'billing' }),
        obs('ossg', 'GENERATION', 'oss', { model: 'gpt-4o' }),
        obs('osst', 'TOOL', 'oss', { name: 'refund' }),
        obs('x', 'GENERATION', null, { model: 'gpt-4o' }),
      ],
    });
    expect(problems).toEqual([]);
    expect(agentsOf(traces[0]!)).toEqual(['llm:orchestrator', 'llm:billing', 'tool:billing', 'llm:-']);
  });
});

describe('chat transcripts', () => {
  it("a message's name owns its LLM step and the tool calls it issued; a named user turn is an agent", () => {
    const { traces, problems } = read(openaiMessagesImporter, {
      messages: [
        { role: 'user', content: 'book me a flight' },
        {
          role: 'assistant',
          name: 'planner',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'none found' },
        { role: 'user', name: 'Computer_terminal', content: 'exitcode: 0' },
        { role: 'user', content: 'thanks' },
        { role: 'assistant', content: 'done' },
      ],
    });
    expect(problems).toEqual([]);
    expect(agentsOf(traces[0]!)).toEqual([
      'llm:planner',
      'tool:planner',
      'message:Computer_terminal',
      'message:-',
      'llm:-',
    ]);
  });

  it('a multi-agent log: each turn is its speaker agent, the person asking is none', () => {
    const { traces } = read(openaiMessagesImporter, {
      question: 'q',
      mistake_agent: 'WebSurfer',
      mistake_step: '2',
      history: [
        { role: 'human', content: 'q' },
        { role: 'Orchestrator (thought)', content: 'plan' },
        { role: 'Orchestrator (-> WebSurfer)', content: 'search' },
        { role: 'WebSurfer', content: 'I searched' },
        { role: 'assistant', name: 'Verification_Expert', content: 'ok' },
      ],
    });
    expect(agentsOf(traces[0]!)).toEqual([
      'message:-',
      'message:Orchestrator',
      'message:Orchestrator',
      'message:WebSurfer',
      'message:Verification_Expert',
    ]);
    // `from` still says who spoke, as the log wrote it.
    expect(traces[0]!.steps.map((s) => (s.type === 'message' ? s.from : ''))).toEqual([
      'human',
      'Orchestrator (thought)',
      'Orchestrator (-> WebSurfer)',
      'WebSurfer',
      'Verification_Expert',
    ]);
  });

  it('speakerAgent', () => {
    expect(speakerAgent(undefined, 'Orchestrator (termination condition)')).toBe('Orchestrator');
    expect(speakerAgent(' Verification_Expert ', 'user')).toBe('Verification_Expert');
    expect(speakerAgent(undefined, 'user')).toBeUndefined();
    expect(speakerAgent(undefined, '(thought)')).toBeUndefined();
  });
});

describe('native traces', () => {
  it('take agent as written, and reject an empty one with its field', () => {
    const ok = TraceSchema.safeParse({ id: 't', steps: [{ type: 'tool', name: 'x', agent: 'billing' }] });
    expect(ok.success && ok.data.steps[0]).toMatchObject({ agent: 'billing' });
    const bad = TraceSchema.safeParse({ id: 't', steps: [{ type: 'tool', name: 'x', agent: '' }] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['steps', 0, 'agent'] });
  });
});
