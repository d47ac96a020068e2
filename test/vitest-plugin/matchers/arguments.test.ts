/**
 * A mistake in a matcher call fails the test — in one real Vitest run of a fixture project, since
 * Vitest does not type-check test files and each of these used to pass silently: a misspelt
 * detector id (negated too), option key, severity, dollar amount given as a string, trajectory
 * option, tribunal option and rubric name (no request reaching the judge server, which a call with
 * a known rubric does reach); async matchers left unawaited, mid-file and last in their file;
 * per-trace session signals, accepted, and a misspelt one refused; a value that is no trace,
 * answered with what is accepted; a custom detector registered in a setup file; toHaveWasteBelow(0)
 * listing what wasted. Matchers used correctly beside them still pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openaiReply, startFakeServer, type FakeServer } from '../../judge/fakeServers.js';
import {
  configWith,
  createProject,
  nativeTrace,
  type ReportLike,
  type RunResult,
} from '../../helpers/vitestProject.js';

/** A run that refunds an order it never looked up: what the custom detector below catches. */
const REFUND = JSON.stringify({
  id: 'refund-1',
  agentId: 'order-support',
  status: 'ok',
  input: 'Refund order 4412',
  output: 'Refunded.',
  steps: [
    {
      type: 'llm',
      model: 'gpt-4o',
      input: 'refund?',
      output: 'calling refund',
      usage: { inputTokens: 400, outputTokens: 20 },
    },
    { type: 'tool', name: 'refund', args: { order: '4412' }, status: 'ok', result: 'ok' },
  ],
});

const DETECTORS = `
import { z } from 'zod';
import { defineDetector } from 'tracejury';

export const refundWithoutLookup = defineDetector({
  meta: {
    id: 'REFUND_WITHOUT_LOOKUP',
    configKey: 'refund_without_lookup',
    tier: 1,
    kind: 'waste',
    severity: 'high',
    failureMode: 'policy',
    description: 'a refund issued before the order was looked up',
    fix: 'look the order up before refunding it',
    config: z.object({}),
  },
  detect(trace) {
    const refund = trace.steps.findIndex((s) => s.type === 'tool' && s.name === 'refund');
    const lookedUp = trace.steps.some((s) => s.type === 'tool' && s.name === 'lookup_order');
    if (refund === -1 || lookedUp) return [];
    return [{ confidence: 0.9, steps: [refund + 1], message: 'refund issued without a lookup', wasteUsd: 0.00042 }];
  },
});
`;

const SETUP = `
import { registerDetectors } from 'tracejury/vitest';
import { refundWithoutLookup } from './detectors.ts';
registerDetectors(refundWithoutLookup);
`;

const ARGS = `
import { expect, test } from 'vitest';

test('a misspelt detector id, negated', () => {
  expect('traces/clean.json').not.toHaveSignal('TOOL_LOP');
});
test('a misspelt detector id', () => {
  expect('traces/looping.json').toHaveSignal('TOOL_LOP');
});
test('a misspelt option key', () => {
  expect('traces/looping.json').toHaveSignal('TOOL_LOOP', { minConfidance: 0.5 });
});
test('a misspelt threshold key', async () => {
  await expect('traces/clean.json').toMeetSessionThreshold({ reliabilty: 0.99 });
});
test('a severity that is none', () => {
  expect('traces/looping.json').toHaveNoSignals({ minSeverity: 'hi' });
});
test('dollars as a string', () => {
  expect('traces/clean.json').toHaveWasteBelow('0.01');
});
test('a misspelt trajectory option', () => {
  expect('traces/looping.json').toMatchTrajectory([{ name: 'get_weather' }], { mode: 'superset', ignor: { failedCalls: true } });
});
test('a misspelt tribunal option', async () => {
  await expect('Your refund of $12 arrives on Friday.').toPassTribunal({ rubrik: 'refund_answer' });
});
test('a misspelt rubric name', async () => {
  await expect('Your refund of $12 arrives on Friday.').toPassTribunal({
    rubric: 'refund_answr',
    cassette: { path: 'recorded.jsonl', mode: 'record' },
  });
});
test('a known rubric reaches the judge', async () => {
  await expect('Your refund of $12 arrives on Friday.').toPassTribunal({
    rubric: 'refund_answer',
    cassette: { path: 'recorded.jsonl', mode: 'record' },
  });
});
test('matchers used correctly still pass', async () => {
  expect('traces/looping.json').toHaveSignal('TOOL_LOOP', { minConfidence: 0.5, severity: 'high' });
  expect('traces/clean.json').not.toHaveSignal('TOOL_LOOP');
  expect('traces/clean.json').toHaveNoSignals({ minSeverity: 'medium' });
  expect('traces/clean.json').toHaveWasteBelow(0);
  await expect('traces/clean.json').toMeetSessionThreshold({ reliability: 0.5 });
});
test('a custom detector, registered in a setup file', () => {
  expect('traces/refund.json').toHaveSignal('REFUND_WITHOUT_LOOKUP');
  expect('traces/clean.json').not.toHaveSignal('REFUND_WITHOUT_LOOKUP');
});
test('no waste at all (fails on purpose)', () => {
  expect('traces/refund.json').toHaveWasteBelow(0);
});
test('per-trace session signals', async () => {
  const healthy = [
    { traceId: 'a', signals: { confidence: 0.95, loop_detection: 1, tool_correctness: 0.9, coherence: 0.9 } },
    { traceId: 'b', signals: { confidence: 0.9 } },
  ];
  await expect(healthy).toMeetSessionThreshold({ reliability: 0.7 });
  await expect([{ traceId: 'c', signals: { confidence: 0.2, loop_detection: 0.1 } }]).not.toMeetSessionThreshold({ reliability: 0.5 });
});
test('a misspelt session signal', async () => {
  await expect([{ traceId: 'a', signals: { confidence: 0.9, loop_detecton: 1 } }]).toMeetSessionThreshold();
});
test('something that is no trace', async () => {
  await expect([{ question: 'hi', answer: 'hello' }]).toMeetSessionThreshold();
});
`;

const UNAWAITED = `
import { expect, test } from 'vitest';

test('a tribunal verdict not awaited, mid-file', () => {
  expect('Your refund arrives on Friday.').toPassTribunal({ rubric: 'refund_answer' });
});
test('a passing session score not awaited', () => {
  expect('traces/clean.json').toMeetSessionThreshold({ reliability: 0.5 });
});
test('a failing session score not awaited, last in its file', () => {
  expect('traces/looping.json').toMeetSessionThreshold({ reliability: 0.99 });
});
`;

/** `file:line` of the first line of `text` holding `needle` (1-based). */
function lineOf(text: string, needle: string): number {
  return text.split('\n').findIndex((l) => l.includes(needle)) + 1;
}

describe('matcher arguments and awaits in a real Vitest run', () => {
  let judge: FakeServer;
  let run: RunResult;
  let report: ReportLike;
  const firstError = (name: string): string => {
    const test = report.tests.find((t: { name: string }) => t.name.endsWith(`> ${name}`));
    if (!test) throw new Error(`no test ${name}`);
    return test.errors?.[0] ?? `(${test.state}, no error)`;
  };
  const stateOf = (name: string) =>
    report.tests.find((t: { name: string }) => t.name.endsWith(`> ${name}`))?.state;

  beforeAll(async () => {
    judge = await startFakeServer(() =>
      openaiReply({ score: 0.9, confidence: 0.9, passed: true, reasoning: 'states the amount and the day' }),
    );
    const project = createProject({
      'vitest.config.ts': configWith('{}', "setupFiles: ['./setup.ts']"),
      'setup.ts': SETUP,
      'detectors.ts': DETECTORS,
      'tracejury.yml': [
        'tribunal:',
        `  judges: [{ provider: openai, model: gpt-4o, baseURL: "${judge.openaiBaseURL}" }]`,
        '  rubrics:',
        '    refund_answer: The answer states the refund amount and the day it arrives.',
        '  cassette: { path: cassette.jsonl, mode: replay }',
        '',
      ].join('\n'),
      'traces/clean.json': nativeTrace('clean-1', 1),
      'traces/looping.json': nativeTrace('loop-1', 6),
      'traces/refund.json': REFUND,
      'args.test.ts': ARGS,
      'unawaited.test.ts': UNAWAITED,
    });
    run = await project.run([], { env: { OPENAI_API_KEY: 'test-key' } });
    report = project.readReport();
  }, 120_000);
  afterAll(async () => judge?.close());

  it('fails each mistaken call and passes the right ones beside them', () => {
    expect(run.code, run.output).toBe(1);
    expect(run.output).toMatch(/Tests\s+15 failed \| 4 passed/);
    for (const ok of [
      'a known rubric reaches the judge',
      'matchers used correctly still pass',
      'a custom detector, registered in a setup file',
      'per-trace session signals',
    ])
      expect([ok, stateOf(ok)]).toEqual([ok, 'passed']);
  });

  it('names an unknown detector id, negated or not, with the nearest one', () => {
    const unknown =
      'toHaveSignal: unknown detector "TOOL_LOP" — did you mean "TOOL_LOOP"? (a detector id is one of the built-in ones, e.g. TOOL_LOOP, or one of your own registered with registerDetectors())';
    expect(firstError('a misspelt detector id, negated')).toBe(unknown);
    expect(firstError('a misspelt detector id')).toBe(unknown);
  });

  it('names an unknown option key, a bad value and a wrong type, in the config errors’ words', () => {
    expect(firstError('a misspelt option key')).toBe(
      'toHaveSignal: unknown key "minConfidance" — did you mean "minConfidence"?',
    );
    expect(firstError('a misspelt threshold key')).toBe(
      'toMeetSessionThreshold: unknown key "reliabilty" — did you mean "reliability"?',
    );
    expect(firstError('a severity that is none')).toBe(
      'toHaveNoSignals: minSeverity: expected one of critical, high, medium, low, got the string "hi" — did you mean "high"?',
    );
    expect(firstError('dollars as a string')).toBe(
      'toHaveWasteBelow: usd: expected a number of dollars, got the string "0.01" (write toHaveWasteBelow(0.01), not a string)',
    );
    expect(firstError('a misspelt trajectory option')).toBe(
      'toMatchTrajectory: unknown key "ignor" — did you mean "ignore"?',
    );
    expect(firstError('a misspelt tribunal option')).toBe(
      'toPassTribunal: unknown key "rubrik" — did you mean "rubric"?',
    );
  });

  it('refuses a misspelt rubric name before any judge is asked', () => {
    expect(firstError('a misspelt rubric name')).toMatch(
      /^toPassTribunal: unknown rubric "refund_answr" — did you mean "refund_answer"\? \(built in: task_completion, .*; tribunal\.rubrics: refund_answer\)/,
    );
    // Only the call with the known rubric reached the judge (in record mode, as the misspelt one asked).
    expect(judge.requests).toHaveLength(1);
    expect(JSON.stringify(judge.requests[0]!.body)).toContain(
      'states the refund amount and the day it arrives',
    );
    expect(JSON.stringify(judge.requests.map((r) => r.body))).not.toContain('refund_answr');
  });

  it('accepts per-trace session signals, and names a misspelt one and a value that is no trace', () => {
    const scored = report.sessions.filter((s: { test: string }) =>
      s.test.endsWith('per-trace session signals'),
    );
    expect(scored.map((s: { metric: string; passed: boolean }) => [s.metric, s.passed])).toEqual([
      ['agent_reliability', true],
      ['agent_reliability', false],
    ]);
    expect(firstError('a misspelt session signal')).toBe(
      'toMeetSessionThreshold: unknown key "[0].signals.loop_detecton" — did you mean "loop_detection"?',
    );
    expect(firstError('something that is no trace')).toMatch(
      /^expected a trace \(from captureTrace, .*\), an array of traces, the path of a trace file, or raw trace records \(.*\), a glob of trace files, or per-trace session signals \(\{ traceId, signals: \{ confidence, loop_detection, tool_correctness, coherence \} \}\[\], as agentReliability takes\); got an array of 1 \(no trace format reads it\)$/,
    );
  });

  it('lists what wasted when toHaveWasteBelow(0) fails: detector, trace, dollars', () => {
    // The report's first line of the error brings the signal its colon announces.
    expect(firstError('no waste at all (fails on purpose)')).toBe(
      'expected trace refund-1 to have no waste, but it wastes $0.00042: REFUND_WITHOUT_LOOKUP (high, confidence 0.90, wastes $0.00042) at step 2: refund issued without a lookup',
    );
    expect(run.output).toContain(
      '- REFUND_WITHOUT_LOOKUP (high, confidence 0.90, wastes $0.00042) at step 2: refund issued without a lookup',
    );
  });

  it('fails a test that left an async matcher unawaited, naming it and its line', () => {
    const at = (needle: string) => `unawaited.test.ts:${lineOf(UNAWAITED, needle)}`;
    expect(firstError('a tribunal verdict not awaited, mid-file')).toMatch(
      new RegExp(
        `^toPassTribunal\\(…\\) at ${at("toPassTribunal({ rubric: 'refund_answer' })")}:\\d+ was not awaited \\((still running when the test ended; )?it failed: expected the tribunal to pass the response: INDETERMINATE \\(fail-closed\\): 1 of 1 judges could not judge$`,
      ),
    );
    expect(firstError('a passing session score not awaited')).toMatch(
      new RegExp(
        `^toMeetSessionThreshold\\(…\\) at ${at('reliability: 0.5 })')}:\\d+ was not awaited \\(.*it passed\\)$`,
      ),
    );
    expect(firstError('a failing session score not awaited, last in its file')).toMatch(
      new RegExp(
        `^toMeetSessionThreshold\\(…\\) at ${at('reliability: 0.99 })')}:\\d+ was not awaited \\(.*it failed: expected the session of 1 trace to meet its thresholds: agent_reliability 0\\.\\d\\d < 0\\.99$`,
      ),
    );
    expect(run.output).toContain('write `await expect(…).toMeetSessionThreshold(…)`');
    // The verdict's own failure is whole: the cassette miss and the exact command that records it.
    expect(run.output).toContain(
      'no cassette entry for gpt-4o (openai) in cassette.jsonl (replay mode); record it with OPENAI_API_KEY set: TRACEJURY_CASSETTE=record npx vitest run unawaited.test.ts',
    );
    expect(run.output).not.toMatch(/Unhandled/);
  });
});
