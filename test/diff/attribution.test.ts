/** The diff's tally of root causes per agent: "WebSurfer caused 9 of 14 failures (+5)". */
import { describe, expect, it } from 'vitest';
import { attributionDiff, attributionDiffText } from '../../src/diff/attribution.js';
import { diffReports } from '../../src/diff/diffReports.js';
import { renderDiffMarkdown } from '../../src/diff/renderMarkdown.js';
import { renderDiffText } from '../../src/diff/renderText.js';
import { report } from './reports.js';

/** A report whose attribution tally holds these causes per agent (no rule tally). */
const withCauses = (failedRuns: number, attributed: number, causes: Record<string, number>) =>
  report({
    attribution: {
      failedRuns,
      attributed,
      agents: Object.entries(causes).map(([agent, n]) => ({ agent, causes: n })),
      rules: [],
    },
  });

const base = withCauses(9, 8, { Assistant: 4, WebSurfer: 4 });
const head = withCauses(14, 12, { WebSurfer: 9, Assistant: 3 });

describe('attributionDiff', () => {
  it('causes per agent on each side, most in head first, with the change', () => {
    const d = attributionDiff(base, head)!;
    expect(d).toEqual({
      base: { failedRuns: 9, attributed: 8 },
      head: { failedRuns: 14, attributed: 12 },
      agents: [
        { agent: 'WebSurfer', base: 4, head: 9, delta: 5 },
        { agent: 'Assistant', base: 4, head: 3, delta: -1 },
      ],
    });
    expect(attributionDiffText(d)).toBe(
      'Root causes: WebSurfer caused 9 of 14 failures (+5), Assistant 3 (-1); base 9 failures',
    );
  });

  it('an agent that caused failures only in base shows as resolved; none on either side: absent', () => {
    const d = attributionDiff(head, report())!;
    expect(d.agents).toEqual([
      { agent: 'WebSurfer', base: 9, head: 0, delta: -9 },
      { agent: 'Assistant', base: 3, head: 0, delta: -3 },
    ]);
    expect(attributionDiffText(d)).toBe(
      'Root causes: WebSurfer caused 0 of 0 failures (-9), Assistant 0 (-3); base 14 failures',
    );
    expect(attributionDiff(report(), report())).toBeUndefined();
  });

  it('is in the diff and its renderers', () => {
    const diff = diffReports(base, head);
    expect(diff.attribution?.agents[0]).toEqual({ agent: 'WebSurfer', base: 4, head: 9, delta: 5 });
    expect(renderDiffText(diff)).toContain('Root causes: WebSurfer caused 9 of 14 failures (+5)');
    expect(renderDiffMarkdown(diff)).toContain('Root causes: WebSurfer caused 9 of 14 failures (+5)');
    expect(diffReports(report(), report())).not.toHaveProperty('attribution');
  });
});
