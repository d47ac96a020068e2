/** Recorded outcomes in the report: counts, and each detector's precision against them from 10 outcomes. */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { isFinding } from '../../src/report/finding.js';
import { renderMarkdown } from '../../src/report/renderMarkdown.js';
import { renderText } from '../../src/report/renderText.js';
import type { TraceInput } from '../../src/trace/schema.js';
import { signal } from '../helpers/signalBuilder.js';

/** A run that loops on one tool call (a TOOL_LOOP finding), or a clean one, with its outcome. */
const run = (id: string, success: boolean | undefined, loops: boolean): TraceInput => ({
  id,
  agentId: 'bot',
  ...(success === undefined ? {} : { outcome: { success, source: 'test' } }),
  output: 'done',
  steps: Array.from({ length: loops ? 6 : 1 }, () => ({
    type: 'tool' as const,
    name: 'search',
    args: { q: 'same' },
  })),
});

const analyzeRuns = (runs: TraceInput[]) => analyze(runs, { baselines: false, config: {} });

describe('report outcomes', () => {
  it('counts outcomes and gives per-detector precision once 10 traces have one', async () => {
    const runs = [
      run('f1', false, true),
      run('f2', false, true),
      run('f3', false, true),
      run('s1', true, true),
      ...Array.from({ length: 6 }, (_, i) => run(`ok${i}`, true, false)),
      run('none', undefined, true),
    ];
    const report = await analyzeRuns(runs);
    expect(report.traces.find((t) => t.id === 'f1')!.outcome).toEqual({ success: false, source: 'test' });
    expect(report.traces.find((t) => t.id === 'none')!.outcome).toBeUndefined();
    expect(report.outcomes).toMatchObject({ recorded: 10, failed: 3, succeeded: 7 });
    // The run without an outcome is counted on neither side.
    expect(report.outcomes!.byDetector!.TOOL_LOOP).toEqual({ onFailed: 3, onSucceeded: 1, precision: 0.75 });

    const text = renderText(report);
    expect(text).toContain('Outcomes: 3 of 10 runs with a recorded outcome failed');
    expect(text).toContain('Findings against recorded outcomes');
    expect(text).toMatch(/TOOL_LOOP\s+3\s+1\s+0\.75/);
    const md = renderMarkdown(report);
    expect(md).toContain('| `TOOL_LOOP` | 3 | 1 | 0.75 |');
    expect(md).toContain('Outcomes: 3 of 10 runs');
  });

  it('has no precision table with fewer than 10 outcomes, but still counts them', async () => {
    const runs = [run('f1', false, true), ...Array.from({ length: 8 }, (_, i) => run(`ok${i}`, true, false))];
    const report = await analyzeRuns(runs);
    expect(report.outcomes).toEqual({ recorded: 9, failed: 1, succeeded: 8 });
    expect(renderText(report)).not.toContain('Findings against recorded outcomes');
    expect(renderText(report)).toContain('Outcomes: 1 of 9 runs');
    expect(renderMarkdown(report)).not.toContain('precision');
  });

  it('has no outcomes section when no trace records one', async () => {
    const report = await analyzeRuns([run('a', undefined, true)]);
    expect(report.outcomes).toBeUndefined();
    expect(renderText(report)).not.toContain('Outcomes:');
  });

  it('counts as findings only confident, unsuppressed, non-shadow signals', () => {
    expect(isFinding(signal({ confidence: 0.9 }))).toBe(true);
    expect(isFinding(signal({ confidence: 0.6 }))).toBe(false);
    expect(isFinding(signal({ confidence: 0.9, shadow: true }))).toBe(false);
    expect(isFinding(signal({ confidence: 0.9, suppressedBy: 'RETRY_LOOP' }))).toBe(false);
  });
});
