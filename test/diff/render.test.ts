import { describe, expect, it } from 'vitest';
import { diffReports } from '../../src/diff/diffReports.js';
import { renderDiffMarkdown } from '../../src/diff/renderMarkdown.js';
import { renderDiffText } from '../../src/diff/renderText.js';
import { finding, report, taskRun, trace } from './reports.js';

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
  it('opens with the verdict naming what moved and by how much, then success, cost, waste and findings', () => {
    // 60 tasks: 40 passed in base; 25 of them fail in head.
    const outcomes = (pass: (i: number) => boolean) => Array.from({ length: 60 }, (_, i) => [pass(i)]);
    const d = diffReports(
      taskRun(
        outcomes((i) => i < 40),
        { file: 'base.jsonl' },
      ),
      taskRun(
        outcomes((i) => i >= 25 && i < 40),
        { file: 'head.jsonl' },
      ),
    );
    const md = renderDiffMarkdown(d);
    expect(md).toMatch(
      /^### tracejury diff ❌ success 67 % → 25 % \(−42 pts, 95 % interval −\d+ … −\d+\), 60 tasks paired\n\n/,
    );
    expect(firstScreen(md)).toContain(
      '**Success** 67 % → 25 % (−42 pts; worse) · **Cost** $0.6000, unchanged · **Waste** $0.00, unchanged · **Findings** 0, none new or resolved; runs with a high-or-worse finding 0 % → 0 % (within noise)',
    );
    // The collapsed blocks: every quantity with its test, and the tasks that flipped.
    expect(md).toContain('<details><summary>Quantities: 4 compared, 1 failed the gate</summary>');
    expect(md).toMatch(
      /\| success \| 67 % \| 25 % \| −42 pts \| −\d+ … −\d+ \| sign-flip, exact · 60 tasks paired \| < 0\.0001 \(< 0\.0001 adjusted\) \| \*\*FAILED: worse beyond noise\*\* \|/,
    );
    expect(md).toContain(
      '<details><summary>Outcomes: success 67 % → 25 %; 25 tasks pass → fail, 0 fail → pass</summary>',
    );
    expect(md).toContain('#### Pass → fail (25)');
    expect(md).toContain('- task-0: 1/1 → 0/1 passed');
    expect(md).not.toContain('```');
  });

  it('passes saying what it compared, and how small a drop the runs could have told from noise', () => {
    const outcomes = (pass: (i: number) => boolean) => Array.from({ length: 20 }, (_, i) => [pass(i)]);
    const d = diffReports(
      taskRun(
        outcomes((i) => i < 10),
        { file: 'base.jsonl' },
      ),
      taskRun(
        outcomes((i) => i < 9),
        { file: 'head.jsonl' },
      ),
    );
    const md = renderDiffMarkdown(d);
    expect(md).toMatch(
      /^### tracejury diff ✅ no regression: success 50 % → 45 % \(−5 pts, 95 % interval −15 … 0\), 20 tasks paired; within noise \(at 20 tasks a side a drop in success under \d+ points cannot be told from noise\)\n/,
    );
  });

  it('opens with ❌ when head fails its own gate, even with no regression shown (2 of 2 tests failed)', () => {
    const test = (name: string, passed: boolean) => ({
      name,
      file: 'evals.test.ts',
      state: passed ? ('passed' as const) : ('failed' as const),
      attempts: 1,
      passedAttempts: passed ? 1 : 0,
      traces: [],
    });
    const base = report({ tests: [test('books', true), test('cancels', true)] });
    const head = report({ tests: [test('books', false), test('cancels', false)] });
    head.testRun = { tests: 2, passed: 0, failed: 2, skipped: 0, repeated: 0, passHatK: [], passAtK: [] };
    head.gate = { passed: false, reasons: ['2 tests of 2 failed (first: books)'] };
    const md = renderDiffMarkdown(diffReports(base, head));
    expect(md).toMatch(
      /^### tracejury diff ❌ 2 of 2 tests failed in head; no regression shown against base: success 100 % → 0 % \(−100 pts\), 2 tests paired; within noise \(at 2 tests a side no drop in success can be told from noise\)\n/,
    );
  });

  it('names a new-finding failure by its rule, and says cost is unknown rather than $0.00', () => {
    const silent = (file: string, flagged: boolean) =>
      report({
        traces: Array.from({ length: 3 }, (_, i) => ({
          ...trace({ id: `t${i}`, file, costUsd: 0, unmeasured: 2 }),
          tokens: { input: 0, output: 0 },
        })),
        signals: flagged ? [finding({ traceId: 't1', file, severity: 'critical' })] : [],
      });
    const d = diffReports(silent('runs.jsonl', false), silent('runs.jsonl', true), {
      regression: { newSignals: { minSeverity: 'high' } },
    });
    const md = renderDiffMarkdown(d);
    expect(md).toMatch(
      /^### tracejury diff ❌ 1 new finding at high or worse on a task clean in every base run \(rule regression\.newSignals\.minSeverity: high\)\n/,
    );
    expect(firstScreen(md)).toContain(
      "**Cost** unknown: base's 6 LLM calls carry no token counts or recorded cost; head's 6 LLM calls carry no token counts or recorded cost · **Waste** unknown, as cost is",
    );
    expect(firstScreen(md)).not.toContain('$0.00');
    expect(md).toContain(
      'waste per run (gated) and cost per run not compared: no LLM call of base could be priced (6 LLM calls with no token counts or recorded cost)',
    );
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
    expect(md).toContain('| detector | findings | share of runs | waste | waste down | waste up |');
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
    expect(tight).toContain('<details><summary>Quantities: ');
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
    expect(text).toMatch(/^tracejury diff — base 1 trace, head 1 trace\n\nRegression gate: passed\n/);
    expect(text).not.toContain('\x1b');
    expect(text).toContain('a\\x1b[2J\\nGate: passed');
    // One trace a side: no rise could be told from noise, and the text says so.
    expect(text).toContain(
      'at 1 run a side no rise in runs with a high-or-worse finding can be told from noise',
    );
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
