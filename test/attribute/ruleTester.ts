/**
 * Table-driven tester for attribution rules, after ESLint's RuleTester: each rule lists `valid`
 * runs (it names no step) and `invalid` ones (it names these steps, with these message ids and
 * data). Inputs are deep-frozen, so a rule that writes to the trace or the signals throws; a case
 * repeated under another name, and a message id no case exercises, are errors of the test table.
 */
import { describe, expect, it } from 'vitest';
import { attributionContext } from '../../src/attribute/candidates.js';
import { attributionSettings, type AttributionSection } from '../../src/attribute/config.js';
import type { AttributionRule, CandidateDraft, Strength } from '../../src/attribute/rule.js';
import type { Signal } from '../../src/detect/signal.js';
import type { Trace } from '../../src/trace/schema.js';

export interface RuleCase {
  name: string;
  trace: Trace;
  /** The signals detection left (what rules that read findings see). */
  signals?: Signal[];
  settings?: AttributionSection;
}

export interface ExpectedCandidate {
  step: number;
  messageId: string;
  /** Keys that must be in the candidate's data with these values (others are not checked). */
  data?: Record<string, string | number>;
  strength?: Strength;
  effect?: { step: number; messageId: string };
}

export interface InvalidRuleCase extends RuleCase {
  candidates: ExpectedCandidate[];
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const v of Object.values(value)) deepFreeze(v);
  return Object.freeze(value);
}

export function runRule(rule: AttributionRule, c: RuleCase): CandidateDraft[] {
  const trace = deepFreeze(structuredClone(c.trace));
  const signals = deepFreeze(structuredClone(c.signals ?? []));
  return rule.find(attributionContext(trace, signals, attributionSettings(c.settings)));
}

export function testRule(
  rule: AttributionRule,
  cases: { valid: RuleCase[]; invalid: InvalidRuleCase[] },
): void {
  describe(rule.meta.id, () => {
    it('has cases on both sides, none repeated, and every message exercised', () => {
      expect(cases.valid.length).toBeGreaterThan(0);
      expect(cases.invalid.length).toBeGreaterThan(0);
      const all = [...cases.valid, ...cases.invalid];
      expect(new Set(all.map((c) => c.name)).size).toBe(all.length);
      const inputs = all.map((c) => JSON.stringify([c.trace, c.signals ?? [], c.settings ?? {}]));
      expect(new Set(inputs).size).toBe(inputs.length);
      const used = new Set(
        cases.invalid.flatMap((c) => c.candidates.flatMap((k) => [k.messageId, k.effect?.messageId])),
      );
      expect(Object.keys(rule.meta.messages).filter((id) => !used.has(id))).toEqual([]);
    });
    for (const c of cases.valid) {
      it(`valid: ${c.name}`, () => {
        expect(runRule(rule, c)).toEqual([]);
      });
    }
    for (const c of cases.invalid) {
      it(`invalid: ${c.name}`, () => {
        const got = runRule(rule, c);
        expect(got.map((g) => ({ step: g.step, messageId: g.messageId }))).toEqual(
          c.candidates.map((k) => ({ step: k.step, messageId: k.messageId })),
        );
        c.candidates.forEach((want, i) => {
          const g = got[i]!;
          expect(rule.meta.messages[g.messageId]).toBeDefined();
          expect(g.confidence).toBeGreaterThan(0);
          expect(g.confidence).toBeLessThanOrEqual(1);
          if (want.data) expect(g.data).toMatchObject(want.data);
          if (want.strength) expect(g.strength).toBe(want.strength);
          if (want.effect) expect(g.effect).toMatchObject(want.effect);
          else expect(g.effect).toBeUndefined();
        });
      });
    }
  });
}
