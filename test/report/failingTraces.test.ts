/**
 * The report a CI user reads names every trace that failed the gate, right under the gate line,
 * with its file and steps; every list that is cut says how many were left out and where to see them.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { renderMarkdown } from '../../src/report/renderMarkdown.js';
import { renderText } from '../../src/report/renderText.js';
import type { TraceInput } from '../../src/trace/schema.js';

const loop = (id: string): TraceInput => ({
  id,
  steps: [1, 2, 3, 4].map(() => ({ type: 'tool', name: 'search_docs', args: { q: 'refund' }, status: 'ok' })),
});
const storm = (id: string): TraceInput => ({
  id,
  steps: [1, 2, 3].map(() => ({
    type: 'tool',
    name: 'charge_card',
    args: { amount: 5 },
    status: 'error',
    error: '402',
  })),
});

describe('failing traces under the gate', () => {
  it('lists each failing trace once per finding, grouped by detector when there are many', async () => {
    const traces = [
      ...Array.from({ length: 9 }, (_, i) => loop(`loop-${i}`)),
      ...Array.from({ length: 4 }, (_, i) => storm(`storm-${i}`)),
    ];
    const report = await analyze(traces, { config: {}, baselines: false });
    expect(report.gate.passed).toBe(false);
    const text = renderText(report);
    const lines = text.split('\n');
    const gateAt = lines.findIndex((l) => l.startsWith('Gate: FAILED (failOn: critical, high'));
    const signalsAt = lines.indexOf('Signals by detector');
    expect(gateAt).toBeGreaterThan(0);
    expect(gateAt).toBeLessThan(signalsAt);
    const underGate = lines.slice(gateAt + 1, signalsAt).join('\n');
    for (const t of traces) expect(underGate).toContain(`${t.id} (<input>[`);
    expect(underGate).toMatch(/ {2}× TOOL_LOOP \(13 traces\)/);
    expect(underGate).toMatch(/steps 1–4/);
    // Examples per detector are cut to 3, and say so.
    expect(text).toMatch(/ {6}… and 10 more \(see --format json or --limit\)/);

    const md = renderMarkdown(report);
    const rows = md
      .split('\n')
      .filter((l) => /^\| `(TOOL_LOOP|RETRY_STORM)` \| /.test(l) && l.includes('&lt;input>'));
    expect(rows.length).toBeGreaterThanOrEqual(13);
    expect(md).toMatch(/Gate: failOn: critical, high/);
  });

  it('cuts a long list of failing traces and says how many were left out', async () => {
    const report = await analyze(
      Array.from({ length: 30 }, (_, i) => loop(`l-${i}`)),
      { config: {}, baselines: false },
    );
    const text = renderText(report, { maxFailing: 10 });
    expect(text).toContain('  … and 20 more failing traces (see --format json or --limit)');
  });

  it('states the threshold when the gate passes with findings below it', async () => {
    const report = await analyze([loop('a')], {
      config: { failOn: 'critical', sessions: { failGate: false } },
      baselines: false,
    });
    expect(report.gate.passed).toBe(true);
    expect(renderText(report)).toMatch(/Gate: passed \(failOn: critical; \d+ high findings? below it\)/);
  });
});

describe('--limit', () => {
  it('sets how many items every list of the text report shows', async () => {
    const report = await analyze(
      Array.from({ length: 8 }, (_, i) => loop(`l-${i}`)),
      { config: {}, baselines: false },
    );
    const text = renderText(report, { limit: 2 });
    expect(text).toContain('  … and 6 more failing traces (see --format json or --limit)');
    expect(text).toMatch(/ {6}… and 6 more \(see --format json or --limit\)/);
    const all = renderText(report, { limit: 100 });
    expect(all).not.toMatch(/… and \d+ more/);
  });
});
