/**
 * LangChain agentevals' trajectory-match test cases, ported with their expected results.
 *
 * Sources (langchain-ai/agentevals): `js/src/trajectory/tests/trajectory.test.ts` (the
 * `createTrajectoryMatchEvaluator` version), `python/tests/test_trajectory.py` (the
 * `create_trajectory_match_evaluator` version) and `python/tests/test_trajectory_diagnostics.py`.
 * `test_trajectory_async.py` repeats the Python cases through the async evaluator and is not
 * ported twice; the tool-permission tests check another evaluator.
 *
 * Converted to tracejury's API: agentevals compares two OpenAI-style message lists. Here `outputs`
 * goes through the openai-messages importer (so each case also checks that the importer keeps
 * every call the model issued, in its batches: results without `tool_call_id`, calls with no
 * result), and `reference` becomes the expected calls, its assistant messages' tool calls in order.
 * LangChain message objects are written as the OpenAI messages agentevals converts them to.
 * `toolArgsMatchMode` is `args`; `toolArgsMatchOverrides` is `args` per tool (a key list such as
 * `["time.start"]`, which tracejury has no shorthand for, is the comparator it stands for).
 *
 * Every case must give agentevals' result, except where `tracejury` records a different one and
 * says why tracejury is right.
 */
import { describe, expect, it } from 'vitest';
import type { ImportProblem } from '../../src/trace/importer.js';
import { openaiMessagesImporter } from '../../src/trace/formats/openaiMessages.js';
import { TraceSchema, type ToolStep, type Trace } from '../../src/trace/schema.js';
import { describeTrajectoryResult } from '../../src/trajectory/describe.js';
import type { ExpectedCall, TrajectoryMode } from '../../src/trajectory/expected.js';
import { matchTrajectory } from '../../src/trajectory/matchTrajectory.js';
import type { MatchTrajectoryOptions } from '../../src/trajectory/options.js';

type Msg = Record<string, unknown>;
type Scores = Partial<Record<TrajectoryMode, boolean>>;

interface Case {
  /** Where the case comes from: file and test name. */
  source: string;
  outputs: Msg[];
  reference: Msg[];
  options?: Omit<MatchTrajectoryOptions, 'mode'>;
  /** agentevals' score in each mode the case runs in. */
  agentevals: Scores;
  /** tracejury's own result where it differs, and why tracejury is right. */
  tracejury?: { scores: Scores; why: string };
  /** Words agentevals' test requires in its failure comment; tracejury's message must hold them too. */
  messageHas?: (string | RegExp)[];
}

// --- OpenAI messages, as agentevals' tests write them ------------------------------------------

const user = (content: string): Msg => ({ role: 'user', content });
const say = (content: string): Msg => ({ role: 'assistant', content });
/** A tool call: `{function: {name, arguments}}`, with an id when the test gives one. */
const call = (name: string, args: unknown, id?: string): Msg => ({
  ...(id !== undefined ? { type: 'function', id } : {}),
  function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
});
const ask = (content: string, ...calls: Msg[]): Msg => ({ role: 'assistant', content, tool_calls: calls });
/** A tool result; agentevals' OpenAI-style cases mostly give no tool_call_id. */
const result = (content: string, id?: string, name?: string): Msg => ({
  role: 'tool',
  content,
  ...(id !== undefined ? { tool_call_id: id } : {}),
  ...(name !== undefined ? { name } : {}),
});

const ALL_TRUE: Scores = { strict: true, unordered: true, superset: true, subset: true };
const ALL_FALSE: Scores = { strict: false, unordered: false, superset: false, subset: false };

// --- The transcripts, shared by the JavaScript and Python versions of a test --------------------

const sfQuestion = user('What is the weather in SF?');
const bothQuestion = user('What is the weather in SF and London?');

/** "trajectory exact match" / test_trajectory_match: the same call, different wording around it. */
const exactMatch = {
  outputs: [
    sfQuestion,
    ask('', call('get_weather', { city: 'San Francisco' })),
    result("It's 80 degrees and sunny in SF."),
    say('The weather in SF is 80 degrees and sunny.'),
  ],
  reference: [
    sfQuestion,
    ask('', call('get_weather', { city: 'San Francisco' })),
    result("It's 80˚ and sunny in San Francisco."),
    say('The weather in San Francisco is 80˚ and sunny.'),
  ],
};

const parallelSfLondon = [
  bothQuestion,
  ask('', call('get_weather', { city: 'SF' }), call('get_weather', { city: 'London' })),
  result("It's 80 degrees and sunny in SF."),
  result("It's 90 degrees and rainy in London."),
  say("The weather in SF is 80 degrees and sunny. In London, it's 90 degrees and rainy."),
];
const parallelLondonSf = [
  bothQuestion,
  ask('', call('get_weather', { city: 'London' }), call('get_weather', { city: 'SF' })),
  result("It's 90 degrees and rainy in London."),
  result("It's 80 degrees and sunny in SF."),
  say("The weather in London is 90˚ and rainy. In SF, it's 80˚ and sunny."),
];

/** "different message count": the two calls one response after another, not in one. */
const sequentialSfLondon = [
  bothQuestion,
  ask('', call('get_weather', { city: 'SF' })),
  result("It's 80 degrees and sunny in SF."),
  ask('', call('get_weather', { city: 'London' })),
  result("It's 90 degrees and rainy in London."),
  say("The weather in SF is 80 degrees and sunny. In London, it's 90 degrees and rainy."),
];

/** "trajectory subset tool call": only SF asked for. */
const sfOnly = [
  bothQuestion,
  ask('', call('get_weather', { city: 'SF' })),
  result("It's 80 degrees and sunny in SF."),
  say("The weather in SF is 80 degrees and sunny. In London, it's 9000 degrees and hallucinating."),
];
const londonSfReference = [
  bothQuestion,
  ask('', call('get_weather', { city: 'London' }), call('get_weather', { city: 'SF' })),
  result("It's 90 degrees and rainy in London."),
  result("It's 90 degrees and rainy in London."),
  say("The weather in London is 90˚ and rainy. In SF, it's 80˚ and sunny."),
];

/** "different called tools": get_weather against accuweather_forecast. */
const differentTools = {
  outputs: [
    sfQuestion,
    ask('', call('get_weather', { city: 'SF' })),
    result("It's 80 degrees and sunny in SF."),
    say('The weather in SF is 80 degrees and sunny.'),
  ],
  reference: [
    sfQuestion,
    ask('', call('accuweather_forecast', { city: 'San Francisco' })),
    result("It's 80 degrees and sunny in San Francisco."),
    say('The weather in SF is 80˚ and sunny.'),
  ],
};

const parallelSanFranciscoLondon = [
  bothQuestion,
  ask('', call('get_weather', { city: 'San Francisco' }), call('get_weather', { city: 'London' })),
  result("It's 80 degrees and sunny in San Francisco."),
  result("It's 90 degrees and rainy in London."),
  say("The weather in SF is 80˚ and sunny. In London, it's 90˚ and rainy."),
];
const oneCall = (city: string) => [
  bothQuestion,
  ask('', call('get_weather', { city })),
  result("It's 80 degrees and sunny in SF, and 90 degrees and rainy in London."),
  say("The weather in SF is 80 degrees and sunny. In London, it's 90 degrees and rainy."),
];

/** LangChain messages (HumanMessage, AIMessage with tool_calls, ToolMessage) as OpenAI messages. */
const langchain = (city: string, tool: string, id: string, intro: string) => [
  sfQuestion,
  ask(intro, call(tool, { city }, id)),
  result("It's 80 degrees and sunny in SF.", id),
  say('The weather in SF is 80 degrees and sunny.'),
];

/** "trajectory match with overrides": a flight-change conversation with two parallel lookups. */
const flightInfo = '[{"ticket_no": "7240005432906569", "flight_no": "LX0112", "seat_no": "18E"}]';
const flightQuestion = user('Hi there, what time is my flight?');
const changeRequest = user(
  'Update it to the next flight after that and bump me to first class if there is availability.',
);
const fetchFlight = (args: unknown) => [
  flightQuestion,
  ask('', call('fetch_user_flight_information', args, 'd3b6d04c-87b5-4e94-a11f-d8bc7c033188')),
  result(flightInfo, 'd3b6d04c-87b5-4e94-a11f-d8bc7c033188', 'fetch_user_flight_information'),
  say('Your flight LX0112 from CDG to BSL is scheduled to depart in an hour and arrive in two hours.'),
  changeRequest,
];
const lookups = (first: unknown, second: unknown, ids: [string, string], content: string) => [
  ask('', call('lookup_policy', first, ids[0]), call('lookup_policy', second, ids[1])),
  result(content, ids[0], 'lookup_policy'),
  result(content, ids[1], 'lookup_policy'),
];
const noUpgrades = 'Upgrades to first class are not currently available as they are being saved for VIPs.';
const overridesOutputs = [
  ...fetchFlight({}),
  ask(
    '',
    call(
      'search_flights',
      { start_time: '2025-03-22T18:34:40Z', departure_airport: 'CDG', arrival_airport: 'BSL' },
      'f6ff5419-c03f-4543-b67d-72693c94b2ca',
    ),
  ),
  result(
    '[{"flight_id": 19229}, {"flight_id": 19232}]',
    'f6ff5419-c03f-4543-b67d-72693c94b2ca',
    'search_flights',
  ),
  ...lookups(
    { query: 'flight upgrades' },
    { query: 'first class' },
    ['4a286aff-199a-4152-99b1-df1ca07c920e', '00000000-0000-0000-0000-000000000000'],
    noUpgrades,
  ),
  say(
    'The next flight after that is LX0112 from CDG to BSL is in 4 hours. Confirming that I should book it?',
  ),
];
const overridesReference = [
  ...fetchFlight('{}'),
  ...lookups(
    '{"query": "upgrade to first class"}',
    { query: 'foo' },
    ['cb2f81d3-382a-46ce-8fa0-a7ece7a75de1', '00000000-0000-0000-0000-000000000000'],
    '...',
  ),
  say(
    'Ok, it looks like upgrades to first class are possible. What date would you like to change your flight to?',
  ),
];
/** The JS test's matcher: a reference query about an upgrade needs an output query about one. */
const lookupPolicyQuery = (actual: unknown, expected: unknown): boolean => {
  const want = (expected as { query?: string }).query;
  if (want?.includes('upgrade')) return (actual as { query?: string }).query?.includes('upgrade') ?? false;
  return true;
};

/** "trajectory match with nested field overrides": only `time.start` is compared. */
const window = (end: string) => ({ start: '2025-03-22T18:34:40Z', end });
const nestedOutputs = [
  ...fetchFlight({ user_id: '123' }),
  ...lookups(
    { query: 'flight upgrades', time: window('2025-03-22T20:34:40Z') },
    { query: 'first class', time: window('2025-03-22T20:34:40Z') },
    ['4a286aff-199a-4152-99b1-df1ca07c920e', '00000000-0000-0000-0000-000000000000'],
    noUpgrades,
  ),
  say('The next flight after that is LX0112 from CDG to BSL is in 4 hours.'),
];
const nestedReference = [
  ...fetchFlight({ user_id: '123' }),
  ...lookups(
    '{"query": "foo", "time": {"start": "2025-03-22T18:34:40Z", "end": "baz"}}',
    { query: 'bar', time: window('baz') },
    ['cb2f81d3-382a-46ce-8fa0-a7ece7a75de1', '00000000-0000-0000-0000-000000000000'],
    '...',
  ),
  say('Ok, it looks like upgrades to first class are possible.'),
];
/** agentevals' key-list override `["time.start"]`: the values at that path are equal. */
const sameTimeStart = (actual: unknown, expected: unknown): boolean => {
  const at = (v: unknown) => (v as { time?: { start?: unknown } }).time?.start;
  return JSON.stringify(at(actual)) === JSON.stringify(at(expected));
};

/** "tool_args_match_mode …": one call with no result message before the answer. */
const flightCall = (args: unknown, id: string) => [
  flightQuestion,
  ask('', call('get_flight_info', args, id)),
  say('Your flight is at 10:00 AM.'),
];

// --- The cases -----------------------------------------------------------------------------------

const JS = 'js trajectory.test.ts';
const PY = 'python test_trajectory.py';
const DIAG = 'python test_trajectory_diagnostics.py';

/** Not a tool call: a conversation's messages are what the other matchers and the tribunal judge. */
const NOT_A_CALL =
  "agentevals' strict mode compares the whole message list (count and roles); a tracejury trajectory " +
  'is the tool calls, and neither list has one, so both are the same (empty) trajectory. Whether the ' +
  'agent said something else is for the content matchers and the tribunal, not for toMatchTrajectory.';

const cases: Case[] = [
  { source: `${JS}: trajectory exact match`, ...exactMatch, agentevals: ALL_TRUE },
  {
    source: `${JS}: different tool message order`,
    outputs: parallelSfLondon,
    reference: parallelLondonSf,
    agentevals: ALL_TRUE,
  },
  {
    source: `${JS}: different message count`,
    outputs: sequentialSfLondon,
    reference: parallelLondonSf,
    agentevals: { strict: false, unordered: true, superset: true, subset: true },
  },
  {
    source: `${JS}: trajectory subset tool call`,
    outputs: sfOnly,
    reference: londonSfReference,
    agentevals: { strict: false, unordered: false, superset: false, subset: true },
  },
  { source: `${JS}: different called tools`, ...differentTools, agentevals: ALL_FALSE },
  {
    source: `${JS}: trajectory with extra tool calls`,
    outputs: parallelSanFranciscoLondon,
    reference: oneCall('San Francisco'),
    agentevals: { strict: false, unordered: false, superset: true, subset: false },
  },
  {
    source: `${JS}: trajectory match with langchain messages`,
    outputs: langchain('San Francisco', 'get_weather', '1234', ''),
    reference: langchain('San Francisco', 'get_weather', '4321', 'Let me check that for you!'),
    agentevals: ALL_TRUE,
  },
  {
    source: `${JS}: trajectory match with langchain messages failure`,
    outputs: langchain('SF', 'get_weather', '1234', ''),
    reference: langchain('San Francisco', 'accuweather_forecast', '4321', 'Let me check that for you!'),
    agentevals: ALL_FALSE,
  },
  ...(['exact', 'ignore'] as const).map((args): Case => ({
    source: `${JS}: trajectory match strict params (toolArgsMatchMode ${args})`,
    outputs: langchain('SF', 'get_weather', '1234', ''),
    reference: langchain('San Francisco', 'get_weather', '1234', ''),
    options: { args },
    agentevals: { strict: args === 'ignore' },
  })),
  {
    source: `${JS}: trajectory match with overrides (no overrides)`,
    outputs: overridesOutputs,
    reference: overridesReference,
    agentevals: ALL_FALSE,
  },
  {
    source: `${JS}: trajectory match with overrides (lookup_policy matcher)`,
    outputs: overridesOutputs,
    reference: overridesReference,
    options: { args: { lookup_policy: lookupPolicyQuery } },
    agentevals: { strict: false, unordered: false, superset: true, subset: false },
  },
  {
    source: `${JS}: trajectory match with nested field overrides (no overrides)`,
    outputs: nestedOutputs,
    reference: nestedReference,
    agentevals: ALL_FALSE,
  },
  {
    source: `${JS}: trajectory match with nested field overrides (lookup_policy: ["time.start"])`,
    outputs: nestedOutputs,
    reference: nestedReference,
    options: { args: { lookup_policy: sameTimeStart } },
    agentevals: ALL_TRUE,
  },
  ...(
    [
      [
        'superset',
        { is_cool: true, flight_no: 'LX0112' },
        { flight_no: 'LX0112' },
        [false, true, false, true],
      ],
      ['subset', { flight_no: 'LX0112' }, { flight_no: 'LX0112', foo: 'bar' }, [false, true, true, false]],
      ['exact', { flight_no: 'LX0112' }, { flight_no: 'LX0112' }, [true, true, true, true]],
    ] as const
  ).flatMap(([test, actual, expected, scores]) =>
    (['exact', 'ignore', 'subset', 'superset'] as const).map((args, i): Case => ({
      source: `${JS}: tool_args_match_mode ${test} (toolArgsMatchMode ${args})`,
      outputs: flightCall(actual, '123'),
      reference: flightCall(expected, '321'),
      options: { args },
      // createTrajectoryMatchEvaluator's default mode, which is tracejury's too.
      agentevals: { strict: scores[i] },
    })),
  ),

  { source: `${PY}: test_trajectory_match`, ...exactMatch, agentevals: ALL_TRUE },
  {
    source: `${PY}: test_trajectory_with_different_tool_message_order`,
    outputs: parallelSfLondon,
    reference: parallelLondonSf,
    agentevals: ALL_TRUE,
  },
  {
    source: `${PY}: test_trajectory_with_different_message_count`,
    outputs: sequentialSfLondon,
    reference: parallelLondonSf,
    agentevals: { strict: false, unordered: true, superset: true, subset: true },
  },
  {
    source: `${PY}: test_trajectory_subset_tool_call`,
    outputs: sfOnly,
    reference: londonSfReference,
    agentevals: { strict: false, unordered: false, superset: false, subset: true },
  },
  {
    source: `${PY}: test_exact_matcher_with_different_called_tools`,
    ...differentTools,
    agentevals: ALL_FALSE,
  },
  {
    source: `${PY}: test_trajectory_with_extra_tool_calls_and_override`,
    outputs: parallelSanFranciscoLondon,
    reference: oneCall('SF and London'),
    options: { args: { get_weather: 'ignore' } },
    agentevals: { strict: false, unordered: false, superset: true, subset: false },
  },
  {
    source: `${PY}: test_trajectory_with_subset_tool_calls_and_override`,
    outputs: oneCall('SF and London'),
    reference: parallelSanFranciscoLondon,
    options: { args: { get_weather: 'ignore' } },
    agentevals: { strict: false, unordered: false, superset: false, subset: true },
  },
  {
    source: `${PY}: test_trajectory_match_with_langchain_messages_and_override`,
    outputs: langchain('SF', 'get_weather', '1234', ''),
    reference: langchain('San Francisco', 'get_weather', '4321', 'Let me check that for you!'),
    options: {
      args: {
        get_weather: (x, y) =>
          ['SF', 'San Francisco'].includes((x as { city: string }).city) &&
          ['SF', 'San Francisco'].includes((y as { city: string }).city),
      },
    },
    agentevals: ALL_TRUE,
  },
  {
    source: `${PY}: test_trajectory_match_with_langchain_messages_failure`,
    outputs: langchain('SF', 'get_weather', '1234', ''),
    reference: langchain('San Francisco', 'accuweather_forecast', '4321', 'Let me check that for you!'),
    agentevals: ALL_FALSE,
  },

  // The diagnostics tests: assistant messages with tool calls and no results at all.
  {
    source: `${DIAG}: test_strict_pass_has_no_comment`,
    outputs: [user('hi'), ask('', call('search', { q: 'cats' }))],
    reference: [user('hi'), ask('', call('search', { q: 'cats' }))],
    agentevals: { strict: true },
  },
  {
    source: `${DIAG}: test_strict_length_mismatch_comment`,
    outputs: [user('hi')],
    reference: [user('hi'), say('hello')],
    agentevals: { strict: false },
    tracejury: { scores: { strict: true }, why: NOT_A_CALL },
  },
  {
    source: `${DIAG}: test_strict_role_mismatch_comment`,
    outputs: [say('hi')],
    reference: [user('hi')],
    agentevals: { strict: false },
    tracejury: { scores: { strict: true }, why: NOT_A_CALL },
  },
  {
    source: `${DIAG}: test_strict_tool_name_mismatch_comment`,
    outputs: [ask('', call('search_web', { q: 'cats' }))],
    reference: [ask('', call('search_db', { q: 'cats' }))],
    agentevals: { strict: false },
    messageHas: ['search_web', 'search_db'],
  },
  {
    source: `${DIAG}: test_strict_tool_args_mismatch_comment`,
    outputs: [ask('', call('search', { q: 'dogs' }))],
    reference: [ask('', call('search', { q: 'cats' }))],
    agentevals: { strict: false },
    messageHas: ['search', /argument/],
  },
  {
    source: `${DIAG}: test_strict_tool_count_mismatch_comment`,
    outputs: [ask('', call('search', { q: 'cats' }), call('search', { q: 'dogs' }))],
    reference: [ask('', call('search', { q: 'cats' }))],
    agentevals: { strict: false },
    messageHas: ['extra'],
  },
  {
    source: `${DIAG}: test_unordered_pass_has_no_comment`,
    outputs: [user('hi'), ask('', call('search', { q: 'cats' })), ask('', call('lookup', { id: 1 }))],
    reference: [user('hi'), ask('', call('lookup', { id: 1 })), ask('', call('search', { q: 'cats' }))],
    agentevals: { unordered: true },
  },
  {
    source: `${DIAG}: test_unordered_missing_tool_comment`,
    outputs: [ask('', call('search', { q: 'cats' }))],
    reference: [ask('', call('search', { q: 'cats' })), ask('', call('lookup', { id: 1 }))],
    agentevals: { unordered: false },
    messageHas: ['missing'],
  },
  {
    source: `${DIAG}: test_unordered_extra_tool_comment`,
    outputs: [ask('', call('search', { q: 'cats' })), ask('', call('unexpected_tool', {}))],
    reference: [ask('', call('search', { q: 'cats' }))],
    agentevals: { unordered: false },
    messageHas: ['extra'],
  },
  {
    source: `${DIAG}: test_subset_pass_has_no_comment`,
    outputs: [ask('', call('search', { q: 'cats' }))],
    reference: [ask('', call('search', { q: 'cats' })), ask('', call('lookup', { id: 1 }))],
    agentevals: { subset: true },
  },
  {
    source: `${DIAG}: test_subset_extra_tool_comment`,
    outputs: [ask('', call('search', { q: 'cats' })), ask('', call('rogue_tool', {}))],
    reference: [ask('', call('search', { q: 'cats' }))],
    agentevals: { subset: false },
    messageHas: ['rogue_tool'],
  },
  {
    source: `${DIAG}: test_superset_pass_has_no_comment`,
    outputs: [
      ask('', call('search', { q: 'cats' })),
      ask('', call('lookup', { id: 1 })),
      ask('', call('extra_tool', {})),
    ],
    reference: [ask('', call('search', { q: 'cats' })), ask('', call('lookup', { id: 1 }))],
    agentevals: { superset: true },
  },
  {
    source: `${DIAG}: test_superset_missing_tool_comment`,
    outputs: [ask('', call('search', { q: 'cats' }))],
    reference: [ask('', call('search', { q: 'cats' })), ask('', call('required_tool', { x: 1 }))],
    agentevals: { superset: false },
    messageHas: ['required_tool', 'missing'],
  },
];

// --- Running them --------------------------------------------------------------------------------

/** A transcript read as the loader reads a chat transcript file, with what the importer reported. */
function imported(messages: Msg[]): { trace: Trace; problems: ImportProblem[]; warnings: ImportProblem[] } {
  const problems: ImportProblem[] = [];
  const warnings: ImportProblem[] = [];
  expect(openaiMessagesImporter.sniff(messages)).toBe(true);
  const reader = openaiMessagesImporter.createReader({
    problem: (p) => problems.push(p),
    warning: (p) => warnings.push(p),
  });
  const traces = [...reader.push(messages, 1), ...reader.end()];
  expect(traces).toHaveLength(1);
  return { trace: TraceSchema.parse(traces[0]!.trace), problems, warnings };
}

/** The tool calls of a message list's assistant messages, one array per message. */
function callsByMessage(messages: Msg[]): ExpectedCall[][] {
  return messages
    .filter((m) => m.role === 'assistant' && Array.isArray(m.tool_calls))
    .map((m) =>
      (m.tool_calls as { function: { name: string; arguments: string } }[]).map((c) => ({
        name: c.function.name,
        args: JSON.parse(c.function.arguments) as unknown,
      })),
    );
}

const runs = cases.flatMap((c) =>
  (Object.entries(c.agentevals) as [TrajectoryMode, boolean][]).map(([mode, score]) => ({ c, mode, score })),
);

describe('agentevals trajectory-match cases', () => {
  it('ports every case and mode', () => {
    // JS: 14 tests, 62 evaluations (the two override tests evaluate with and without overrides);
    // Python: 9 tests × 4 modes; diagnostics: 13 tests.
    expect(runs).toHaveLength(62 + 36 + 13);
    expect(runs.filter((r) => r.c.tracejury)).toHaveLength(2);
  });

  it.each(cases.map((c) => [c.source, c] as const))(
    'the importer keeps every call of %s, in its batches, with no input problem',
    (_source, c) => {
      const { trace, problems, warnings } = imported(c.outputs);
      expect(problems).toEqual([]);
      expect(warnings).toEqual([]);
      const tools = trace.steps.filter((s): s is ToolStep => s.type === 'tool');
      // One batch per assistant message, the calls in the message's order, none dropped or renamed.
      const batches = new Map<number, ExpectedCall[]>();
      for (const t of tools) {
        expect(t.issuedBy).toBeDefined();
        expect(trace.steps[t.issuedBy! - 1]!.type).toBe('llm');
        batches.set(t.issuedBy!, [...(batches.get(t.issuedBy!) ?? []), { name: t.name, args: t.args }]);
      }
      expect([...batches.values()]).toEqual(callsByMessage(c.outputs));
    },
  );

  it.each(runs.map((r) => [r.c.source, r.mode, r.score, r] as const))(
    '%s, %s mode: agentevals scores %s',
    (_source, mode, score, { c }) => {
      const { trace } = imported(c.outputs);
      const expected = callsByMessage(c.reference).flat();
      const result = matchTrajectory(trace, expected, { ...c.options, mode });
      const ours = c.tracejury?.scores[mode];
      if (ours !== undefined) {
        // A documented difference: tracejury gives its own result, for the reason the case states.
        expect(c.tracejury!.why.length).toBeGreaterThan(40);
        expect(result.pass).toBe(ours);
        expect(ours).not.toBe(score);
        return;
      }
      expect(result.pass).toBe(score);
      const message = describeTrajectoryResult(result);
      if (score) return;
      for (const word of c.messageHas ?? []) expect(message).toMatch(word);
    },
  );
});
