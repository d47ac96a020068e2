/**
 * toMeetSessionThreshold scores a session as `analyze` does: the same per-trace signals (failed
 * tool steps, input/output similarity, repeats within a recorded session, not only what the
 * detectors found) and tracejury.yml's `sessions:` weights and thresholds. Run in-process: the
 * matcher is called as `expect.extend` calls it, with a task to record into.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../src/analyze.js';
import { agentReliability } from '../../../src/session/agentReliability.js';
import { traceSignalsFromDetectors } from '../../../src/session/fromDetectorSignals.js';
import { createTraceAnalyser } from '../../../src/traceAnalyser.js';
import type { TraceInput } from '../../../src/trace/schema.js';
import { configureWorker } from '../../../vitest-plugin/worker/context.js';
import { toMeetSessionThreshold } from '../../../vitest-plugin/matchers/session.js';
import { metaOf, type TaskLike } from '../../../vitest-plugin/shared/meta.js';

const root = mkdtempSync(path.join(tmpdir(), 'tracejury-session-agreement-'));
const configFile = path.join(root, 'tracejury.yml');
writeFileSync(
  configFile,
  [
    'sessions:',
    '  reliabilityThreshold: 0.9',
    '  weights: { tool_correctness: 2.0, coherence: 0.5 }',
    '',
  ].join('\n'),
);

/** One turn of a support chat: an order lookup, and a text message to the customer that may fail. */
function turn(id: string, question: string, answer: string, smsFails: boolean): TraceInput {
  return {
    id,
    agentId: 'support',
    sessionId: 'chat-7',
    status: 'ok',
    input: question,
    output: answer,
    steps: [
      { type: 'llm', model: 'gpt-4o-mini', input: question, output: 'calling lookup_order' },
      {
        type: 'tool',
        name: 'lookup_order',
        args: { order: '1182' },
        status: 'ok',
        result: { status: 'shipped' },
      },
      {
        type: 'tool',
        name: 'send_sms',
        args: { to: 'customer', text: answer },
        ...(smsFails
          ? { status: 'error', error: '503 gateway unavailable' }
          : { status: 'ok', result: 'sent' }),
      },
      { type: 'llm', model: 'gpt-4o-mini', output: answer },
    ],
  };
}

const traces: TraceInput[] = [
  // Half its tool calls failed, though no detector fires on one failed call.
  turn(
    't1',
    'Where is my order 1182?',
    'Order 1182 shipped yesterday and arrives on Thursday by courier.',
    true,
  ),
  turn(
    't2',
    'Can it arrive sooner than Thursday?',
    'Express delivery is not offered for orders already shipped.',
    false,
  ),
  // The same answer again, word for word: a loop across the session's traces.
  turn(
    't3',
    'Can it arrive sooner than Thursday?',
    'Express delivery is not offered for orders already shipped.',
    false,
  ),
  turn(
    't4',
    'What is the tracking number?',
    'The tracking number is ZX-4471, on the courier site by tonight.',
    false,
  ),
];

afterAll(() => configureWorker(undefined));

describe('toMeetSessionThreshold agrees with analyze', () => {
  it('gives the session the scores of the report, with the config weights and threshold', async () => {
    const report = await analyze(traces, { baselines: false, configFile, cwd: root });
    const fromReport = Object.fromEntries(
      report.sessions.filter((s) => s.sessionId === 'chat-7').map((s) => [s.metric, s]),
    );
    expect(Object.keys(fromReport).sort()).toEqual(['agent_consistency', 'agent_reliability']);

    configureWorker({ root, configFile, stateDir: path.join(root, '.tracejury') });
    const task: TaskLike = { meta: {} };
    const result = await toMeetSessionThreshold.call({ isNot: false, task }, traces, {});
    const fromMatcher = Object.fromEntries(metaOf(task).sessions.map((s) => [s.metric, s]));

    for (const metric of ['agent_reliability', 'agent_consistency'] as const) {
      expect(fromMatcher[metric]!.score, metric).toBe(fromReport[metric]!.score);
      expect(fromMatcher[metric]!.passed, metric).toBe(fromReport[metric]!.passed);
    }
    // The default threshold is tracejury.yml's 0.9, which this session misses.
    expect(fromReport.agent_reliability!.passed).toBe(false);
    expect(result.pass).toBe(false);
    expect(result.message()).toMatch(/agent_reliability \d\.\d\d < 0\.9/);
  });

  it('counts what was measured of the traces, not only what the detectors found', async () => {
    configureWorker({ root, configFile, stateDir: path.join(root, '.tracejury') });
    const task: TaskLike = { meta: {} };
    await toMeetSessionThreshold.call({ isNot: false, task }, traces, { reliability: 0.5 });
    const score = metaOf(task).sessions.find((s) => s.metric === 'agent_reliability')!.score;
    // The detectors find nothing here; their findings alone (what the matcher used to score) would
    // rate this session higher.
    const analyser = createTraceAnalyser({ cwd: root, configFile, baselines: false });
    const detectorsOnly = traces.map((t) => {
      const a = analyser.analyse(t);
      return traceSignalsFromDetectors(a.trace.id, a.signals);
    });
    expect(detectorsOnly.every((t) => Object.values(t.signals).every((v) => v === 1))).toBe(true);
    const weights = analyser.config.sessions.weights;
    expect(score).toBeLessThan(agentReliability(detectorsOnly, { threshold: 0.5, weights }).score);
  });
});
