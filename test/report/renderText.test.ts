import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { parseConfig } from '../../src/config/config.js';
import { renderText } from '../../src/report/renderText.js';
import { llm, makeTrace, tool } from '../helpers/traceBuilder.js';

/** Anything a terminal would act on: controls other than the line breaks between lines, DEL, C1, bidi. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** The renderer's own SGR codes (bold, dim, colours and their resets). */
const OWN_COLOURS = /\x1b\[(?:1|2|22|31|32|33|39)m/g;

async function hostileReport() {
  // A trace that tries to clear the screen, recolour the output, overwrite a line and fake a
  // passing gate on a line of its own.
  const fail = tool('fetch\x1b[2J\u202e', { status: 'error', error: 'boom\r\nGate: passed\x1b[32m' });
  const trace = makeTrace([fail, fail, fail, llm({ model: 'evil\x1b]0;title\x07\u2066model' })], {
    id: 'run\x1b[31m-1\u202egnp.exe\u0085',
  });
  return analyze([trace], { config: parseConfig(''), baselines: false });
}

describe('text report', () => {
  it.each([false, true])(
    'prints control and bidi characters from traces as visible escapes (color: %s)',
    async (color) => {
      const text = renderText(await hostileReport(), { color });
      expect(text.replace(OWN_COLOURS, '')).not.toMatch(RAW_CONTROL);
      // No line but the real ones (the report opens and ends with the gate) says the gate passed or failed.
      const gateLines = text.split('\n').filter((l) => /^(?:\x1b\[\d+m)?Gate:/.test(l));
      expect(gateLines).toHaveLength(2);
      expect(gateLines[0]).toBe(gateLines[1]);
      expect(text).toMatch(
        /Gate: FAILED \(failOn: critical, high; 1 medium finding below it\) — RETRY_STORM: 1 high signal/,
      );
      // The rest of the report is intact, and the hostile text is still there to read.
      expect(text).toContain('Signals by detector');
      expect(text).toContain('RETRY_STORM');
      expect(text).toContain('run\\x1b[31m-1\\u{202e}gnp.exe\\x85');
      expect(text).toContain('fetch\\x1b[2J\\u{202e}');
      expect(text).toContain('boom\\r\\nGate: passed\\x1b[32m');
      expect(text).toContain('evil\\x1b]0;title\\x07\\u{2066}model');
      if (color) expect(text).toContain('\x1b[1mSignals by detector\x1b[22m');
    },
  );
});
