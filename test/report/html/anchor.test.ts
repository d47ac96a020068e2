import { describe, expect, it } from 'vitest';
import { fragmentParams, htmlReportAnchor, parseTraceAnchor } from '../../../src/report/html/anchor.js';

describe('htmlReportAnchor', () => {
  it('writes trace, file and detector, each encodeURIComponent-encoded', () => {
    expect(
      htmlReportAnchor({ traceId: 'checkout-003', file: 'runs/head.jsonl', detector: 'RETRY_STORM' }),
    ).toBe('#trace=checkout-003&file=runs%2Fhead.jsonl&detector=RETRY_STORM');
    expect(htmlReportAnchor({ traceId: 'a b' })).toBe('#trace=a%20b');
  });

  it('reads back every id, file and detector it writes, whatever characters they hold', () => {
    for (const traceId of ['a&b=c#d', '100%', 'ü ✓ 𝄞', '?x=1', '</script><img onerror=x>'])
      for (const file of [undefined, 'dir with space/f&g.jsonl', '#hash.json'])
        for (const detector of [undefined, 'TOOL_LOOP']) {
          const anchor = {
            traceId,
            ...(file !== undefined ? { file } : {}),
            ...(detector !== undefined ? { detector } : {}),
          };
          expect(parseTraceAnchor(htmlReportAnchor(anchor))).toEqual(anchor);
        }
  });

  it('names no trace in an address without one, and skips a value that does not decode', () => {
    expect(parseTraceAnchor('#findings?detector=X')).toBeUndefined();
    expect(parseTraceAnchor('')).toBeUndefined();
    expect(parseTraceAnchor('#trace=t&file=%E0%A4%A&detector=D')).toEqual({ traceId: 't', detector: 'D' });
    expect([...fragmentParams('trace=a&trace=b&=x&novalue')]).toEqual([['trace', 'a']]);
  });
});
