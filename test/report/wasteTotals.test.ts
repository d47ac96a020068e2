import { describe, expect, it } from 'vitest';
import { wasteTotals, type WasteCountable } from '../../src/report/wasteTotals.js';

const s = (fields: Partial<WasteCountable>): WasteCountable => ({
  detector: 'RETRY_LOOP',
  confidence: 0.9,
  shadow: false,
  wasteUsd: 0.01,
  wasteTokens: 100,
  ...fields,
});

describe('waste totals', () => {
  it('adds confirmed waste per detector', () => {
    expect(
      wasteTotals([s({}), s({ detector: 'OVERKILL_MODEL', wasteUsd: 0.002, wasteTokens: 7 }), s({})]),
    ).toEqual({
      totalUsd: 0.022,
      totalTokens: 207,
      byDetector: {
        RETRY_LOOP: { usd: 0.02, tokens: 200, signals: 2 },
        OVERKILL_MODEL: { usd: 0.002, tokens: 7, signals: 1 },
      },
    });
  });

  it('leaves out suppressed, shadow and gray-zone waste (shown per signal, not added up)', () => {
    const t = wasteTotals([
      s({ suppressedBy: 'RETRY_LOOP', detector: 'OVERKILL_MODEL' }),
      s({ shadow: true }),
      s({ confidence: 0.5, detector: 'FALLBACK_FAILURE' }),
      s({ wasteUsd: undefined }),
    ]);
    expect(t).toEqual({ totalUsd: 0, totalTokens: 0, byDetector: {} });
  });
});
