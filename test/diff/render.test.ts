import { describe, expect, it } from 'vitest';
import { diffReports } from '../../src/diff/diffReports.js';
import { renderDiffMarkdown } from '../../src/diff/renderMarkdown.js';
import { renderDiffText } from '../../src/diff/renderText.js';
import { finding, report, syntheticRun, trace } from './reports.js';

const SECRET = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789';

/** A head report whose trace ids, files, messages and review reasons are written to attack a PR comment. */
function hostile() {
  const id = '<img src=x onerror=alert(1)> @octocat';
  const traces = [trace({ id }), trace({ id: 'ok' })];
  const base = report({ traces });
  const head = report({
    traces,
    signals: [
      finding({
        traceId: id,
        file: '[x](https://evil.example) ![pic](https://evil.example/p.png)',
        detector: 'RETRY_LOOP',
        severity: 'high',
        wasteUsd: 0.5,
        message: `<!-- tracejury:main --> ping @octocat \`\`\` </details> key ${SECRET} | col |`,
      }),
      // A custom detector id from a report cannot end its code span or the chart's fence.
      finding({ traceId: 'ok', detector: 'X`]\n```\n@team', severity: 'medium', wasteUsd: 0.1 }),
    ],
    review: [{ traceId: id, reason: `see <script>alert(1)</script> and @org/team ${SECRET}` }],
  });
  return diffReports(base, head);
}

describe('renderDiffMarkdown', () => {
  it('opens with the gate and the waste headline, and draws waste by detector as a Mermaid chart', () => {
    const md = renderDiffMarkdown(
      diffReports(syntheticRun(1, 50, 0.2), syntheticRun(2, 50, 0.2, { retryLoopShare: 0.3 })),
    );
    expect(md).toMatch(
      /^### tracejury diff ❌ regression\n\nWaste \*\*\$[\d.]+ → \$[\d.]+\*\* \(\+\$[\d.]+, \+[\d.]+%\) · per 100 traces /,
    );
    expect(md).toContain('- waste per trace up ');
    expect(md).toContain('| `RETRY_LOOP` | 0 → ');
    expect(md).toMatch(
      /```mermaid\nxychart-beta\n.*\n {2}x-axis \["(RETRY_LOOP|FALLBACK_STORM)", "(RETRY_LOOP|FALLBACK_STORM)"\]/,
    );
    expect(md.match(/^ {2}bar \[/gm)).toHaveLength(2);
    expect(md).toContain('#### New findings (');
    expect(md).toContain('Judge spend $0.00 → $0.00');
  });

  it('escapes hostile trace content: HTML, mentions, links, images, backticks, a fake marker, secrets', () => {
    const md = renderDiffMarkdown(hostile());
    expect(md).not.toMatch(/<img|<script|<\/details> key|<!--/);
    expect(md).not.toMatch(/(^|[^;])@(octocat|org|team)/m);
    expect(md).not.toMatch(/[^\\]\]\(/);
    expect(md).not.toContain(SECRET);
    expect(md).toContain('&lt;img src=x onerror=alert(1)>');
    expect(md).toContain('&lt;!-- tracejury:main -->');
    // Only the renderer's own fence opens and closes: nothing from the report adds a ``` line.
    expect(md.match(/```/g)).toHaveLength(2);
    // The chart's label is reduced to identifier characters.
    expect(md).toContain('x-axis ["RETRY_LOOP", "X________team"]');
    // The hostile detector id is escaped text, not a code span it could break out of.
    expect(md).toContain('X\\`\\]');
  });

  it('stays under 65,536 characters with a huge diff, cutting the longest lists first and saying so', () => {
    const n = 4000;
    const traces = Array.from({ length: n }, (_, i) => trace({ id: `trace-${i}` }));
    const message = 'the same prompt was sent to the same model six times in 40 seconds '.repeat(3);
    const base = report({
      traces,
      signals: traces.slice(0, 1500).map((t) => finding({ traceId: t.id, detector: 'TOOL_LOOP', message })),
    });
    const head = report({
      traces,
      signals: traces.map((t) => finding({ traceId: t.id, detector: 'RETRY_LOOP', message, wasteUsd: 0.01 })),
      review: traces.slice(0, 100).map((t) => ({ traceId: t.id, reason: 'gray zone' })),
    });
    const diff = diffReports(base, head);
    expect(diff.signals.new).toHaveLength(n);
    const md = renderDiffMarkdown(diff);
    expect(md.length).toBeLessThan(65_536);
    const shownNew = (md.split('#### New findings')[1]!.split('####')[0]!.match(/^- /gm) ?? []).length;
    expect(md).toContain(`_… ${(n - shownNew).toLocaleString('en-US')} more new signals not shown_`);
    expect(md).toMatch(/_… [\d,]+ more resolved signals not shown_/);
    // The short lists are left alone, and so is the end of the comment.
    expect(md).toContain('_… 80 more review cases not shown_');
    expect(md).toMatch(/Judge spend .*\n$/);
    // With a tighter limit every long list gives way, the longest first; the rest stays.
    const tight = renderDiffMarkdown(diff, { limit: 8000 });
    expect(tight.length).toBeLessThanOrEqual(8000);
    expect(tight).toMatch(/_… [\d,]+ more new signals not shown_/);
    expect(tight).toMatch(/_… [\d,]+ more resolved signals not shown_/);
    expect(tight).toContain('#### Waste by detector');
    expect(tight).toMatch(/Judge spend .*\n$/);
  });
});

describe('renderDiffText', () => {
  it('shows the gate, the headline and the noise labels, with control characters escaped', () => {
    const diff = hostile();
    const evil = diffReports(
      report({ traces: [trace({ id: 'a' })] }),
      report({
        traces: [trace({ id: 'a' })],
        signals: [finding({ traceId: 'a\x1b[2J\nGate: passed', severity: 'critical' })],
      }),
    );
    const text = renderDiffText(evil);
    expect(text).toMatch(
      /^tracejury diff — base 1 traces, head 1 traces\n\nRegression gate: FAILED — 1 new finding at high or worse/,
    );
    expect(text).not.toContain('\x1b');
    expect(text).toContain('a\\x1b[2J\\nGate: passed');
    expect(text).toContain('too few traces (1 < 10)');
    expect(renderDiffText(diff)).not.toContain(SECRET);
  });

  it('cuts lists at --limit and says how many were left out', () => {
    const traces = Array.from({ length: 30 }, (_, i) => trace({ id: `t${i}` }));
    const diff = diffReports(
      report({ traces }),
      report({ traces, signals: traces.map((t) => finding({ traceId: t.id, severity: 'low' })) }),
    );
    const text = renderDiffText(diff, { limit: 5 });
    expect(text).toContain('New findings (30)');
    expect(text).toContain('… 25 more new signals not shown (--format json)');
  });
});
