import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importFile } from '../../helpers/importFile.js';
import { describe, expect, it } from 'vitest';
import { openaiMessagesImporter } from '../../../src/trace/formats/openaiMessages.js';
import {
  TraceSchema,
  type LlmStep,
  type MessageStep,
  type ToolStep,
  type Trace,
} from '../../../src/trace/schema.js';

const fixture = (name: string) =>
  fileURLToPath(new URL(`../../fixtures/openai-messages/${name}`, import.meta.url));

const read = (file: string) => importFile(openaiMessagesImporter, file);

const only = <T extends Trace['steps'][number]['type']>(t: Trace, type: T) =>
  t.steps.filter((s) => s.type === type) as Extract<Trace['steps'][number], { type: T }>[];

describe('openai-messages importer: τ-bench runs', () => {
  it('makes one trace per run with a unique id and reward, task and trial in metadata', () => {
    const { traces } = read(fixture('tau-bench.json'));
    expect(traces.map((t) => t.trace.id)).toEqual(['task-3-trial-0', 'task-3-trial-1', 'task-3-trial-1-2']);
    const run = traces[0]!.trace;
    expect(run.status).toBe('ok');
    expect(run.metadata).toMatchObject({ source: 'tau-bench', task_id: 3, trial: 0, reward: 1 });
    expect((run.metadata!.info as { user_cost: number }).user_cost).toBe(0.0021);
    // τ-bench records no tool list: not invented.
    expect(run.availableTools).toBeUndefined();
    expect(run.input).toBe('Hi, I need to cancel my reservation QX12ZZ.');
    expect(run.output).toBe('The reservation cannot be cancelled: it is not refundable.');
  });

  it('maps assistant messages to llm steps, tool messages to tool steps, later user turns to messages', () => {
    const run = read(fixture('tau-bench.json')).traces[0]!.trace;
    expect(run.steps.map((s) => s.type)).toEqual([
      'llm',
      'tool',
      'llm',
      'message',
      'llm',
      'tool',
      'llm',
      'message',
    ]);
    const [call, , reply] = run.steps as [LlmStep, ToolStep, LlmStep];
    expect(call.model).toBe('unknown');
    expect(call.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect(call.input).toEqual([
      { role: 'system', content: '# Airline Agent Policy\nYou can book, modify or cancel reservations.' },
      { role: 'user', content: 'Hi, I need to cancel my reservation QX12ZZ.' },
    ]);
    expect(call.output).toEqual({
      role: 'assistant',
      toolCalls: [
        { id: 'call_a1', name: 'get_reservation_details', arguments: { reservation_id: 'QX12ZZ' } },
      ],
    });
    expect(reply.input).toHaveLength(4);
    expect(reply.output).toEqual({
      role: 'assistant',
      content: 'I found reservation QX12ZZ. Shall I cancel it? (yes/no)',
    });

    const [lookup, cancel] = only(run, 'tool');
    expect(lookup).toEqual({
      type: 'tool',
      name: 'get_reservation_details',
      args: { reservation_id: 'QX12ZZ' },
      result: '{"reservation_id": "QX12ZZ", "status": "active"}',
      status: 'ok',
      callId: 'call_a1',
      issuedBy: 1,
    });
    expect(cancel).toMatchObject({
      name: 'cancel_reservation',
      status: 'error',
      error: 'Error: reservation QX12ZZ is not refundable',
    });
    expect(only(run, 'message')).toEqual([
      { type: 'message', from: 'user', content: 'yes' },
      { type: 'message', from: 'user', content: '###STOP###' },
    ]);
  });

  it('reports bad messages by JSON path and keeps the rest of the run', () => {
    const { traces, problems } = read(fixture('tau-bench.json'));
    expect(problems).toEqual([
      { line: 1, field: '[2].traj[2]', message: 'expected a message object {role, content}' },
      { line: 1, field: '[2].traj[3].tool_calls', message: 'expected an array of tool calls' },
    ]);
    const third = traces[2]!.trace;
    expect(third.steps).toHaveLength(1);
    expect(third.output).toBe('Which reservation do you mean?');
  });
});

describe('openai-messages importer: Who&When logs', () => {
  it('maps history to message steps and keeps the failure labels', () => {
    const { traces, problems } = read(fixture('who-and-when.json'));
    expect(problems).toEqual([]);
    const log = traces[0]!.trace;
    expect(log.id).toBe('5f1c9a7e-2b1d-4c11-9d3e-0a6b2e7c4f10');
    expect(log.input).toBe('How many studio albums did the band release between 2000 and 2009?');
    const steps = log.steps as MessageStep[];
    expect(steps.map((s) => s.from)).toEqual([
      'human',
      'Orchestrator (thought)',
      'Orchestrator (-> WebSurfer)',
      'WebSurfer',
      'Assistant',
    ]);
    expect(steps[2]!.to).toBe('WebSurfer');
    expect(steps[4]!.content).toBe('FINAL ANSWER: 4');
    expect(log.metadata).toEqual({
      source: 'who-and-when',
      question_ID: '5f1c9a7e-2b1d-4c11-9d3e-0a6b2e7c4f10',
      level: '1',
      ground_truth: '3',
      is_correct: false,
      mistake_agent: 'WebSurfer',
      mistake_step: '3',
      mistake_reason: 'Counted a live album as a studio album.',
      mistakeStepNumber: 4,
      agents: ['WebSurfer', 'Assistant'],
    });
    // The blamed step number points at the blamed agent's turn.
    expect(steps[(log.metadata!.mistakeStepNumber as number) - 1]!.from).toBe('WebSurfer');
  });

  it('derives a stable id from the question when question_ID is missing, unique within a file', () => {
    const log = JSON.parse(readFileSync(fixture('who-and-when.json'), 'utf8')) as Record<string, unknown>;
    delete log.question_ID;
    const reader = openaiMessagesImporter.createReader({ problem: () => undefined });
    const [a] = reader.push(log, 1);
    const [b] = reader.push(log, 2);
    expect(a!.trace.id).toMatch(/^q-[0-9a-f]{12}$/);
    expect(b!.trace.id).toBe(`${a!.trace.id}-2`);
  });
});

describe('openai-messages importer: chat transcripts', () => {
  it('reads JSONL of transcripts and bare message arrays', () => {
    const { traces, problems } = read(fixture('transcripts.jsonl'));
    expect(traces.map((t) => [t.trace.id, t.line])).toEqual([
      ['chat-1', 1],
      ['transcript-2', 2],
      ['transcript-3', 3],
    ]);
    expect(problems).toEqual([{ line: 4, field: 'messages', message: 'expected an array of messages' }]);

    const chat = traces[0]!.trace;
    expect(chat.availableTools).toEqual(['get_weather']);
    expect(chat.input).toBe('Weather in Paris?');
    expect(chat.output).toBe('18 °C and cloudy in Paris.');
    const [call, tool, answer] = chat.steps as [LlmStep, ToolStep, LlmStep];
    expect(call).toMatchObject({
      model: 'gpt-4o-mini',
      usage: { inputTokens: 55, outputTokens: 12 },
      finishReason: 'tool_calls',
    });
    expect(tool).toMatchObject({ name: 'get_weather', args: { city: 'Paris' }, status: 'ok', callId: 'c1' });
    expect(answer).toMatchObject({ finishReason: 'stop', usage: { inputTokens: 0, outputTokens: 0 } });
    expect(answer.input).toHaveLength(4);

    expect((traces[1]!.trace.steps[0] as LlmStep).output).toEqual({ role: 'assistant', content: 'Pong.' });
    // Malformed tool-call arguments are the agent's data: kept as the raw string.
    expect(traces[2]!.trace.steps[1]).toMatchObject({
      type: 'tool',
      name: 'log',
      args: '{not json',
      result: 'logged',
    });
  });

  it('sniffs transcripts, τ-bench runs and Who&When logs, not the other formats', () => {
    const tau = JSON.parse(readFileSync(fixture('tau-bench.json'), 'utf8')) as unknown;
    const ww = JSON.parse(readFileSync(fixture('who-and-when.json'), 'utf8')) as unknown;
    const sniff = openaiMessagesImporter.sniff;
    expect(sniff(tau)).toBe(true);
    expect(sniff(ww)).toBe(true);
    expect(sniff({ messages: [{ role: 'user', content: 'hi' }] })).toBe(true);
    expect(sniff([{ role: 'user', content: 'hi' }])).toBe(true);
    expect(sniff({ id: 't', steps: [] })).toBe(false);
    expect(sniff({ id: 't', observations: [], input: { messages: [{ role: 'user', content: 'x' }] } })).toBe(
      false,
    );
    expect(sniff({ resourceSpans: [] })).toBe(false);
    expect(sniff({ traceId: 't', startTime: 'x', input: { model: 'gpt-4', prompt: 'hi' }, usage: {} })).toBe(
      false,
    );
    expect(sniff({ traceId: 't', spanId: 's', name: 'chat' })).toBe(false);
  });
});

describe('openai-messages importer: every call the model issued is a step', () => {
  type Msg = Record<string, unknown>;
  const fn = (name: string, args: unknown, id?: string) => ({
    ...(id ? { id, type: 'function' } : {}),
    function: { name, arguments: JSON.stringify(args) },
  });
  const ask = (...calls: ReturnType<typeof fn>[]): Msg => ({
    role: 'assistant',
    content: '',
    tool_calls: calls,
  });
  const answer = (content: string, extra: Msg = {}): Msg => ({ role: 'tool', content, ...extra });
  const hi: Msg = { role: 'user', content: 'Weather in SF and Oslo?' };
  const done: Msg = { role: 'assistant', content: 'Sunny in both.' };

  /** One transcript on line 7 of a JSONL file, with what the importer said about it. */
  function readOne(messages: Msg[]) {
    const problems: unknown[] = [];
    const warnings: unknown[] = [];
    const reader = openaiMessagesImporter.createReader({
      problem: (p) => problems.push(p),
      warning: (p) => warnings.push(p),
    });
    const [imported] = reader.push({ messages }, 7);
    const trace = TraceSchema.parse(imported!.trace);
    return { trace, tools: only(trace, 'tool'), problems, warnings };
  }

  it('keeps a call with no result message: status unknown, no result, issued by its llm step', () => {
    const { trace, tools, warnings } = readOne([hi, ask(fn('get_weather', { city: 'SF' }, 'c1')), done]);
    expect(trace.steps.map((s) => s.type)).toEqual(['llm', 'tool', 'llm']);
    expect(tools).toEqual([
      {
        type: 'tool',
        name: 'get_weather',
        args: { city: 'SF' },
        status: 'unknown',
        callId: 'c1',
        issuedBy: 1,
      },
    ]);
    expect(warnings).toEqual([]);
  });

  it('places the calls of one message right after its llm step, as one batch, results filled in', () => {
    const { trace, tools } = readOne([
      hi,
      ask(fn('get_weather', { city: 'SF' }, 'c1'), fn('get_weather', { city: 'Oslo' }, 'c2')),
      // Results in another order than the calls: matched by id.
      answer('12 °C', { tool_call_id: 'c2' }),
      answer('Error: rate limited', { tool_call_id: 'c1' }),
      done,
    ]);
    expect(trace.steps.map((s) => s.type)).toEqual(['llm', 'tool', 'tool', 'llm']);
    expect(tools.map((t) => [t.args, t.status, t.result, t.issuedBy])).toEqual([
      [{ city: 'SF' }, 'error', 'Error: rate limited', 1],
      [{ city: 'Oslo' }, 'ok', '12 °C', 1],
    ]);
    expect(tools[0]!.error).toBe('Error: rate limited');
  });

  it('matches results without tool_call_id to the open calls in order (agentevals-style transcripts)', () => {
    const { tools, warnings } = readOne([
      hi,
      ask(fn('get_weather', { city: 'SF' }), fn('get_weather', { city: 'Oslo' })),
      answer('21 °C'),
      answer('12 °C'),
      done,
    ]);
    expect(tools.map((t) => [t.name, t.args, t.result, t.status])).toEqual([
      ['get_weather', { city: 'SF' }, '21 °C', 'ok'],
      ['get_weather', { city: 'Oslo' }, '12 °C', 'ok'],
    ]);
    // Never a tool named 'unknown'.
    expect(warnings).toEqual([]);
  });

  it('matches a result without id by its name where it gives one, whatever the order', () => {
    const { tools } = readOne([
      hi,
      ask(fn('get_weather', { city: 'SF' }), fn('get_time', { tz: 'PST' })),
      answer('09:00', { name: 'get_time' }),
      answer('21 °C', { name: 'get_weather' }),
      done,
    ]);
    expect(tools.map((t) => [t.name, t.result])).toEqual([
      ['get_weather', '21 °C'],
      ['get_time', '09:00'],
    ]);
  });

  it('reads the legacy function_call and function message the same way', () => {
    const { tools } = readOne([
      hi,
      {
        role: 'assistant',
        content: null,
        function_call: { name: 'get_weather', arguments: '{"city":"SF"}' },
      },
      { role: 'function', name: 'get_weather', content: '21 °C' },
      done,
    ]);
    expect(tools).toEqual([
      { type: 'tool', name: 'get_weather', args: { city: 'SF' }, result: '21 °C', status: 'ok', issuedBy: 1 },
    ]);
  });

  it('lets a result whose id names no call answer a call recorded without an id', () => {
    const { tools, warnings } = readOne([
      hi,
      ask(fn('get_weather', { city: 'SF' })),
      answer('21 °C', { tool_call_id: 'x9' }),
      done,
    ]);
    expect(tools.map((t) => [t.result, t.callId])).toEqual([['21 °C', 'x9']]);
    expect(warnings).toEqual([]);
  });

  it('warns about a result that answers no call, naming the line and field, and keeps the rest', () => {
    const { trace, tools, warnings, problems } = readOne([
      hi,
      ask(fn('get_weather', { city: 'SF' }, 'c1')),
      answer('21 °C', { tool_call_id: 'c1' }),
      answer('12 °C'),
      answer('stale', { tool_call_id: 'c7' }),
      answer('09:00', { name: 'get_time' }),
      done,
    ]);
    expect(problems).toEqual([]);
    expect(warnings).toEqual([
      {
        line: 7,
        field: 'messages[3]',
        message:
          'a tool result with no tool_call_id answers no unanswered tool call of the assistant message before it; ' +
          'it is not read as a step (give it the tool_call_id of the call it answers)',
      },
      expect.objectContaining({
        line: 7,
        field: 'messages[4]',
        message: expect.stringContaining('tool_call_id "c7"'),
      }),
      expect.objectContaining({
        line: 7,
        field: 'messages[5]',
        message: expect.stringContaining('named "get_time"'),
      }),
    ]);
    expect(tools.map((t) => [t.name, t.result])).toEqual([['get_weather', '21 °C']]);
    expect(trace.output).toBe('Sunny in both.');
  });

  it('does not let an id-less result answer a call of an earlier message', () => {
    const { tools, warnings } = readOne([
      hi,
      ask(fn('get_weather', { city: 'SF' })),
      { role: 'assistant', content: 'Let me also check the time.' },
      answer('21 °C'),
      done,
    ]);
    expect(tools.map((t) => t.status)).toEqual(['unknown']);
    expect(warnings).toHaveLength(1);
  });
});
