/**
 * A tool result without its envelope (resultEnvelope.ts): LangChain/LangGraph message wrappers,
 * tool messages, tool_result blocks, ids of the call and timestamps are not what the tool said.
 */
import { describe, expect, it } from 'vitest';
import { maskVolatile, resultContent } from '../../../src/detect/detectors/structural/resultEnvelope.js';
import { toolLoop } from '../../../src/detect/detectors/structural/toolLoop.js';
import { loadTraces } from '../../../src/trace/load.js';
import { runDetector } from '../tester.js';

/** A LangChain.js ToolMessage as its toJSON() writes it (what OpenInference puts in output.value). */
const toolMessage = (content: unknown, id: string, status = 'success') =>
  JSON.stringify({
    lc: 1,
    type: 'constructor',
    id: ['langchain_core', 'messages', 'ToolMessage'],
    kwargs: {
      status,
      content,
      tool_call_id: id,
      name: 'lookupOrder',
      metadata: { versions: { '@langchain/core': '0.3.40' } },
      additional_kwargs: {},
      response_metadata: {},
      id: `run-${id}`,
    },
  });

describe('resultContent', () => {
  it("takes a serialised ToolMessage's content, whatever its tool_call_id", () => {
    const a = resultContent(toolMessage('{"order":"A-17","status":"shipped"}', 'call_1'));
    const b = resultContent(toolMessage('{"order":"A-17","status":"shipped"}', 'call_2'));
    expect(a).toEqual({ value: '{"order":"A-17","status":"shipped"}', failed: false });
    expect(b).toEqual(a);
  });

  it('reads the same message given as an object, and its error status as a failure', () => {
    const parsed = JSON.parse(toolMessage('Order not found', 'call_9', 'error')) as unknown;
    expect(resultContent(parsed)).toEqual({ value: 'Order not found', failed: true });
  });

  it("unwraps a LangGraph node's update holding one message, and text content blocks", () => {
    const update = { messages: [JSON.parse(toolMessage([{ type: 'text', text: 'ok' }], 'c1')) as unknown] };
    expect(resultContent(update)).toEqual({ value: 'ok', failed: false });
  });

  it('unwraps plain tool messages, tool_result blocks, function_call_output and MCP results', () => {
    expect(resultContent({ role: 'tool', tool_call_id: 'c1', content: '42' }).value).toBe('42');
    expect(
      resultContent({ type: 'tool_result', tool_use_id: 't1', content: 'boom', is_error: true }),
    ).toEqual({
      value: 'boom',
      failed: true,
    });
    expect(resultContent({ type: 'function_call_output', call_id: 'c2', output: '7' }).value).toBe('7');
    expect(resultContent({ content: [{ type: 'text', text: 'found 3' }], isError: false }).value).toBe(
      'found 3',
    );
  });

  it('drops ids of the call and timestamps at the top level, and keeps ids that are data', () => {
    expect(
      resultContent({ id: 'R1', status: 'active', request_id: 'req_81', timestamp: '2025-03-01T10:00:00Z' })
        .value,
    ).toEqual({ id: 'R1', status: 'active' });
  });

  it('leaves ordinary results as they are', () => {
    expect(resultContent('3 passed in 0.12s')).toEqual({ value: '3 passed in 0.12s', failed: false });
    expect(resultContent('{"type": "flight", "number": "HAT082"}').value).toBe(
      '{"type": "flight", "number": "HAT082"}',
    );
    expect(resultContent('{not json').value).toBe('{not json');
  });
});

describe('maskVolatile', () => {
  it('masks moments to the second and UUIDs, not dates or times of day that are data', () => {
    expect(maskVolatile('at 2025-03-01T10:00:07.123Z id 550e8400-e29b-41d4-a716-446655440000')).toBe(
      'at <time> id <uuid>',
    );
    expect(maskVolatile('flight on 2024-05-15 departs 08:00')).toBe('flight on 2024-05-15 departs 08:00');
  });
});

describe('a LangChain.js agent recorded by OpenInference', () => {
  // Three lookups of one order, each answered by a ToolMessage that differs from the others only
  // in its tool_call_id and run id (test/fixtures/openinference/langchain-tool-messages.jsonl).
  it('is found looping: the same request, the same answer inside different envelopes', async () => {
    const { traces } = await loadTraces('test/fixtures/openinference/langchain-tool-messages.jsonl');
    expect(traces).toHaveLength(1);
    const tools = traces[0]!.trace.steps.filter((s) => s.type === 'tool');
    expect(tools).toHaveLength(3);
    const [loop] = runDetector(toolLoop, traces[0]!.trace);
    expect(loop).toMatchObject({ confidence: 0.94 });
    expect(loop!.message).toMatch(/lookupOrder called 3× .* identical arguments and the same result$/);
  });
});
