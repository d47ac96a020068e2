import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { parseConfig } from '../../src/config/config.js';
import { calls, repeat } from './waste/fixtures.js';

// Five identical gpt-4o calls (a retry loop), then two fallbacks to other expensive models (a storm).
const P = 'Summarise the quarterly report for the board in three bullet points please, concise.';
const trace = () =>
  calls([
    ...repeat(5, 10, { model: 'gpt-4o', prompt: P, in: 2000, out: 300 }),
    { model: 'claude-3-opus-20240229', prompt: P, t: 50, in: 2000, out: 300 },
    { model: 'gpt-4-turbo', prompt: P, t: 60, in: 2000, out: 300 },
  ]);
const run = async (retryLoop: string) => {
  const report = await analyze([trace()], {
    config: parseConfig(`default:\n  retry_loop: ${retryLoop}\n`),
    baselines: false,
  });
  const waste = report.signals.filter((s) => s.wasteUsd !== undefined);
  return {
    marks: waste.map((s) => [s.detector, s.shadow, s.suppressedBy ?? null]),
    live: waste.filter((s) => !s.shadow).map((s) => [s.detector, s.suppressedBy ?? null]),
    waste: report.waste,
  };
};

describe('runner: waste detectors in shadow mode', () => {
  it('a shadow retry loop is reported but leaves the live findings as with it disabled', async () => {
    const live = await run('{}');
    expect(live.marks).toEqual([
      ['RETRY_LOOP', false, null],
      ['FALLBACK_STORM', false, 'RETRY_LOOP'],
      ['FALLBACK_FAILURE', false, 'RETRY_LOOP'],
    ]);
    const off = await run('{enabled: false}');
    const shadow = await run('{shadow: true}');
    expect(shadow.marks).toEqual([
      ['RETRY_LOOP', true, null],
      ['FALLBACK_STORM', false, null],
      ['FALLBACK_FAILURE', false, 'FALLBACK_STORM'],
    ]);
    expect(shadow.live).toEqual(off.live);
    expect(shadow.waste).toEqual(off.waste);
    expect(shadow.waste.totalUsd).toBeGreaterThan(0);
  });
});
