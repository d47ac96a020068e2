import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { analyze } from '../../src/analyze.js';
import { parseConfig } from '../../src/config/config.js';
import { defineDetector } from '../../src/detect/detector.js';
import { toolLoop } from '../../src/detect/detectors/structural/toolLoop.js';
import { evaluateGate, NO_INPUT_REASON } from '../../src/report/gate.js';
import { signal } from '../helpers/signalBuilder.js';
import { llm, makeTrace } from '../helpers/traceBuilder.js';

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

  it('counts each severity of a detector, worst first, and orders reasons worst first', () => {
    const slow = (severity: 'critical' | 'high' | 'medium') => sig({ severity, detector: 'SLOW_STEP' });
    const all = ['critical', 'high', 'medium'] as const;
    expect(evaluateGate([slow('medium'), slow('high')], all, 1).reasons).toEqual([
      'SLOW_STEP: 1 high and 1 medium signal',
    ]);
    expect(
      evaluateGate(
        [slow('medium'), slow('critical'), slow('high'), slow('medium'), slow('critical'), slow('medium')],
        all,
        1,
      ).reasons,
    ).toEqual(['SLOW_STEP: 2 critical, 1 high and 3 medium signals']);
    // A detector with fewer but worse signals comes before one with more, milder ones.
    const s = [
      sig({ severity: 'medium', detector: 'A_MILD' }),
      sig({ severity: 'medium', detector: 'A_MILD' }),
      sig({ severity: 'medium', detector: 'A_MILD' }),
      sig({ severity: 'high', detector: 'Z_BAD' }),
      sig({ severity: 'medium', detector: 'M_MIXED' }),
      sig({ severity: 'high', detector: 'M_MIXED' }),
    ];
    expect(evaluateGate(s, all, 1).reasons).toEqual([
      'M_MIXED: 1 high and 1 medium signal',
      'Z_BAD: 1 high signal',
      'A_MILD: 3 medium signals',
    ]);
  });

  it('never fails on shadow, suppressed or gray-zone signals', () => {
    const s = [sig({ shadow: true }), sig({ suppressedBy: 'RETRY_LOOP' }), sig({ confidence: 0.5 })];
    expect(evaluateGate(s, ['critical', 'high'], 1)).toEqual({ passed: true, reasons: [] });
  });

  it('fails closed when a detector threw: a crashed check found nothing because it did not look', () => {
    const failures = [
      { detector: 'REASONING_STALL', traceId: 'a' },
      { detector: 'COST_SPIKE', traceId: 'a' },
      { detector: 'REASONING_STALL', traceId: 'b' },
    ];
    expect(evaluateGate([sig({})], ['critical', 'high'], 2, failures)).toEqual({
      passed: false,
      reasons: [
        'REASONING_STALL failed on 2 traces (a tracejury bug; see notes)',
        'COST_SPIKE failed on 1 trace (a tracejury bug; see notes)',
        'TOOL_LOOP: 1 high signal',
      ],
    });
    expect(evaluateGate([], ['critical', 'high'], 1, [])).toEqual({ passed: true, reasons: [] });
  });
});

describe('gate of analyze() when a detector throws', () => {
  const boom = defineDetector({
    meta: {
      id: 'BOOM',
      configKey: 'boom',
      tier: 1,
      kind: 'structural',
      severity: 'low',
      failureMode: 'bug',
      description: 'always throws',
      fix: 'fix the bug',
      config: z.object({}),
    },
    detect: () => {
      throw new RangeError('Maximum call stack size exceeded');
    },
  });

  it('fails, naming the detector and the traces, with a note for each detector', async () => {
    const traces = [makeTrace([llm()], { id: 'r1' }), makeTrace([llm()], { id: 'r2' })];
    const report = await analyze(traces, {
      config: parseConfig(''),
      baselines: false,
      detectors: [boom, toolLoop],
    });
    expect(report.signals).toEqual([]);
    expect(report.gate).toEqual({
      failOn: ['critical', 'high'],
      passed: false,
      reasons: ['BOOM failed on 2 traces (a tracejury bug; see notes)'],
    });
    expect(report.notes).toContain(
      'detector BOOM failed on trace r1: Maximum call stack size exceeded (please report this)',
    );
  });

  it('notes every failing detector even past the first 20 failures, and counts the rest', async () => {
    const late = defineDetector({
      meta: { ...boom.meta, id: 'BOOM_LATE', configKey: 'boom_late' },
      detect: (trace) => {
        if (trace.id === 'r24') throw new Error('late bug');
        return [];
      },
    });
    const traces = Array.from({ length: 25 }, (_, i) => makeTrace([llm()], { id: `r${i}` }));
    const report = await analyze(traces, {
      config: parseConfig(''),
      baselines: false,
      detectors: [boom, late],
    });
    expect(report.gate.reasons).toEqual([
      'BOOM failed on 25 traces (a tracejury bug; see notes)',
      'BOOM_LATE failed on 1 trace (a tracejury bug; see notes)',
    ]);
    expect(report.notes).toContain('detector BOOM_LATE failed on trace r24: late bug (please report this)');
    expect(report.notes).toContain('5 more detector failures are not listed');
  });
});
