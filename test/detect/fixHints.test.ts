import { describe, expect, it } from 'vitest';
import * as lib from '../../src/index.js';
import { detectors, findDetector } from '../../src/detect/registry.js';

describe('fix hints', () => {
  it.each(detectors.map((d) => [d.meta.id, d] as const))('%s has a one-line fix hint', (_id, d) => {
    const fix = d.meta.fix;
    expect(typeof fix).toBe('string');
    expect(fix.trim().length).toBeGreaterThan(20);
    expect(fix.length).toBeLessThanOrEqual(110);
    expect(fix).not.toMatch(/[\r\n]/);
    // A hint says what to do; it is not the description again.
    expect(fix).not.toBe(d.meta.description);
    // No retired models in a suggestion.
    expect(fix).not.toMatch(/gpt-3\.5|claude-2|claude-instant|text-davinci/i);
  });

  it('are distinct: each detector says its own thing', () => {
    expect(new Set(detectors.map((d) => d.meta.fix)).size).toBe(detectors.length);
  });

  it('can be looked up from the library by id or config key', () => {
    expect(lib.findDetector).toBe(findDetector);
    expect(lib.findDetector('RETRY_STORM')?.meta.fix).toMatch(/retr/);
    expect(lib.findDetector('overkill_model')?.meta.fix).toMatch(/cheaper model/);
  });
});
