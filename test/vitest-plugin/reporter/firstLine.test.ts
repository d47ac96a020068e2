/** The first line of a test's error, as the report's tests[].errors and the gate's reason quote it. */
import { describe, expect, it } from 'vitest';
import { firstLine } from '../../../vitest-plugin/reporter/firstLine.js';

describe("a test error's first line", () => {
  it('is the first non-blank line, trimmed', () => {
    expect(firstLine('\n  expected 1 to be 2  \nmore')).toBe('expected 1 to be 2');
    expect(firstLine(undefined)).toBe('');
  });

  it('takes the line a colon announces, rather than stop at the colon', () => {
    const message =
      'expected trace t1 not to have a TOOL_LOOP signal, but it has 3:\n' +
      '  - TOOL_LOOP (high, confidence 0.94) at steps 4, 6, 8: track_shipment called 3×\n' +
      '  fix TOOL_LOOP: cache tool results';
    expect(firstLine(message)).toBe(
      'expected trace t1 not to have a TOOL_LOOP signal, but it has 3: TOOL_LOOP (high, confidence 0.94) at steps 4, 6, 8: track_shipment called 3×',
    );
    expect(firstLine('nothing follows:')).toBe('nothing follows:');
  });
});
