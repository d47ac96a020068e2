/**
 * The agent run live (offline: its model is scripted) under captureTrace: each test gets the trace
 * of the spans the run emitted and checks how the agent got to its answer, not only the answer.
 */
import { describe, expect, test } from 'vitest';
import { captureTrace } from 'tracejury/vitest';
import { createSupportAgent } from '../agent.js';

describe('order-support agent', () => {
  test('answers where a shipped order is, with no wasted calls', { repeats: 2 }, async () => {
    const agent = createSupportAgent();
    const trace = await captureTrace(() => agent.run('Where is my order 4412?'));

    expect(trace.output).toContain('Leipzig');
    expect(trace).toHaveNoSignals();
    expect(trace).toHaveWasteBelow(0.001);
    expect(trace).toMatchTrajectory(
      [
        { name: 'lookup_order', args: { orderId: '4412' } },
        { name: 'track_shipment', args: { trackingNumber: '1Z999AA10123456784' } },
      ],
      { mode: 'strict' },
    );
  });

  test('does not track an order that has not shipped', async () => {
    const trace = await captureTrace(() => createSupportAgent().run('Has order 5120 shipped yet?'));

    expect(trace).not.toHaveSignal('TOOL_LOOP');
    expect(trace).toMatchTrajectory([{ name: 'lookup_order' }], { mode: 'strict' });
  });

  test('a flaky carrier API makes it retry the same call: the loop is caught', async () => {
    const agent = createSupportAgent({ carrierFailures: 3 });
    const trace = await captureTrace(() => agent.run('Where is my order 4412?'));

    expect(trace).toHaveSignal('TOOL_LOOP', { minConfidence: 0.65 });
    // Without the failed attempts, the calls are the ones a healthy run makes.
    expect(trace).toMatchTrajectory([{ name: 'lookup_order' }, { name: 'track_shipment' }], {
      mode: 'strict',
      ignore: { failedCalls: true },
    });
  });

  test('the answer passes the tribunal of judges (replayed from the cassette)', async () => {
    const trace = await captureTrace(() => createSupportAgent().run('Where is my order 4412?'));

    await expect(trace).toPassTribunal({ rubric: 'order_status' });
  });

  test('a session of five runs is reliable and consistent', async () => {
    const questions = [
      'Where is my order 4412?',
      'Has order 5120 shipped yet?',
      'Can you track order 4412 for me?',
      'Is 5120 on its way?',
      'Where is my parcel? Order 4412.',
    ];
    const traces = [];
    for (const question of questions)
      traces.push(await captureTrace(() => createSupportAgent().run(question)));

    await expect(traces).toMeetSessionThreshold({ reliability: 0.5, consistency: 0.5 });
  });
});
