import { describe, expect, it } from 'vitest';
import type { DetectorMeta, SignalDraft } from '../../src/detect/detector.js';
import { wasteDetectors } from '../../src/detect/detectors/waste/index.js';
import { detectors } from '../../src/detect/registry.js';
import { applyWasteSuppression } from '../../src/detect/suppression.js';
import { WASTE_PRIORITY, wastePriority, type WasteChargingId } from '../../src/detect/wastePriority.js';
import { wasteTotals } from '../../src/report/wasteTotals.js';
import { createPricer } from '../../src/pricing/pricer.js';
import type { Trace } from '../../src/trace/schema.js';
import { calls, repeat } from './waste/fixtures.js';

type Meta = Pick<DetectorMeta, 'id' | 'priority' | 'suppressedBy'>;
const sig = (wasteUsd: number, steps = [1]): SignalDraft => ({
  confidence: 0.9,
  steps,
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
      ['OVERKILL_MODEL', 10, ['FALLBACK_STORM', 'FALLBACK_FAILURE']],
    ]);
  });

  it('a retry loop claims the trace: storms and fallback failures are suppressed by RETRY_LOOP', () => {
    const out = applyWasteSuppression(results({ RETRY_LOOP: 1, FALLBACK_STORM: 2, FALLBACK_FAILURE: 3 }));
    expect(suppressedBy(out)).toEqual({
      RETRY_LOOP: [null],
      FALLBACK_STORM: ['RETRY_LOOP'],
      FALLBACK_FAILURE: ['RETRY_LOOP'],
    });
    expect(counted(out)).toEqual({ usd: 1, tokens: 10 });
  });

  // The reference's table: `overkill_model: suppress_if_retry_loop: false  # Independent of retry
  // patterns`. Independent, but a call the loop already charged is not charged again.
  it('overkill is independent of a retry loop, except on the calls the loop charged', () => {
    const loop: SignalDraft = { ...sig(1, [1, 2, 3, 4]), evidence: { wastedSteps: [2, 3, 4] } };
    const out = applyWasteSuppression([
      { meta: metaOf('RETRY_LOOP'), signals: [loop] },
      { meta: metaOf('OVERKILL_MODEL'), signals: [1, 2, 3, 4, 5].map((n) => sig(0.25, [n])) },
    ]);
    expect(suppressedBy(out)).toEqual({
      RETRY_LOOP: [null],
      OVERKILL_MODEL: [null, 'RETRY_LOOP', 'RETRY_LOOP', 'RETRY_LOOP', null],
    });
    expect(counted(out)).toEqual({ usd: 1.5, tokens: 30 });
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

  it('detectors without suppressedBy are independent on other steps', () => {
    const out = applyWasteSuppression([
      { meta: { id: 'A', priority: 1, suppressedBy: [] }, signals: [sig(1, [1])] },
      { meta: { id: 'B', priority: 2 }, signals: [sig(2, [2])] },
    ]);
    expect(out.flatMap((r) => r.signals).map((s) => s.suppressedBy)).toEqual([undefined, undefined]);
  });

  it('…but never charge a step a higher-priority claimer charged (its wastedSteps, else its steps)', () => {
    const out = applyWasteSuppression([
      { meta: { id: 'A', priority: 1 }, signals: [{ ...sig(1, [1, 2]), evidence: { wastedSteps: [2] } }] },
      { meta: { id: 'B', priority: 2 }, signals: [sig(2, [1]), sig(2, [2]), sig(2, [3])] },
      { meta: { id: 'C', priority: 3 }, signals: [sig(3, [3]), sig(3, [4])] },
    ]);
    expect(out.map((r) => r.signals.map((s) => s.suppressedBy ?? null))).toEqual([
      [null],
      [null, 'A', null],
      ['B', null],
    ]);
  });

  it('a suppressed detector does not claim the trace', () => {
    const out = applyWasteSuppression([
      { meta: { id: 'A', priority: 1 }, signals: [sig(1)] },
      { meta: { id: 'B', priority: 2, suppressedBy: ['A'] }, signals: [sig(2)] },
      { meta: { id: 'C', priority: 3, suppressedBy: ['B'] }, signals: [sig(3, [2])] },
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

  it('a shadow detector never suppresses a live one: live marks are those with it disabled', () => {
    const live = (present: Record<string, number>) =>
      results(present).map((r) => ({ ...r, shadow: r.meta.id === 'RETRY_LOOP' }));
    const out = applyWasteSuppression(live({ RETRY_LOOP: 1, FALLBACK_STORM: 2, FALLBACK_FAILURE: 3 }));
    const disabled = applyWasteSuppression(results({ FALLBACK_STORM: 2, FALLBACK_FAILURE: 3 }));
    expect(suppressedBy(out)).toEqual({
      RETRY_LOOP: [null],
      FALLBACK_STORM: [null],
      FALLBACK_FAILURE: ['FALLBACK_STORM'],
    });
    expect(suppressedBy(out.filter((r) => !r.shadow))).toEqual(suppressedBy(disabled));
    // Nor through the charged-steps rule.
    const steps = applyWasteSuppression([
      { meta: { id: 'A', priority: 1 }, signals: [sig(1, [1])], shadow: true },
      { meta: { id: 'B', priority: 2 }, signals: [sig(2, [1])] },
    ]);
    expect(steps.map((r) => r.signals[0]!.suppressedBy)).toEqual([undefined, undefined]);
  });

  it('a shadow signal is marked as it would be live: suppressed by a live or shadow claimer', () => {
    const out = applyWasteSuppression([
      { meta: metaOf('RETRY_LOOP'), signals: [sig(1)] },
      { meta: metaOf('FALLBACK_STORM'), signals: [sig(2)], shadow: true },
      { meta: metaOf('FALLBACK_FAILURE'), signals: [sig(3)], shadow: true },
      { meta: metaOf('OVERKILL_MODEL'), signals: [sig(4, [2])], shadow: true },
    ]);
    expect(suppressedBy(out)).toEqual({
      RETRY_LOOP: [null],
      FALLBACK_STORM: ['RETRY_LOOP'],
      FALLBACK_FAILURE: ['RETRY_LOOP'],
      OVERKILL_MODEL: [null],
    });
    const shadowOnly = applyWasteSuppression([
      { meta: metaOf('FALLBACK_FAILURE'), signals: [sig(3)], shadow: true },
      { meta: metaOf('OVERKILL_MODEL'), signals: [sig(4)], shadow: true },
    ]);
    expect(suppressedBy(shadowOnly)).toEqual({
      FALLBACK_FAILURE: [null],
      OVERKILL_MODEL: ['FALLBACK_FAILURE'],
    });
  });

  it('only confirmed signals claim the trace: a gray-zone one can be suppressed but suppresses nothing', () => {
    const gray = { ...sig(3), confidence: 0.5 };
    const out = applyWasteSuppression([
      { meta: metaOf('FALLBACK_FAILURE'), signals: [gray] },
      { meta: metaOf('OVERKILL_MODEL'), signals: [{ ...sig(4), confidence: 0.8 }] },
    ]);
    expect(suppressedBy(out)).toEqual({ FALLBACK_FAILURE: [null], OVERKILL_MODEL: [null] });
    expect(counted(out).usd).toBe(4);
    // At the threshold is still gray (confirmed is > 0.65).
    const edge = applyWasteSuppression([
      { meta: metaOf('FALLBACK_FAILURE'), signals: [{ ...sig(3), confidence: 0.65 }] },
      { meta: metaOf('OVERKILL_MODEL'), signals: [sig(4)] },
    ]);
    expect(suppressedBy(edge)).toEqual({ FALLBACK_FAILURE: [null], OVERKILL_MODEL: [null] });
    const under = applyWasteSuppression([
      { meta: metaOf('RETRY_LOOP'), signals: [sig(1)] },
      { meta: metaOf('FALLBACK_FAILURE'), signals: [gray] },
    ]);
    expect(suppressedBy(under)).toEqual({ RETRY_LOOP: [null], FALLBACK_FAILURE: ['RETRY_LOOP'] });
  });

  it('only confirmed signals reserve their charged steps', () => {
    const out = applyWasteSuppression([
      { meta: { id: 'A', priority: 1 }, signals: [{ ...sig(1, [1]), confidence: 0.5 }, sig(1, [2])] },
      { meta: { id: 'B', priority: 2 }, signals: [sig(2, [1]), sig(2, [2])] },
    ]);
    expect(out.map((r) => r.signals.map((s) => s.suppressedBy ?? null))).toEqual([
      [null, null],
      [null, 'A'],
    ]);
  });

  const allWaste = (trace: Trace) => {
    const pricer = createPricer();
    return applyWasteSuppression(
      wasteDetectors.map((d) => ({
        meta: d.meta,
        signals: d.detect(trace, { config: d.meta.config.parse({}), pricer }),
      })),
    );
  };

  it('end to end: a gpt-4 retry loop on a short prompt: the loop charges the repeats, overkill the first call', () => {
    const out = allWaste(
      calls(repeat(4, 1, { model: 'gpt-4', prompt: 'Validate token', in: 19, out: 5, cost: 0.0015 })),
    );
    expect(suppressedBy(out)).toEqual({
      RETRY_LOOP: [null],
      OVERKILL_MODEL: [null, 'RETRY_LOOP', 'RETRY_LOOP', 'RETRY_LOOP'],
    });
    // 3 × $0.0015, plus $0.0015 − (19 × $0.40 + 5 × $1.60) / 1M on the first call (gpt-4.1-mini, the
    // default alternative for OpenAI): under the $0.006 spent.
    const totals = counted(out);
    expect(totals.usd).toBeCloseTo(0.0045 + 0.0015 - 0.0000156, 10);
    expect(totals.usd).toBeLessThanOrEqual(0.006);
    expect(totals.tokens).toBe(3 * 24 + 24);
  });

  it("end to end: the reference's retry example (20-token prompt) is a retry loop only: 20 tokens is not <20", () => {
    const out = allWaste(
      calls(repeat(4, 1, { model: 'gpt-4', prompt: 'Validate user login', in: 20, out: 5, cost: 0.0015 })),
    );
    expect(suppressedBy(out)).toEqual({ RETRY_LOOP: [null] });
    expect(counted(out).usd).toBeCloseTo(0.0045, 10);
  });
});

describe('structural detectors charge waste at the level of the call', () => {
  const meta = (id: WasteChargingId, kind: 'waste' | 'structural') => ({
    id,
    kind,
    priority: wastePriority(id),
    suppressedBy: [] as string[],
  });
  const charging = (steps: number[], confidence = 0.9): SignalDraft => ({
    confidence,
    steps: [100],
    message: 'x',
    evidence: { wastedSteps: steps },
  });

  it('every detector with a priority is in WASTE_PRIORITY, at its place, and says what it charges', () => {
    const withPriority = detectors.filter((d) => d.meta.priority !== undefined);
    expect(withPriority.map((d) => d.meta.id).sort()).toEqual([...WASTE_PRIORITY].sort());
    for (const d of withPriority) {
      expect(d.meta.priority).toBe(WASTE_PRIORITY.indexOf(d.meta.id as WasteChargingId) + 1);
      expect(d.meta.wasteRule, d.meta.id).toMatch(/\w{3}/);
    }
    // CASCADING_TOOL_FAILURE charges nothing: its calls are different calls, none a repeat.
    expect(detectors.find((d) => d.meta.id === 'CASCADING_TOOL_FAILURE')?.meta.priority).toBeUndefined();
  });

  it('a structural signal is never suppressed: it leaves the calls a claimer charged to it', () => {
    const out = applyWasteSuppression([
      {
        meta: meta('RETRY_LOOP', 'waste'),
        signals: [{ ...sig(1, [1, 2, 3]), evidence: { wastedSteps: [2, 3] } }],
      },
      { meta: meta('TOOL_LOOP', 'structural'), signals: [charging([3, 5])] },
    ]);
    const loop = out[1]!.signals[0]!;
    expect(loop.suppressedBy).toBeUndefined();
    expect(loop.evidence).toEqual({ wastedSteps: [5], wasteChargedBy: { RETRY_LOOP: [3] } });
  });

  it('a confirmed structural signal reserves its calls for those after it; a gray-zone one does not', () => {
    const after = (confidence: number) =>
      applyWasteSuppression([
        { meta: meta('RETRY_STORM', 'structural'), signals: [charging([3, 5], confidence)] },
        { meta: meta('TOOL_LOOP', 'structural'), signals: [charging([3, 5, 7])] },
        { meta: meta('OVERKILL_MODEL', 'waste'), signals: [sig(0.1, [5]), sig(0.1, [9])] },
      ]);
    const confirmed = after(0.9);
    expect(confirmed[1]!.signals[0]!.evidence).toEqual({
      wastedSteps: [7],
      wasteChargedBy: { RETRY_STORM: [3, 5] },
    });
    expect(confirmed[2]!.signals.map((s) => s.suppressedBy ?? null)).toEqual(['RETRY_STORM', null]);
    const gray = after(0.5);
    expect(gray[0]!.signals[0]!.evidence).toEqual({ wastedSteps: [3, 5] });
    expect(gray[1]!.signals[0]!.evidence).toEqual({ wastedSteps: [3, 5, 7] });
    expect(gray[2]!.signals.map((s) => s.suppressedBy ?? null)).toEqual(['TOOL_LOOP', null]);
  });

  it('two signals of one detector never charge one call: the later one names its own detector', () => {
    const out = applyWasteSuppression([
      { meta: meta('TOOL_LOOP', 'structural'), signals: [charging([3, 5]), charging([5, 7])] },
    ]);
    expect(out[0]!.signals.map((s) => s.evidence)).toEqual([
      { wastedSteps: [3, 5] },
      { wastedSteps: [7], wasteChargedBy: { TOOL_LOOP: [5] } },
    ]);
  });
});
