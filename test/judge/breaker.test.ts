import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTribunalSession, type JudgeSpec } from '../../src/judge/index.js';
import { byModel, errorReply, openaiReply, startFakeServer, type FakeServer } from './fakeServers.js';

let srv: FakeServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('circuit breaker', () => {
  it('trips after ≥ 10 verdicts with > 10 % INDETERMINATE and falls back to stages 0–1', async () => {
    let failing = false;
    srv = await startFakeServer((req) =>
      failing && req.model === 'gpt-4o-mini'
        ? errorReply(503)
        : openaiReply({ score: 0.9, confidence: 0.9, passed: true }),
    );
    const judges: JudgeSpec[] = ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1'].map((model) => ({
      provider: 'openai',
      model,
      baseURL: srv!.openaiBaseURL,
    }));
    const session = createTribunalSession({
      judges,
      cassette: false,
      memoryCache: false,
      env: { OPENAI_API_KEY: 'k' },
      maxRetries: 0,
    });
    const run = (i: number) => session.evaluate({ response: `response ${i}`, traceId: `t${i}` });

    // 8 good verdicts, then 2 indeterminate: 10 verdicts, 20 % indeterminate.
    for (let i = 0; i < 8; i++) expect((await run(i)).passed).toBe(true);
    failing = true;
    expect((await run(8)).indeterminate).toBe(true);
    expect(session.stats().circuitOpen).toBe(false); // only 9 verdicts so far
    expect((await run(9)).indeterminate).toBe(true);
    expect(session.stats()).toMatchObject({ verdicts: 10, indeterminate: 2, circuitOpen: true });

    const before = srv.requests.length;
    const v = await run(10);
    expect(srv.requests.length).toBe(before);
    expect(v).toMatchObject({ circuitOpen: true, indeterminate: true, passed: false, judges: [] });
    expect(v.stages).toEqual([0]);
    expect(v.reason).toMatch(/circuit breaker open: 2 of 10 verdicts/);

    // Stage 1 still decides schema failures while the breaker is open.
    const bad = await session.evaluate({ response: { n: -1 }, schema: z.object({ n: z.number().min(0) }) });
    expect(bad).toMatchObject({ passed: false, indeterminate: false });
    expect(bad.reason).toContain('$.n: must be >= 0');

    const stats = session.stats();
    expect(stats.circuitOpenVerdicts).toBe(1);
    expect(stats.judgeCalls).toBe(30);
    expect(Object.keys(stats.costByModel).sort()).toEqual([
      'openai:gpt-4.1',
      'openai:gpt-4o',
      'openai:gpt-4o-mini',
    ]);
    expect(stats.costByModel['openai:gpt-4o']!.calls).toBe(10);
    expect(stats.judgeUsd).toBeGreaterThan(0);
    expect(stats.judgeUsd).toBeCloseTo(Object.values(stats.costByModel).reduce((s, c) => s + c.usd, 0));
  });

  it('does not trip below 10 verdicts even at 100 % INDETERMINATE', async () => {
    srv = await startFakeServer(byModel({ 'gpt-4o': errorReply(500) }));
    const session = createTribunalSession({
      judges: [{ provider: 'openai', model: 'gpt-4o', baseURL: srv.openaiBaseURL }],
      cassette: false,
      memoryCache: false,
      env: { OPENAI_API_KEY: 'k' },
      maxRetries: 0,
    });
    for (let i = 0; i < 9; i++) await session.evaluate({ response: `r${i}` });
    expect(session.stats()).toMatchObject({ verdicts: 9, indeterminate: 9, circuitOpen: false });
    expect(srv.requests).toHaveLength(9);
  });
});
