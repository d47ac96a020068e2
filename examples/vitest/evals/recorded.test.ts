/**
 * Recorded traces (../traces: the recordings bundled with tracejury, in three formats) as tests:
 * describeTraces gives each recording its own test, named by its trace id; loadTraces hands a
 * test every trace of a file at once.
 */
import { describe, expect, test } from 'vitest';
import { describeTraces, loadTraces } from 'tracejury/vitest';

// No recording may have a critical finding or waste 5 cents, whatever else it shows.
describeTraces('../traces/*.jsonl', (trace) => {
  expect(trace).toHaveNoSignals({ minSeverity: 'critical' });
  expect(trace).toHaveWasteBelow(0.05);
});

describe('the docs assistant, from a Langfuse export', () => {
  test('one of its two runs lets the prompt grow 7.7×: CONTEXT_BLOAT', async () => {
    const [healthy, bloated] = await loadTraces('../traces/langfuse-export.json');

    expect(healthy).toHaveNoSignals();
    expect(bloated).toHaveSignal('CONTEXT_BLOAT', { severity: 'medium' });
    expect(bloated).not.toHaveSignal('TOOL_LOOP');
    // Reliability is read from the worst runs (session-metrics.md): one bloated run of two sinks it.
    await expect([healthy, bloated]).not.toMeetSessionThreshold({ reliability: 0.5 });
  });
});
