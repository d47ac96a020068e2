import { describe, expect, it } from 'vitest';
import { toolLoop } from '../../../src/detect/detectors/structural/toolLoop.js';
import { llm, makeTrace, tool } from '../../helpers/traceBuilder.js';
import { runDetector, testDetector } from '../tester.js';

/** A single-tool coding agent's call: one shell command and what it printed. */
const bash = (command: string, result: string, status: 'ok' | 'error' = 'ok') =>
  tool(
    'bash',
    status === 'ok' ? { args: { command }, result } : { args: { command }, status, error: result },
  );

testDetector(toolLoop, {
  valid: [
    {
      name: '2 calls of one tool in 5 tool calls',
      trace: makeTrace([tool('search'), tool('read'), tool('search'), tool('write'), tool('fetch')]),
    },
    {
      name: '3 calls spread over 6 tool calls (no 5-call window holds 3)',
      trace: makeTrace([
        tool('search'),
        tool('read'),
        tool('search'),
        tool('write'),
        tool('fetch'),
        tool('search'),
      ]),
    },
    {
      name: 'LLM steps do not count as tool calls, and distinct tools never loop',
      trace: makeTrace([llm(), tool('search'), llm(), tool('read'), llm(), tool('write'), llm()]),
    },
    {
      name: 'raised threshold: 3 in 5 no longer fires at threshold 4',
      config: { threshold: 4 },
      trace: makeTrace([tool('search'), tool('search'), tool('search'), tool('read')]),
    },
    {
      name: 'smaller window: 3 calls over 4 tool calls do not fit a window of 3',
      config: { window: 3 },
      trace: makeTrace([tool('search'), tool('read'), tool('write'), tool('search'), tool('search')]),
    },
    {
      name: 'a single-tool agent: bash every step, each command new, each with its own output',
      trace: makeTrace([
        bash('ls -la', 'README.md setup.py src'),
        bash('grep -n "def parse" src/parser.py', '42:def parse(text):'),
        bash("sed -n '40,60p' src/parser.py", 'def parse(text):\n    return text.split()'),
        bash('python reproduce.py', 'Traceback: IndexError', 'error'),
        bash("sed -i 's/split()/split() or []/' src/parser.py", ''),
        bash('python reproduce.py', 'ok: 3 tokens'),
      ]),
    },
    {
      name: 'iteration over distinct entities: one action per user, no value returned',
      trace: makeTrace([
        tool('add_user_to_channel', { args: { channel: 'External_0', user: 'Alice' }, result: 'None' }),
        tool('add_user_to_channel', { args: { channel: 'External_0', user: 'Bob' }, result: 'None' }),
        tool('add_user_to_channel', { args: { channel: 'External_0', user: 'Charlie' }, result: 'None' }),
      ]),
    },
    {
      name: 'iteration over distinct entities: three reservations looked up, three different answers',
      trace: makeTrace([
        tool('get_reservation_details', { args: { id: 'R1' }, result: { id: 'R1', origin: 'SFO' } }),
        tool('get_reservation_details', { args: { id: 'R2' }, result: { id: 'R2', origin: 'JFK' } }),
        tool('get_reservation_details', { args: { id: 'R3' }, result: { id: 'R3', origin: 'ORD' } }),
      ]),
    },
    {
      name: 'two requests each made twice is not a loop (one repeat each, no round of three)',
      trace: makeTrace([
        tool('get_restaurants', { args: { city: 'Paris' }, result: 'Breizh Café, Le Baratin' }),
        tool('get_restaurants', { args: { city: 'Paris' }, result: 'Breizh Café, Le Baratin' }),
        tool('get_cuisine', { args: { names: ['Breizh Café'] }, result: 'French' }),
        tool('get_cuisine', { args: { names: ['Breizh Café'] }, result: 'French' }),
      ]),
    },
    {
      name: 'edit, then re-run the test, three times: each run is a new attempt, even with the same output',
      trace: makeTrace([
        bash('python reproduce.py', 'AssertionError: 2 != 3', 'error'),
        bash("sed -i 's/a/b/' x.py", ''),
        bash('python reproduce.py', 'AssertionError: 2 != 3', 'error'),
        bash("cat > y.py <<'EOF'\nz = 1\nEOF", ''),
        bash('python reproduce.py', 'AssertionError: 2 != 3', 'error'),
      ]),
    },
    {
      name: 'a lookup after a cancellation is a new question: the records changed',
      trace: makeTrace([
        tool('get_reservation_details', { args: { id: 'R1' }, result: { status: 'active' } }),
        tool('cancel_reservation', { args: { id: 'R1' }, result: { status: 'cancelled' } }),
        tool('get_reservation_details', { args: { id: 'R1' }, result: { status: 'cancelled' } }),
        tool('get_reservation_details', { args: { id: 'R2' }, result: { status: 'active' } }),
        tool('cancel_reservation', { args: { id: 'R2' }, result: { status: 'cancelled' } }),
        tool('get_reservation_details', { args: { id: 'R2' }, result: { status: 'cancelled' } }),
      ]),
    },
    {
      name: 'entity ids are not near-identical: three files read are three requests',
      trace: makeTrace([
        bash('cat astropy/io/ascii/connect.py', 'same text'),
        bash('cat astropy/io/misc/connect.py', 'same text'),
        bash('cat astropy/io/fits/connect.py', 'other text'),
      ]),
    },
  ],
  invalid: [
    {
      name: 'just over: 3 calls in 5 tool calls, LLM steps between',
      trace: makeTrace([
        llm(),
        tool('search_docs'),
        llm(),
        tool('read'),
        tool('search_docs'),
        tool('write'),
        tool('search_docs'),
      ]),
      signals: [
        {
          steps: [2, 5, 7],
          severity: 'high',
          message: 'search_docs called 3× in 5 tool calls (steps 2–7)',
          confidence: 0.82,
        },
      ],
    },
    {
      // What was repeated is known ('a' twice), what came back is not: not a loop by what is
      // repeated, not clear iteration either.
      name: 'arguments recorded but partly repeated, results not recorded: the gray zone',
      trace: makeTrace([
        tool('search_docs', { args: { q: 'a' } }),
        tool('read'),
        tool('search_docs', { args: { q: 'b' } }),
        tool('write'),
        tool('search_docs', { args: { q: 'a' } }),
      ]),
      signals: [
        {
          steps: [1, 3, 5],
          message:
            'search_docs called 3× in 5 tool calls (steps 1–5), results not recorded (may be legitimate iteration)',
          confidence: 0.55,
        },
      ],
    },
    {
      name: 'the same command with the same output 3×: identical, back to back',
      trace: makeTrace([
        bash('pytest tests/test_io.py', '1 failed: test_read', 'error'),
        llm(),
        bash('pytest  tests/test_io.py', '1 failed: test_read', 'error'),
        llm(),
        bash('pytest tests/test_io.py ', '1 failed: test_read', 'error'),
      ]),
      signals: [
        {
          steps: [1, 3, 5],
          severity: 'high',
          message:
            'bash called 3× in 3 tool calls (steps 1–5), each time with identical arguments and the same result',
          confidence: 0.94,
        },
      ],
    },
    {
      name: 'near-identical commands with the same output: a loop all the same',
      trace: makeTrace([
        bash('python reproduce_issue.py', 'Traceback: KeyError: name', 'error'),
        bash('python3 reproduce_issue.py', 'Traceback: KeyError: name', 'error'),
        bash('python3 ./reproduce_issue.py', 'Traceback: KeyError: name', 'error'),
      ]),
      signals: [
        {
          steps: [1, 2, 3],
          message: /2 calls repeated an earlier one \(near-identical arguments\) and got the same result/,
          confidence: 0.88,
        },
      ],
    },
    {
      name: 'the same check re-run between reads, same output each time: a finding, less sure',
      trace: makeTrace([
        bash('python reproduce.py', 'AssertionError: 2 != 3', 'error'),
        bash("sed -n '1,20p' x.py", 'def f(): ...'),
        bash('python reproduce.py', 'AssertionError: 2 != 3', 'error'),
        bash('grep -n count y.py', '3: count = 0'),
        bash('python reproduce.py', 'AssertionError: 2 != 3', 'error'),
      ]),
      signals: [
        {
          steps: [1, 3, 5],
          message: /each time with identical arguments and the same result; 2 other calls in between/,
          confidence: 0.85,
        },
      ],
    },
    {
      name: 'a status polled with nothing written in between, the answer changing: the gray zone, for tier 2',
      trace: makeTrace([
        tool('job_status', { args: { id: 'J1' }, result: 'queued' }),
        tool('job_status', { args: { id: 'J1' }, result: 'running' }),
        tool('job_status', { args: { id: 'J1' }, result: 'done' }),
      ]),
      signals: [
        {
          steps: [1, 2, 3],
          message:
            /2 calls repeated an earlier one \(identical arguments\), 2 with a different result though nothing was written in between/,
          confidence: 0.5,
        },
      ],
    },
    {
      name: 'the same edit failing three times: a failed write changes nothing, so it is a loop',
      trace: makeTrace([
        tool('edit_file', {
          args: { path: 'x.py', old: 'a', new: 'b' },
          status: 'error',
          error: 'old text not found',
        }),
        tool('edit_file', {
          args: { path: 'x.py', old: 'a', new: 'b' },
          status: 'error',
          error: 'old text not found',
        }),
        tool('edit_file', {
          args: { path: 'x.py', old: 'a', new: 'b' },
          status: 'error',
          error: 'old text not found',
        }),
      ]),
      signals: [{ steps: [1, 2, 3], confidence: 0.94 }],
    },
    {
      name: 'LangChain.js tool messages that differ only in tool_call_id: the same result each time',
      trace: makeTrace(
        ['call_1', 'call_2', 'call_3'].map((id) =>
          tool('lookupOrder', {
            args: { orderId: 'A-17' },
            result: JSON.stringify({
              lc: 1,
              type: 'constructor',
              id: ['langchain_core', 'messages', 'ToolMessage'],
              kwargs: {
                status: 'success',
                content: 'Order A-17: shipped',
                tool_call_id: id,
                name: 'lookupOrder',
              },
            }),
          }),
        ),
      ),
      signals: [{ steps: [1, 2, 3], confidence: 0.94, message: /identical arguments and the same result$/ }],
    },
    {
      name: 'a call retried until it worked: its failed attempts are the loop',
      trace: makeTrace([
        tool('track_shipment', { args: { n: '1Z9' }, status: 'error', error: '503 Service Unavailable' }),
        tool('track_shipment', { args: { n: '1Z9' }, status: 'error', error: '503 Service Unavailable' }),
        tool('track_shipment', { args: { n: '1Z9' }, status: 'error', error: '503 Service Unavailable' }),
        tool('track_shipment', { args: { n: '1Z9' }, result: 'Leipzig hub' }),
      ]),
      signals: [
        {
          steps: [1, 2, 3, 4],
          message:
            /2 calls repeated an earlier one \(identical arguments\) and got the same result, 1 then got a different one/,
          confidence: 0.94,
        },
      ],
    },
    {
      name: 'a round of messages sent again, in the same order: the second round is a loop',
      trace: makeTrace(
        ['Alice', 'Bob', 'Charlie', 'Alice', 'Bob', 'Charlie'].map((to) =>
          tool('send_direct_message', { args: { recipient: to, body: `Congrats, ${to}!` }, result: 'None' }),
        ),
      ),
      signals: [
        {
          steps: [1, 2, 3, 4, 5, 6],
          message: /3 calls repeated an earlier one \(identical arguments\) and got the same result$/,
          confidence: 0.94,
        },
      ],
    },
    {
      name: 'a round of calls made again with the same answers',
      trace: makeTrace([
        tool('get_users_in_channel', { args: { channel: 'random' }, result: '- Alice - Bob' }),
        tool('get_users_in_channel', { args: { channel: 'private' }, result: '- Charlie' }),
        tool('get_users_in_channel', { args: { channel: 'External_0' }, result: '- Eve' }),
        tool('get_users_in_channel', { args: { channel: 'random' }, result: '- Alice - Bob' }),
        tool('get_users_in_channel', { args: { channel: 'private' }, result: '- Charlie' }),
        tool('get_users_in_channel', { args: { channel: 'External_0' }, result: '- Eve' }),
      ]),
      signals: [
        {
          steps: [1, 2, 3, 4, 5, 6],
          message: /3 calls repeated an earlier one \(identical arguments\) and got the same result$/,
          confidence: 0.94,
        },
      ],
    },
    {
      name: 'different searches that all found nothing: the gray zone, for tier 2',
      trace: makeTrace([
        tool('search_docs', { args: { q: 'cancel subscription' }, result: [] }),
        tool('search_docs', { args: { q: 'cancel plan' }, result: [] }),
        tool('search_docs', { args: { q: 'unsubscribe' }, result: [] }),
      ]),
      signals: [
        {
          steps: [1, 2, 3],
          message:
            'search_docs called 3× in 3 tool calls (steps 1–3), each time with different arguments, but 2 of 2 later calls came back empty or with an earlier result',
          confidence: 0.55,
        },
      ],
    },
    {
      name: 'every call with different arguments: reported in the gray zone (may be legitimate iteration)',
      trace: makeTrace([
        tool('get_reservation_details', { args: { id: 'R1' } }),
        tool('get_reservation_details', { args: { id: 'R2' } }),
        tool('get_reservation_details', { args: { id: 'R3' } }),
      ]),
      signals: [
        {
          steps: [1, 2, 3],
          message:
            'get_reservation_details called 3× in 3 tool calls (steps 1–3), each time with different arguments (may be legitimate iteration)',
          confidence: 0.55,
        },
      ],
    },
    {
      name: 'arguments not recorded are not taken as different',
      trace: makeTrace([tool('search'), tool('search'), tool('search')]),
      signals: [{ steps: [1, 2, 3], confidence: 0.82 }],
    },
    {
      name: 'identical arguments each time, one merged signal for a run of overlapping windows',
      trace: makeTrace([
        tool('search', { args: { q: 'x', k: 5 } }),
        tool('search', { args: { k: 5, q: 'x' } }),
        tool('search', { args: { q: 'x', k: 5 } }),
        tool('search', { args: { q: 'x', k: 5 } }),
      ]),
      signals: [
        { steps: [1, 2, 3, 4], message: /called 4× in 4 tool calls .*identical arguments/, confidence: 0.94 },
      ],
    },
    {
      // Attempts 0, 1, 2 asked again and again: the same requests repeated, so 0.94, not the 0.88
      // of the name-only rule.
      name: 'a long run of one tool is one signal, not one per window',
      trace: makeTrace(Array.from({ length: 10 }, (_, i) => tool('poll', { args: { attempt: i % 3 } }))),
      signals: [
        {
          steps: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
          message: 'poll called 10× in 10 tool calls',
          confidence: 0.94,
        },
      ],
    },
    {
      name: 'two separate loops of the same tool are two signals',
      trace: makeTrace([
        tool('search', { args: 1 }),
        tool('search', { args: 2 }),
        tool('search', { args: 3 }),
        tool('a'),
        tool('b'),
        tool('c'),
        tool('d'),
        tool('search', { args: 4 }),
        tool('search', { args: 5 }),
        tool('search', { args: 6 }),
      ]),
      signals: [
        { steps: [1, 2, 3], message: 'steps 1–3' },
        { steps: [8, 9, 10], message: 'steps 8–10' },
      ],
    },
    {
      name: 'two tools cycling over the same calls are one loop, not two signals',
      trace: makeTrace([tool('b'), tool('a'), tool('b'), tool('a'), tool('b'), tool('a')]),
      signals: [
        { steps: [1, 2, 3, 4, 5, 6], message: 'b called 3× and a called 3× in 6 tool calls (steps 1–6)' },
      ],
    },
    {
      name: 'loops of two tools that do not overlap are two signals, ordered by first step',
      trace: makeTrace([tool('a'), tool('a'), tool('a'), tool('x'), tool('b'), tool('b'), tool('b')]),
      signals: [
        { steps: [1, 2, 3], message: 'a called 3×' },
        { steps: [5, 6, 7], message: 'b called 3×' },
      ],
    },
    {
      name: 'lowered threshold: 2 calls in 3 fire at threshold 2',
      config: { threshold: 2 },
      trace: makeTrace([tool('search'), tool('read'), tool('search')]),
      signals: [{ steps: [1, 3], message: 'search called 2× in 3 tool calls' }],
    },
  ],
});

describe('TOOL_LOOP evidence', () => {
  it('records counts, window and argument identity', () => {
    const [s] = runDetector(
      toolLoop,
      makeTrace([
        tool('search', { args: { q: 'a' } }),
        tool('x'),
        tool('search', { args: { q: 'b' } }),
        tool('search', { args: { q: 'a' } }),
      ]),
    );
    expect(s?.evidence).toMatchObject({
      tool: 'search',
      calls: 3,
      toolCallsSpanned: 4,
      threshold: 3,
      window: 5,
      identicalArgs: false,
      perTool: [{ tool: 'search', calls: 3, identicalArgs: false, distinctArgs: 2 }],
    });
  });
});

describe('TOOL_LOOP evidence of a loop judged by what is repeated', () => {
  it('says what was repeated, how often, and whether the outcome changed', () => {
    const [s] = runDetector(
      toolLoop,
      makeTrace([
        bash('pytest -x', '1 failed', 'error'),
        bash('git diff', 'diff --git a/x.py'),
        bash('pytest -x', '1 failed', 'error'),
        bash('pytest -x', '1 failed', 'error'),
      ]),
    );
    expect(s?.evidence).toMatchObject({
      tool: 'bash',
      repeatedBy: 'arguments',
      identicalArgs: true,
      repeats: 2,
      sameOutcome: true,
      outcomesChanged: 0,
      callsInBetween: 1,
    });
    expect(s?.steps).toEqual([1, 3, 4]);
  });
});
