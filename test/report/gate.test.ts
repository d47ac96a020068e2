import { describe, expect, it } from 'vitest';
import { evaluateGate, NO_INPUT_REASON } from '../../src/report/gate.js';
import { signal } from '../helpers/signalBuilder.js';

const sig = signal;

describe('gate', () => {
  it('fails when no trace was analysed, saying so', () => {
    expect(evaluateGate([], ['critical', 'high'], 0)).toEqual({ passed: false, reasons: [NO_INPUT_REASON] });
    expect(evaluateGate([], ['critical', 'high'], 1)).toEqual({ passed: true, reasons: [] });
  });

  it('fails on a confirmed high or critical signal by default, naming the detector', () => {
    expect(evaluateGate([sig({}), sig({})], ['critical', 'high'], 1)).toEqual({
      passed: false,
      reasons: ['TOOL_LOOP: 2 high signals'],
    });
  });

  it('passes on medium signals by default and fails when failOn includes medium', () => {
    const s = [sig({ severity: 'medium', detector: 'SLOW_STEP' })];
    expect(evaluateGate(s, ['critical', 'high'], 1).passed).toBe(true);
    expect(evaluateGate(s, ['critical', 'high', 'medium'], 1).reasons).toEqual([
      'SLOW_STEP: 1 medium signal',
    ]);
  });

  it('never fails on shadow, suppressed or gray-zone signals', () => {
    const s = [sig({ shadow: true }), sig({ suppressedBy: 'RETRY_LOOP' }), sig({ confidence: 0.5 })];
    expect(evaluateGate(s, ['critical', 'high'], 1)).toEqual({ passed: true, reasons: [] });
  });
});
