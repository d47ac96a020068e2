/**
 * Table-driven detector tester, after ESLint's RuleTester: every detector lists `valid` traces
 * (must not fire) and `invalid` traces (must fire, with the expected steps / severity / waste).
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { BaselineValue, DetectContext, Detector, SignalDraft } from '../../src/detect/detector.js';
import type { Severity } from '../../src/detect/signal.js';
import { createPricer, type PriceOverrides } from '../../src/pricing/pricer.js';
import type { Trace } from '../../src/trace/schema.js';

export interface CaseOptions {
  /** Settings merged over the detector's defaults. */
  config?: Record<string, unknown>;
  baseline?: BaselineValue;
  inflationFactor?: number;
  prices?: PriceOverrides;
}

export interface ValidCase extends CaseOptions {
  name: string;
  trace: Trace;
}

export interface ExpectedSignal {
  steps?: number[];
  severity?: Severity;
  /** Substring (or pattern) the message must contain. */
  message?: string | RegExp;
  confidence?: number;
  wasteUsd?: number;
  wasteTokens?: number;
}

export interface InvalidCase extends CaseOptions {
  name: string;
  trace: Trace;
  /** One entry per expected signal, in order. */
  signals: ExpectedSignal[];
}

export function contextFor<C extends z.ZodObject>(
  detector: Detector<C>,
  opts: CaseOptions,
): DetectContext<z.infer<C>> {
  return {
    config: detector.meta.config.parse(opts.config ?? {}) as z.infer<C>,
    pricer: createPricer(opts.prices),
    baseline: opts.baseline,
    inflationFactor: opts.inflationFactor,
  };
}

export function runDetector<C extends z.ZodObject>(
  detector: Detector<C>,
  trace: Trace,
  opts: CaseOptions = {},
): SignalDraft[] {
  return detector.detect(trace, contextFor(detector, opts));
}

export function testDetector<C extends z.ZodObject>(
  detector: Detector<C>,
  cases: { valid: ValidCase[]; invalid: InvalidCase[] },
): void {
  describe(detector.meta.id, () => {
    it('has cases on both sides of its threshold', () => {
      expect(cases.valid.length).toBeGreaterThan(0);
      expect(cases.invalid.length).toBeGreaterThan(0);
    });
    for (const c of cases.valid) {
      it(`valid: ${c.name}`, () => {
        expect(runDetector(detector, c.trace, c)).toEqual([]);
      });
    }
    for (const c of cases.invalid) {
      it(`invalid: ${c.name}`, () => {
        const got = runDetector(detector, c.trace, c);
        expect(got).toHaveLength(c.signals.length);
        c.signals.forEach((want, i) => {
          const s = got[i]!;
          expect(s.message.length).toBeGreaterThan(0);
          expect(s.confidence).toBeGreaterThanOrEqual(0);
          expect(s.confidence).toBeLessThanOrEqual(1);
          if (want.steps) expect(s.steps).toEqual(want.steps);
          if (want.severity) expect(s.severity ?? detector.meta.severity).toBe(want.severity);
          if (want.message) {
            if (typeof want.message === 'string') expect(s.message).toContain(want.message);
            else expect(s.message).toMatch(want.message);
          }
          if (want.confidence !== undefined) expect(s.confidence).toBeCloseTo(want.confidence, 5);
          if (want.wasteUsd !== undefined) expect(s.wasteUsd).toBeCloseTo(want.wasteUsd, 8);
          if (want.wasteTokens !== undefined) expect(s.wasteTokens).toBe(want.wasteTokens);
        });
      });
    }
  });
}
