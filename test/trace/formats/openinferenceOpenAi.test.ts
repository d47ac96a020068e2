import { describe, expect, it } from 'vitest';
import { expectLoopFlagged, expectRun, loadRun } from '../../helpers/realLibraryRun.js';

describe("OpenInference's OpenAI instrumentation + traceAgent/traceTool (millisecond starts)", () => {
  const path = 'openinference/openai-agent.json';

  it('reads the run in causal order although a tool and the next LLM call start in one millisecond', async () => {
    const loaded = await loadRun(path);
    const { trace } = loaded;
    // The fixture has the tie this test is about: a tool span and an LLM span, from different
    // instrumentation scopes, with the same start.
    const starts = trace.steps.map((s) => s.startedAt);
    expect(new Set(starts).size).toBeLessThan(starts.length);
    expectRun(loaded);
    expect(loaded.source.format).toBe('openinference');
    expect(trace.steps[0]).toMatchObject({ model: 'gpt-4o-mini-2024-07-18', provider: 'openai' });
    expect(trace.output).toBe('Order A1 ships tomorrow; it is 18°C and sunny in Paris.');
  });

  it('raises a loop signal', async () => {
    await expectLoopFlagged(path);
  });
});
