import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { parseConfig } from '../../src/config/config.js';
import { renderMarkdown } from '../../src/report/renderMarkdown.js';
import { renderText } from '../../src/report/renderText.js';
import { makeTrace, tool } from '../helpers/traceBuilder.js';

const hostileId = '<img src=x onerror=alert(1)> @octocat **bold** | sk-proj-abcdefghijklmnopqrstuvwx';

async function reportWithLoop(id = hostileId) {
  const trace = makeTrace(
    [1, 2, 3, 4].map(() => tool('search_docs', { args: { q: 'same' } })),
    { id },
  );
  return analyze([trace], { config: parseConfig(''), baselines: false });
}

describe('markdown report', () => {
  it('groups signals by detector in a table and says why the gate failed', async () => {
    const md = renderMarkdown(await reportWithLoop('t-1'));
    expect(md).toMatch(/^### tracejury ❌ failed/);
    expect(md).toContain('| `TOOL_LOOP` | high | 1 | 1 | – |');
    expect(md).toContain('- TOOL\\_LOOP: 1 high signal');
  });

  it('escapes and redacts trace content: no HTML, no mentions, no table breaks, no keys', async () => {
    const md = renderMarkdown(await reportWithLoop());
    expect(md).not.toContain('<img');
    expect(md).not.toContain('@octocat');
    expect(md).not.toContain('sk-proj-abcdefghijklmnopqrstuvwx');
    expect(md).toContain('\\[REDACTED\\]');
    const exampleLine = md.split('\n').find((l) => l.startsWith('- `TOOL_LOOP`'))!;
    expect(exampleLine).toContain('\\|');
  });

  it('shows how many signals of each severity a detector row holds when they differ', async () => {
    const report = await reportWithLoop('t-1');
    const loop = report.signals[0]!;
    report.signals.push(
      { ...loop, traceId: 't-2', severity: 'medium' },
      { ...loop, traceId: 't-3', severity: 'medium' },
    );
    expect(renderMarkdown(report)).toContain('| `TOOL_LOOP` | high | 3 (1 high, 2 medium) | 3 | – |');
    expect(renderText(report)).toMatch(/TOOL_LOOP +high +3 in 3 traces +\(1 high, 2 medium\)/);
    // One severity: nothing added.
    expect(renderText(await reportWithLoop('t-1'))).toMatch(/TOOL_LOOP +high +1 in 1 trace\n/);
  });

  it('shows the worst severity of the signals a row counts, not of a suppressed one', async () => {
    const report = await reportWithLoop('t-1');
    const loop = report.signals[0]!;
    report.signals = [
      { ...loop, traceId: 't-0', severity: 'critical', suppressedBy: 'RETRY_LOOP' },
      { ...loop, traceId: 't-1', severity: 'medium' },
    ];
    expect(renderMarkdown(report)).toContain('| `TOOL_LOOP` | medium | 1 | 1 | – |');
    expect(renderText(report)).toMatch(/TOOL_LOOP +medium +1 in 1 trace +\(1 suppressed\)/);
  });

  it('names the detector of each case for review', async () => {
    const report = await reportWithLoop('t-1');
    report.review = [
      { traceId: 't-9', detector: 'TOOL_LOOP', reason: 'confidence 0.55 is in the gray zone' },
    ];
    expect(renderMarkdown(report)).toContain('- `TOOL_LOOP` t-9: confidence 0.55 is in the gray zone');
  });

  it('marks shadow signals and shadow cases for review one by one, in text and markdown', async () => {
    const report = await reportWithLoop('t-1');
    const loop = report.signals[0]!;
    report.signals = [loop, { ...loop, traceId: 't-2', shadow: true }];
    report.review = [{ traceId: 't-3', detector: 'SLOW_STEP', reason: 'gray', shadow: true }];
    const text = renderText(report);
    expect(text).toMatch(/\n {6}\[shadow\] t-2 \(/);
    expect(text).toMatch(/\n {6}t-1 \(/);
    expect(text).toContain('  [shadow] SLOW_STEP t-3: gray');
    const md = renderMarkdown(report);
    expect(md).toContain('- `TOOL_LOOP` _(shadow)_ t-2 (');
    expect(md).toContain('- `TOOL_LOOP` t-1 (');
    expect(md).toContain('- `SLOW_STEP` _(shadow)_ t-3: gray');
  });

  it('shows no empty Examples block when every signal is for review', async () => {
    const report = await reportWithLoop('t-1');
    report.signals = report.signals.map((s) => ({ ...s, confidence: 0.5 }));
    const md = renderMarkdown(report);
    expect(md).toContain('| `TOOL_LOOP` |');
    expect(md).not.toContain('<summary>Examples</summary>');
  });

  it('never shows an unpriced run as free', async () => {
    const report = await reportWithLoop('t-1');
    report.totals = {
      ...report.totals,
      llmCalls: 4,
      costUsd: 0,
      unknownModels: [{ model: 'acme', calls: 4 }],
    };
    expect(renderText(report)).toContain('Cost: unknown over 4 LLM calls');
    expect(renderMarkdown(report)).toContain('cost **unknown**');
    report.totals = { ...report.totals, costUsd: 0.5, unknownModels: [{ model: 'acme', calls: 1 }] };
    expect(renderText(report)).toContain('Cost: $0.5000 (+ 1 unpriced call) over 4 LLM calls');
  });

  it('prints unpriced model names escaped, not as broken code spans', async () => {
    const report = await reportWithLoop('t-1');
    report.totals.unknownModels = [{ model: 'acme`<v2>|x', calls: 2 }];
    const line = renderMarkdown(report)
      .split('\n')
      .find((l) => l.startsWith('Unpriced models:'));
    expect(line).toBe('Unpriced models: acme\\`&lt;v2>\\|x');
  });

  it('stays under the limit and says it was cut', async () => {
    const report = await reportWithLoop('t-1');
    report.review = Array.from({ length: 50 }, (_, i) => ({ traceId: `t-${i}`, reason: 'x'.repeat(300) }));
    const md = renderMarkdown(report, { limit: 2000 });
    expect(md.length).toBeLessThanOrEqual(2000);
    expect(md).toMatch(/cut to 2,000 characters; for the rest, see --format json or --limit/);
    // The Action points at its job summary instead of CLI flags.
    const inAction = renderMarkdown(report, { limit: 2000, seeAlso: 'the job summary' });
    expect(inAction).toMatch(/for the rest, see the job summary/);
    expect(inAction).not.toContain('--format json');
  });

  it('the text summary redacts too', async () => {
    const text = renderText(await reportWithLoop());
    expect(text).not.toContain('sk-proj-abcdefghijklmnopqrstuvwx');
  });
});
