import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { parseConfig } from '../../src/config/config.js';
import { findDetector } from '../../src/detect/registry.js';
import { renderMarkdown } from '../../src/report/renderMarkdown.js';
import { mdText } from '../../src/redact/markdown.js';
import { groupSignals } from '../../src/report/summarise.js';
import { renderText } from '../../src/report/renderText.js';
import { llm, makeTrace, tool } from '../helpers/traceBuilder.js';

/** Many traces, each firing RETRY_STORM, TOOL_LOOP and more: several signals per detector group. */
async function busyReport() {
  const fail = tool('cancel_subscription', { status: 'error', error: '403 Forbidden' });
  const traces = Array.from({ length: 6 }, (_, i) =>
    makeTrace([llm(), fail, fail, fail, fail, llm()], { id: `run-${i}` }),
  );
  return analyze(traces, { config: parseConfig(''), baselines: false });
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('fix hints in reports', () => {
  it('text shows each detector group’s hint exactly once, under its signals', async () => {
    const report = await busyReport();
    const groups = groupSignals(report);
    expect(groups.length).toBeGreaterThanOrEqual(2);
    expect(groups.some((g) => g.count + g.shadow + g.grayZone + g.suppressed >= 6)).toBe(true);
    const text = renderText(report);
    const lines = text.split('\n');
    for (const g of groups) {
      const fix = findDetector(g.detector)!.meta.fix;
      expect(count(text, fix)).toBe(1);
      // Below the group's header line and before the next group's.
      const header = lines.findIndex((l) => l.startsWith(`  ${g.detector} `));
      const at = lines.findIndex((l) => l.includes(fix));
      expect(at).toBeGreaterThan(header);
      expect(lines[at]).toBe(`      fix: ${fix}`);
      expect(lines.slice(header + 1, at).every((l) => l.startsWith('      '))).toBe(true);
    }
  });

  it('markdown shows each detector group’s hint exactly once, outside the folded examples', async () => {
    const report = await busyReport();
    const md = renderMarkdown(report);
    const folded = md.indexOf('<details>');
    for (const g of groupSignals(report)) {
      const fix = mdText(findDetector(g.detector)!.meta.fix).source;
      expect(count(md, fix)).toBe(1);
      expect(md).toContain(`- **\`${g.detector}\`**: ${fix}`);
      expect(md.indexOf(fix)).toBeLessThan(folded);
    }
    expect(count(md, '**What to do**')).toBe(1);
  });

  it('takes hints for custom detectors from fixFor, and prints none when there is none', async () => {
    const report = await busyReport();
    const text = renderText(report, { fixFor: (id) => (id === 'RETRY_STORM' ? 'custom hint' : undefined) });
    expect(count(text, 'fix: ')).toBe(1);
    expect(text).toContain('      fix: custom hint');
    const md = renderMarkdown(report, { fixFor: () => undefined });
    expect(md).not.toContain('What to do');
  });

  it('a report with no signals prints no hints', async () => {
    const report = await analyze([makeTrace([llm()])], { config: parseConfig(''), baselines: false });
    expect(renderText(report)).not.toContain('fix:');
    expect(renderMarkdown(report)).not.toContain('What to do');
  });
});
