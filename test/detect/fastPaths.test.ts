/**
 * The hand-written fast paths of the detectors' hot helpers must give exactly what the plain
 * versions they replace give: thousands grouping vs toLocaleString, flat stable JSON vs the
 * sorting replacer, ISO timestamps vs Date.parse, prompt shapes vs prompt keys.
 */
import { describe, expect, it } from 'vitest';
import { fmtInt, fmtThousands, fmtX, stableJson } from '../../src/detect/detectors/structural/shared.js';
import { promptKey, promptShape, samePrompt } from '../../src/detect/detectors/waste/common.js';
import { measureTrace, parseIsoMs } from '../../src/trace/measure.js';
import type { LlmStep } from '../../src/trace/schema.js';
import { llm, makeTrace, tool } from '../helpers/traceBuilder.js';

describe('fmtThousands', () => {
  it('matches toLocaleString("en-US") for every finite number', () => {
    const values = [
      0,
      -0,
      1,
      -1,
      12,
      999,
      1000,
      -1000,
      1234,
      12345,
      123456,
      1234567,
      -7654321,
      2 ** 53 - 1,
      -(2 ** 53 - 1),
      2 ** 53,
      1e21,
      1.5,
      -0.25,
      1234.5678,
    ];
    for (const n of values) expect(fmtThousands(n)).toBe(n.toLocaleString('en-US'));
    // What toLocaleString writes as "NaN" or "∞" is never shown as a number.
    for (const n of [NaN, Infinity, -Infinity]) expect(fmtThousands(n)).toBe('n/a');
    for (const n of [0.4, -0.4, 2.5, -2.5, 1234.5, 999_999.5])
      expect(fmtInt(n)).toBe(Math.round(n).toLocaleString('en-US'));
  });
});

describe('stableJson', () => {
  const reference = (v: unknown) =>
    v === undefined
      ? ''
      : JSON.stringify(v, (_k, value: unknown) =>
          value && typeof value === 'object' && !Array.isArray(value)
            ? Object.fromEntries(
                Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
              )
            : value,
        );
  it('matches the sorting replacer', () => {
    const values: unknown[] = [
      undefined,
      null,
      'x',
      3,
      {},
      { b: 1, a: 'two', c: null, d: true },
      { q: 'he said "hi"\n' },
      { '10': 1, '9': 2, b: 3, a: 4 },
      { z: { y: 1, x: [2, { b: 1, a: 2 }] }, a: undefined },
      { n: NaN, m: -0, i: Infinity },
      [{ b: 1, a: 2 }],
      Object.assign(Object.create(null) as object, { b: 1, a: 2 }),
      { é: 1, e: 2, E: 3, _: 4 },
    ];
    for (const v of values) expect(stableJson(v)).toBe(reference(v));
  });
});

describe('parseIsoMs', () => {
  it('matches Date.parse', () => {
    const values = [
      '2026-11-01T10:00:00.000Z',
      '2026-11-01T10:00:00Z',
      '2024-02-29T23:59:59.999Z',
      '2024-02-30T00:00:00.000Z',
      '2024-01-31T00:00:00.000Z',
      '2024-01-01T24:00:00.000Z',
      '2024-01-01T23:59:60.000Z',
      '2024-13-01T00:00:00.000Z',
      '0050-01-01T00:00:00.000Z',
      '2024-01-01T10:00:00.000+02:00',
      '2024-01-01 10:00:00.000Z',
      '2024-01-0xT10:00:00.000Z',
      '2024-01-01',
      'yesterday',
    ];
    for (const s of values) expect(parseIsoMs(s)).toStrictEqual(Date.parse(s));
    for (let t = -1e12; t < 4e12; t += 7_777_777_777) {
      const iso = new Date(t).toISOString();
      expect(parseIsoMs(iso)).toBe(Date.parse(iso));
      expect(parseIsoMs(`${iso.slice(0, 19)}Z`)).toBe(Date.parse(`${iso.slice(0, 19)}Z`));
    }
  });
  it('matches Date.parse on every day from 1599 to 2401, leap days and century years included', () => {
    const DAY = 86_400_000;
    let mismatches = 0;
    for (let t = Date.UTC(1599, 0, 1), i = 0; t < Date.UTC(2402, 0, 1); t += DAY, i++) {
      // A different time of day each day, so hours, minutes, seconds and milliseconds vary too.
      const iso = new Date(t + ((i * 7_919_993) % DAY)).toISOString();
      if (parseIsoMs(iso) !== Date.parse(iso)) mismatches++;
    }
    expect(mismatches).toBe(0);
  });
  it('reads a date-time without a zone as UTC, whatever the machine’s time zone', () => {
    const saved = process.env.TZ;
    try {
      for (const tz of ['America/New_York', 'Asia/Kolkata', 'UTC']) {
        process.env.TZ = tz;
        expect(parseIsoMs('2026-11-01T10:00:00')).toBe(Date.UTC(2026, 10, 1, 10));
        expect(parseIsoMs('2026-11-01 10:00:00.250')).toBe(Date.UTC(2026, 10, 1, 10, 0, 0, 250));
        expect(parseIsoMs('2026-11-01T10:00')).toBe(Date.UTC(2026, 10, 1, 10));
        // A zone, when given, is kept.
        expect(parseIsoMs('2026-11-01T10:00:00+02:00')).toBe(Date.UTC(2026, 10, 1, 8));
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it('matches Date.parse on days 29–32 of every month, including days the month does not have', () => {
    // Node's Date.parse carries February 31 over into March; day 32 is no date at all.
    const mismatches: string[] = [];
    for (let year = 1599; year <= 2401; year++) {
      for (let month = 1; month <= 12; month++) {
        for (const day of [0, 29, 30, 31, 32]) {
          const iso = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T23:59:59.999Z`;
          if (!Object.is(parseIsoMs(iso), Date.parse(iso))) mismatches.push(iso);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe('promptShape', () => {
  const step = (input: LlmStep['input']) =>
    makeTrace([llm(input === undefined ? {} : { input })]).steps[0] as LlmStep;
  it('is equal whenever prompt keys are, and undefined exactly when they are', () => {
    const steps = [
      step(undefined),
      step('  hello '),
      step('hello'),
      step('hellO'),
      step([{ role: 'user', content: 'hello' }]),
      step([{ role: 'user', content: ' hello ' }]),
      step([{ role: 'assistant', content: 'hello' }]),
      step([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hel' },
            { type: 'text', text: 'lo' },
          ],
        },
      ]),
      step([
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hello' },
      ]),
    ];
    for (const a of steps) {
      expect(promptShape(a) === undefined).toBe(promptKey(a) === undefined);
      for (const b of steps) {
        const sameKey = promptKey(a) !== undefined && promptKey(a) === promptKey(b);
        if (sameKey) expect(promptShape(a)).toBe(promptShape(b));
        expect(samePrompt(a, b)).toBe(sameKey);
      }
    }
  });
});

describe('measureTrace', () => {
  it('measures a trace again once steps were added', () => {
    const trace = makeTrace([llm(), tool('search')]);
    expect(measureTrace(trace).stepCount).toBe(2);
    trace.steps.push(makeTrace([tool('read')]).steps[0]!);
    expect(measureTrace(trace).stepCount).toBe(3);
    expect(measureTrace(trace).toolCalls).toBe(2);
  });
});

describe('fmtX', () => {
  it('never prints a factor as a whole number it is not', () => {
    expect([2, 3.25, 1.01, 2.04, 1.999, 0.996, 12.34, 2_000].map(fmtX)).toEqual([
      '2×',
      '3.3×',
      '1.01×',
      '2.04×',
      '2×',
      '1×',
      '12.3×',
      '2,000×',
    ]);
  });
});
