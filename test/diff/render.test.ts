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

/** The part of the markdown a reviewer sees before opening anything. */
const firstScreen = (md: string) => md.slice(0, md.indexOf('<details>'));

describe('renderDiffMarkdown', () => {
  it('opens with the verdict naming the rule and the number that fired it, then cost, waste and findings with a word for noise', () => {
    const md = renderDiffMarkdown(
      diffReports(syntheticRun(1, 50, 0.2), syntheticRun(2, 50, 0.2, { retryLoopShare: 0.3 })),
    );
    expect(md).toMatch(
      /^### tracejury diff ❌ regression: waste per trace \+[\d.]+%, beyond noise \(rule `regression\.wasteIncreasePct`: 20%\)\n\n/,
    );
    expect(firstScreen(md)).toMatch(
      /\*\*Cost\*\* \$[\d.]+ → \$[\d.]+ \(\+[\d.]+%; per trace up\) · \*\*Waste\*\* \$[\d.]+ → \$[\d.]+ \(\+[\d.]+%; per trace up\) · \*\*Findings\*\* \d+ → \d+: \d+ new, \d+ resolved/,
    );
    // The retry loops are medium: none is named on the first screen, whose list is high or worse.
    expect(firstScreen(md)).not.toContain('New at high');
    expect(md).not.toContain('```');
  });

  it('says "within noise" beside a failing rule only with the rule that failed named, and what a pass checked', () => {
    const traces = Array.from({ length: 20 }, (_, i) => trace({ id: `t${i}` }));
    const base = report({ traces });
    const head = report({
      traces,
      signals: [finding({ traceId: 't3', severity: 'critical', wasteUsd: 0.001 })],
    });
    const failed = renderDiffMarkdown(diffReports(base, head));
    expect(failed).toMatch(
      /^### tracejury diff ❌ regression: 1 new finding at high or worse \(rule `regression\.newSignals\.minSeverity`: high\)\n/,
    );
    expect(firstScreen(failed)).toContain('**Waste** $0.00 → $0.001 (+$0.001; per trace within noise)');
    expect(firstScreen(failed)).toContain('**Cost** $0.2000, unchanged');
    const passed = renderDiffMarkdown(diffReports(head, head));
    expect(passed).toMatch(
      /^### tracejury diff ✅ no regression: no new finding at high or worse; waste per trace within noise\n/,
    );
    expect(firstScreen(passed)).toContain('**Findings** 1, none new or resolved');
    // A waste number that cannot be compared fails the gate, and the waste line says so.
    const broken = diffReports(base, head);
    broken.noise.wastePerTrace.head = Number.POSITIVE_INFINITY;
    broken.gate = {
      passed: false,
      reasons: ['x'],
      failures: [
        {
          rule: 'comparable',
          setting: '',
          limit: '',
          fired: 'waste per trace is not a finite number in one of the reports',
        },
      ],
    };
    const md = renderDiffMarkdown(broken);
    expect(md).toMatch(
      /^### tracejury diff ❌ regression: waste per trace is not a finite number in one of the reports: the change cannot be judged\n/,
    );
    expect(firstScreen(md)).toMatch(/\*\*Waste\*\* [^·]*cannot be judged\)/);
    expect(firstScreen(md)).not.toMatch(/\*\*Waste\*\* [^·]*within noise/);
  });

  it('names the first five new findings at the gate severity or worse on the first screen, each linked to its trace in the HTML report', () => {
    const traces = Array.from({ length: 12 }, (_, i) =>
      trace({ id: `run ${i}/a`, file: 'traces/a b.jsonl', line: i + 1 }),
    );
    const head = report({
      traces,
      signals: [
        ...traces.map((t) =>
          finding({ traceId: t.id, file: t.file, detector: 'TOOL_LOOP', severity: 'high' }),
        ),
        finding({ traceId: 'run 0/a', file: 'traces/a b.jsonl', detector: 'SLOW_STEP', severity: 'low' }),
      ],
    });
    const md = renderDiffMarkdown(diffReports(report({ traces }), head), {
      htmlReportUrl: 'https://github.com/acme/agent/actions/runs/7/artifacts/99',
      fileUrl: (f, line) =>
        `https://github.com/acme/agent/blob/abc/${encodeURI(f)}${line ? `#L${line}` : ''}`,
    });
    const first = firstScreen(md);
    expect(first).toContain('**New at high or worse** (5 of 12):');
    const items = first.split('\n').filter((l) => l.startsWith('- '));
    expect(items).toHaveLength(5);
    expect(items[0]).toBe(
      '- `TOOL_LOOP` **high** [run 0/a](https://github.com/acme/agent/actions/runs/7/artifacts/99#trace=run%200%2Fa&file=traces%2Fa%20b.jsonl&detector=TOOL_LOOP) · [a b.jsonl:1](https://github.com/acme/agent/blob/abc/traces/a%20b.jsonl#L1): loop',
    );
    // The low finding is new too, but below the gate's severity: it waits in the collapsed list.
    expect(first).not.toContain('SLOW_STEP');
    expect(md).toContain('#### New findings (13)');
  });

  it('lists only the detectors and session scores that changed, counting the rest, with bars of the change in waste to one scale', () => {
    const traces = Array.from({ length: 12 }, (_, i) => trace({ id: `t${i}` }));
    const same = [
      finding({ traceId: 't1', detector: 'CONTEXT_BLOAT', severity: 'medium' }),
      finding({ traceId: 't2', detector: 'RETRY_STORM', severity: 'medium' }),
    ];
    const score = (sessionId: string, value: number) => ({
      sessionId,
      metric: 'agent_reliability' as const,
      score: value,
      passed: value >= 0.5,
      reason: 'scored',
      metadata: {},
    });
    const base = report({
      traces,
      signals: [
        ...same,
        finding({ traceId: 't3', detector: 'RETRY_LOOP', severity: 'medium', wasteUsd: 0.02 }),
      ],
      sessions: [score('s-1', 0.9), score('s-2', 0.8), score('s-3', 0.7)],
    });
    const head = report({
      traces,
      signals: [
        ...same,
        finding({ traceId: 't4', detector: 'FALLBACK_STORM', severity: 'medium', wasteUsd: 0.08 }),
      ],
      sessions: [score('s-1', 0.9), score('s-2', 0.8), score('s-3', 0.4)],
    });
    const md = renderDiffMarkdown(diffReports(base, head));
    expect(md).toContain('<details><summary>Detectors: 2 changed, 2 unchanged</summary>');
    expect(md).toContain('| detector | findings | findings per trace | waste | waste down | waste up |');
    expect(md).toContain(
      `| \`FALLBACK_STORM\` | 0 → 1 (+1) | within noise | $0.00 → $0.0800 (+$0.0800, new) |  | ${'█'.repeat(16)} |`,
    );
    expect(md).toContain(
      `| \`RETRY_LOOP\` | 1 → 0 (-1) | within noise | $0.0200 → $0.00 (-$0.0200, -100%) | ${'█'.repeat(4)} |  |`,
    );
    expect(md).toContain('Bars: the change in waste, to one scale (█ = $0.005).');
    expect(md).toContain('2 detectors with findings unchanged.');
    expect(md).not.toMatch(/\| `(CONTEXT_BLOAT|RETRY_STORM)` \|/);
    expect(md).toContain('<details><summary>Session scores: 1 changed, 2 unchanged</summary>');
    expect(md).toContain('| s-3 | agent\\_reliability | 0.700 | 0.400 | -0.300 ❌ |');
    expect(md).not.toMatch(/\| s-[12] \|/);
    // Nothing changed at all: counted in one line, no block to open.
    const quiet = renderDiffMarkdown(diffReports(head, head));
    expect(quiet).toContain('Unchanged: 3 detectors, 3 session scores.');
    expect(quiet).not.toContain('Detectors:');
  });

  it('escapes hostile trace content: HTML, mentions, links, images, backticks, a fake marker, secrets', () => {
    const md = renderDiffMarkdown(hostile(), {
      htmlReportUrl: 'https://github.com/acme/agent/actions/runs/7/artifacts/9',
    });
    expect(md).not.toMatch(/<img|<script|<\/details> key|<!--/);
    expect(md).not.toMatch(/(^|[^;])@(octocat|org|team)/m);
    expect(md).not.toContain(SECRET);
    expect(md).toContain('&lt;img src=x onerror=alert(1)>');
    expect(md).toContain('&lt;!-- tracejury:main -->');
    // No fence at all: nothing from the report can open or close one.
    expect(md).not.toContain('```');
    // The hostile detector id is escaped text, not a code span it could break out of.
    expect(md).toContain('X\\`\\]');
    // The only links are the renderer's own, to the HTML report, with the trace id percent-encoded
    // in the anchor: nothing in a label or a URL can end the link early.
    const links = [...md.matchAll(/(?<!\\)\]\(([^)]*)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(0);
    for (const url of links) {
      expect(url).toMatch(
        /^https:\/\/github\.com\/acme\/agent\/actions\/runs\/7\/artifacts\/9#trace=[^\s<>()"'`]*$/,
      );
      expect(url).not.toContain(SECRET);
    }
  });

  it('stays under 65,536 characters with a huge diff, cutting the longest lists first and saying so, never the first screen', () => {
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
    expect(md).toMatch(/For review in head: 100<\/summary>[^]*<\/details>\n$/);
    // With a tighter limit every long list gives way, the longest first; the rest stays.
    const tight = renderDiffMarkdown(diff, { limit: 8000 });
    expect(tight.length).toBeLessThanOrEqual(8000);
    expect(tight).toMatch(/_… [\d,]+ more new signals not shown_/);
    expect(tight).toMatch(/_… [\d,]+ more resolved signals not shown_/);
    expect(firstScreen(tight)).toBe(firstScreen(md));
    expect(tight).toContain('<details><summary>Per trace: waste up, cost within noise</summary>');
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
      /^tracejury diff — base 1 trace, head 1 trace\n\nRegression gate: FAILED — 1 new finding at high or worse/,
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
