/**
 * One agent run recorded with the OpenTelemetry GenAI conventions, through whatever tracer the
 * test gives: an `invoke_agent` root, two `chat` spans and two `execute_tool` spans, with explicit
 * times so that the order of the steps is the same on every run.
 */
import { context, trace, SpanStatusCode, type Tracer } from '@opentelemetry/api';

export const AGENT_NAME = 'support-bot';

export function recordAgentRun(tracer: Tracer, base = Date.now()): void {
  const at = (ms: number) => base + ms;
  const root = tracer.startSpan(`invoke_agent ${AGENT_NAME}`, {
    startTime: at(0),
    attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': AGENT_NAME },
  });
  const inRoot = trace.setSpan(context.active(), root);
  const child = (name: string, start: number, end: number, attributes: Record<string, unknown>) => {
    const span = tracer.startSpan(name, { startTime: at(start), attributes: attributes as never }, inRoot);
    return { span, end: () => span.end(at(end)) };
  };
  const chat1 = child('chat gpt-4o-mini', 10, 400, {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'openai',
    'gen_ai.request.model': 'gpt-4o-mini',
    'gen_ai.request.temperature': 0.2,
    'gen_ai.usage.input_tokens': 120,
    'gen_ai.usage.output_tokens': 30,
    'gen_ai.response.finish_reasons': ['tool_calls'],
  });
  chat1.span.addEvent('gen_ai.content.prompt', { 'gen_ai.prompt': 'Where is order 42?' }, at(11));
  chat1.end();
  const tool1 = child('execute_tool lookup_order', 410, 450, {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': 'lookup_order',
    'gen_ai.tool.call.id': 'call_1',
    'gen_ai.tool.call.arguments': '{"orderId":42}',
    'gen_ai.tool.call.result': '{"status":"shipped"}',
  });
  tool1.end();
  const chat2 = child('chat gpt-4o-mini', 460, 900, {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'openai',
    'gen_ai.request.model': 'gpt-4o-mini',
    'gen_ai.usage.input_tokens': 200,
    'gen_ai.usage.output_tokens': 45,
    'gen_ai.response.finish_reasons': ['tool_calls'],
  });
  chat2.end();
  const tool2 = child('execute_tool send_email', 910, 980, {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': 'send_email',
    'gen_ai.tool.call.id': 'call_2',
    'example.cached': false,
  });
  tool2.span.setStatus({ code: SpanStatusCode.ERROR, message: 'smtp unreachable' });
  tool2.end();
  root.end(at(1000));
}

/** What a Trace's steps say, compactly. */
export function stepSummary(steps: readonly { type: string; name?: string; model?: string }[]): string[] {
  return steps.map((s) =>
    s.type === 'tool' ? `tool ${s.name}` : s.type === 'llm' ? `llm ${s.model}` : s.type,
  );
}
