import { describe, expect, it } from 'vitest';
import type { DetectorMeta, SignalDraft } from '../../src/detect/detector.js';
import { wasteDetectors } from '../../src/detect/detectors/waste/index.js';
import { applyWasteSuppression } from '../../src/detect/suppression.js';
import { wasteTotals } from '../../src/report/wasteTotals.js';
import { createPricer } from '../../src/pricing/pricer.js';
import type { Trace } from '../../src/trace/schema.js';
import { calls, repeat } from './waste/fixtures.js';

type Meta = Pick<DetectorMeta, 'id' | 'priority' | 'suppressedBy'>;
const sig = (wasteUsd: number): SignalDraft => ({
  confidence: 0.9,
  steps: [1],
  message: 'x',
  wasteUsd,
  wasteTokens: 10,
});
const metaOf = (id: string): Meta => wasteDetectors.find((d) => d.meta.id === id)!.meta;
const ids = ['RETRY_LOOP', 'FALLBACK_STORM', 'FALLBACK_FAILURE', 'OVERKILL_MODEL'];

/** Signals per waste detector on one trace, in priority order. */
function results(present: Record<string, number>) {
  return ids.map((id) => ({ meta: metaOf(id), signals: present[id] ? [sig(present[id]!)] : [] }));
}
/** What the report's totals count of these results (the one rule, in src/report/wasteTotals.ts). */
const counted = (out: { meta: Meta; signals: SignalDraft[] }[]) => {
  const t = wasteTotals(
    out.flatMap((r) => r.signals.map((s) => ({ ...s, detector: r.meta.id, shadow: false }))),
  );
  return { usd: t.totalUsd, tokens: t.totalTokens };
};
const suppressedBy = (out: { meta: Meta; signals: SignalDraft[] }[]) =>
  Object.fromEntries(
    out.filter((r) => r.signals.length).map((r) => [r.meta.id, r.signals.map((s) => s.suppressedBy ?? null)]),
  );

describe('applyWasteSuppression', () => {
  it('exports the waste detectors in priority order with their suppression rules', () => {
    expect(wasteDetectors.map((d) => [d.meta.id, d.meta.priority, d.meta.suppressedBy])).toEqual([
      ['RETRY_LOOP', 1, []],
      ['FALLBACK_STORM', 2, ['RETRY_LOOP']],
      ['FALLBACK_FAILURE', 3, ['RETRY_LOOP', 'FALLBACK_STORM']],
      ['OVERKILL_MODEL', 4, ['RETRY_LOOP', 'FALLBACK_STORM', 'FALLBACK_FAILURE']],
    ]);
  });

  it('a retry loop claims the trace: every lower detector is suppressed by RETRY_LOOP', () => {
    const out = applyWasteSuppression(
      results({ RETRY_LOOP: 1, FALLBACK_STORM: 2, FALLBACK_FAILURE: 3, OVERKILL_MODEL: 4 }),
    );
    expect(suppressedBy(out)).toEqual({
      RETRY_LOOP: [null],
      FALLBACK_STORM: ['RETRY_LOOP'],
      FALLBACK_FAILURE: ['RETRY_LOOP'],
      OVERKILL_MODEL: ['RETRY_LOOP'],
    });
    expect(counted(out)).toEqual({ usd: 1, tokens: 10 });
  });

  it('a storm suppresses the fallback failure on the same calls and the overkill', () => {
    const out = applyWasteSuppression(results({ FALLBACK_STORM: 2, FALLBACK_FAILURE: 3, OVERKILL_MODEL: 4 }));
    expect(suppressedBy(out)).toEqual({
      FALLBACK_STORM: [null],
      FALLBACK_FAILURE: ['FALLBACK_STORM'],
      OVERKILL_MODEL: ['FALLBACK_STORM'],
    });
  });

  it('a fallback failure suppresses overkill on its trace', () => {
    const out = applyWasteSuppression(results({ FALLBACK_FAILURE: 3, OVERKILL_MODEL: 4 }));
    expect(suppressedBy(out)).toEqual({ FALLBACK_FAILURE: [null], OVERKILL_MODEL: ['FALLBACK_FAILURE'] });
  });

  it('overkill alone is counted', () => {
    const out = applyWasteSuppression(results({ OVERKILL_MODEL: 4 }));
    expect(suppressedBy(out)).toEqual({ OVERKILL_MODEL: [null] });
    expect(counted(out).usd).toBe(4);
  });

  it('detectors without suppressedBy are independent', () => {
    const out = applyWasteSuppression([
      { meta: { id: 'A', priority: 1, suppressedBy: [] }, signals: [sig(1)] },
      { meta: { id: 'B', priority: 2 }, signals: [sig(2)] },
    ]);
    expect(out.flatMap((r) => r.signals).map((s) => s.suppressedBy)).toEqual([undefined, undefined]);
  });

  it('a suppressed detector does not claim the trace', () => {
    const out = applyWasteSuppression([
      { meta: { id: 'A', priority: 1 }, signals: [sig(1)] },
      { meta: { id: 'B', priority: 2, suppressedBy: ['A'] }, signals: [sig(2)] },
      { meta: { id: 'C', priority: 3, suppressedBy: ['B'] }, signals: [sig(3)] },
    ]);
    expect(out.map((r) => r.signals[0]!.suppressedBy)).toEqual([undefined, 'A', undefined]);
  });

  it('names the highest-priority claimer, sorts by priority, keeps input order and does not mutate', () => {
    const input = [
      { meta: metaOf('OVERKILL_MODEL'), signals: [sig(4)] },
      { meta: metaOf('FALLBACK_FAILURE'), signals: [sig(3)] },
      { meta: metaOf('RETRY_LOOP'), signals: [sig(1)] },
    ];
    const before = JSON.stringify(input);
    const out = applyWasteSuppression(input);
    expect(out.map((r) => [r.meta.id, r.signals[0]!.suppressedBy])).toEqual([
      ['OVERKILL_MODEL', 'RETRY_LOOP'],
      ['FALLBACK_FAILURE', 'RETRY_LOOP'],
      ['RETRY_LOOP', undefined],
    ]);
    expect(JSON.stringify(input)).toBe(before);
  });

  it('end to end: a gpt-4 retry loop on a short prompt is charged once, as a retry loop', () => {
    const trace: Trace = calls(
      repeat(4, 1, { model: 'gpt-4', prompt: 'Validate token', in: 20, out: 5, cost: 0.0015 }),
    );
    const pricer = createPricer();
    const out = applyWasteSuppression(
      wasteDetectors.map((d) => ({
        meta: d.meta,
        signals: d.detect(trace, { config: d.meta.config.parse({}), pricer }),
      })),
    );
    expect(suppressedBy(out)).toEqual({ RETRY_LOOP: [null], OVERKILL_MODEL: Array(4).fill('RETRY_LOOP') });
    const totals = counted(out);
    expect(totals.usd).toBeCloseTo(0.0045, 10);
    expect(totals.tokens).toBe(75);
  });
});
