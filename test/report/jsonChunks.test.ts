import { describe, expect, it } from 'vitest';
import { reportJsonChunks } from '../../src/report/jsonChunks.js';

describe('reportJsonChunks', () => {
  it('writes exactly what JSON.stringify(report, null, 2) writes, in pieces', () => {
    const signals = Array.from({ length: 3000 }, (_, i) => ({
      detector: 'TOOL_LOOP',
      traceId: `t${i}`,
      steps: [1, 2, 3],
      message: `line one\nline "two" ${'x'.repeat(400)}`,
      evidence: { nested: { deep: [{ a: 1 }, []], empty: {} }, skipped: undefined },
      wasteUsd: undefined,
    }));
    const report = {
      schemaVersion: 1,
      inputs: { files: 1, errors: [], formats: { native: 2 } },
      traces: [{ id: 'a', tokens: { input: 1, output: 2 } }],
      signals,
      sessions: [],
      gate: { passed: false, reasons: ['x'] },
      notes: [],
      absent: undefined,
    };
    const chunks = [...reportJsonChunks(report)];
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(`${JSON.stringify(report, null, 2)}\n`);
  });

  it('writes empty and scalar members as JSON.stringify does', () => {
    const report = {
      a: [],
      b: {},
      c: null,
      d: 'x',
      e: [null, 1, 'two', true, [], {}, [[]], undefined, new Date(0)],
      f: { g: [], h: { i: [{ j: 'ünï\u2028"\n' }] }, k: new Date(1) },
    };
    const text = [...reportJsonChunks(report)].join('');
    // JSON.stringify's text, but U+2028 written as an escape (jsonText.ts): the same value back.
    expect(text).toBe(`${JSON.stringify(report, null, 2).replace('\u2028', '\\u2028')}\n`);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(report)));
  });
});
