/**
 * What the Action posts: a first screen a reviewer reads in ten seconds (the verdict naming the
 * rule, the numbers, the worst new findings linked to the HTML report, the report's link) within
 * its budget on the examples' diff and on a 5,000-finding one; the comment fits GitHub's 65,536
 * characters however large the diff, says what it cut and links the job summary; trace content is
 * escaped and secrets redacted; without a baseline it says why and shows the report alone.
 * Annotations name repository paths only.
 */
import { describe, expect, it } from 'vitest';
import { examplesReports } from '../../scripts/examples-diff.mjs';
import { analyze } from '../../src/analyze.js';
import { reportAnnotations, repoPath } from '../../src/action/annotations.js';
import { checkRunSummary } from '../../src/action/checkRun.js';
import { commentMarker } from '../../src/action/comment.js';
import {
  artifactLinks,
  GITHUB_COMMENT_LIMIT,
  renderComment,
  renderJobSummary,
  type RenderInput,
} from '../../src/action/commentBody.js';
import { diffReports } from '../../src/diff/diffReports.js';
import { failuresText, metricsLine } from '../../src/diff/headline.js';
import { FIRST_SCREEN_CHARS, FIRST_SCREEN_LINES } from '../../src/diff/renderMarkdown.js';
import { finding, report, trace } from '../diff/reports.js';

const marker = commentMarker('default');
const runUrl = 'https://github.com/acme/agent/actions/runs/1';
const HTML_URL = 'https://github.com/acme/agent/actions/runs/1/artifacts/77';
const artifacts: RenderInput['artifacts'] = {
  html: { name: 'tracejury-report-default.html', url: HTML_URL, zip: false, files: 1 },
  traces: { name: 'tracejury-traces-default', url: `${runUrl}/artifacts/78`, zip: true, files: 3 },
};
const fileUrl = (f: string, line?: number) =>
  `https://github.com/acme/agent/blob/${'c'.repeat(40)}/${f}${line ? `#L${line}` : ''}`;

/** What a reviewer reads before opening anything: up to the first `<details>`. */
function firstScreen(body: string): string {
  const at = body.indexOf('<details>');
  expect(at).toBeGreaterThan(0);
  return body.slice(0, at).trimEnd();
}

function expectWithinBudget(screen: string) {
  expect(screen.split('\n').length).toBeLessThanOrEqual(FIRST_SCREEN_LINES);
  expect(screen.length).toBeLessThanOrEqual(FIRST_SCREEN_CHARS);
}

function bigPair(n: number) {
  const traces = Array.from({ length: n }, (_, i) =>
    trace({ id: `run-${i}`, file: `traces/f${i % 40}.jsonl` }),
  );
  const base = report({ traces });
  const head = report({
    traces,
    signals: traces.map((t, i) =>
      finding({
        traceId: t.id,
        file: t.file,
        detector: i % 2 ? 'TOOL_LOOP' : 'RETRY_LOOP',
        severity: 'high',
        message: `looped ${'x'.repeat(150)} ${i}`,
        steps: [1, 2],
        wasteUsd: 0.01,
      }),
    ),
  });
  return { base, head };
}

describe('the PR comment', () => {
  it("opens on the examples' diff with a first screen within its budget: the rule, the numbers, the new high finding linked to its trace, the report", async () => {
    const { base, head } = await examplesReports(analyze);
    const body = renderComment(
      {
        head,
        diff: diffReports(base, head),
        baselineSource: 'the report of run #41 on main',
        runUrl,
        fileUrl,
        artifacts,
      },
      marker,
    );
    const screen = firstScreen(body);
    expectWithinBudget(screen);
    const lines = screen.split('\n');
    expect(lines[0]).toBe(marker);
    // A new high finding on one of 12 runs is listed, but is not a regression beyond noise.
    expect(lines[1]).toMatch(
      /^### tracejury ✅ no regression: runs with a high-or-worse finding [\d.]+ % → [\d.]+ % \([^)]*\), 11 traces paired; within noise \(at 11 traces a side a rise in runs with a high-or-worse finding under \d+ points cannot be told from noise\)$/,
    );
    expect(lines[3]).toMatch(
      /^\*\*Cost\*\* \$[\d.]+ → \$[\d.]+ \(\+[\d.]+ %; per run within noise\) · \*\*Waste\*\* \$[\d.]+ → \$[\d.]+ \(\+[\d.]+ %; per run within noise\) · \*\*Findings\*\* 7 → 7: 1 new, 1 resolved; runs with a high-or-worse finding [\d.]+ % → [\d.]+ % \(within noise\)$/,
    );
    expect(screen).toContain(
      `- \`FALLBACK_FAILURE\` **high** [blog\\_draft\\_3001](${HTML_URL}#trace=blog_draft_3001&file=examples%2Ftraces%2Fllm-calls.jsonl&detector=FALLBACK_FAILURE) · [llm-calls.jsonl:4](${fileUrl('examples/traces/llm-calls.jsonl', 4)}): gpt-4 called 16 s after gpt-3.5-turbo`,
    );
    expect(screen).toContain(`**[Open the HTML report](${HTML_URL})**`);
    expect(screen).toContain('(zip download, 3 files)');
    // Only what changed is listed below; the rest is counted.
    expect(body).toContain('<details><summary>Detectors: 2 changed, 6 unchanged</summary>');
    expect(body).toContain('Unchanged: 12 session scores.');
    expect(body).not.toMatch(/0\.000 → 0\.000|\| 0\.000 \|/);
  });

  it('stays under 65,536 characters with 5,000 new findings, its first screen within budget, saying what was cut and where the rest is', () => {
    const { base, head } = bigPair(5000);
    const body = renderComment(
      { head, diff: diffReports(base, head), baselineSource: 'run #4 on main', runUrl, fileUrl, artifacts },
      marker,
    );
    expect(body.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(body.startsWith(`${marker}\n`)).toBe(true);
    const screen = firstScreen(body);
    expectWithinBudget(screen);
    expect(screen.split('\n')[1]).toBe(
      '### tracejury ❌ runs with a high-or-worse finding 0 % → 100 % (+100 pts, 95 % interval +100 … +100), 5,000 traces paired (and waste)',
    );
    expect(screen).toContain('**New at high or worse** (5 of 5,000):');
    const named = screen.split('\n').filter((l) => l.startsWith('- '));
    expect(named).toHaveLength(5);
    for (const line of named)
      expect(line).toMatch(
        new RegExp(
          `\\]\\(${HTML_URL}#trace=run-\\d+&file=traces%2Ff\\d+\\.jsonl&detector=(RETRY|TOOL)_LOOP\\)`,
        ),
      );
    expect(body).toMatch(/more new signals not shown/);
    expect(body).toContain(`[Full report in the job summary](${runUrl})`);
    expect(screen).toContain('compared with run #\u200b4 on main.');
  });

  it('the comment, the job summary and the check run link the HTML report and the saved traces, saying which opens and which downloads', () => {
    const traces = [trace({ id: 'r1', file: 'traces/a.jsonl' })];
    const head = report({ traces, signals: [finding({ traceId: 'r1', file: 'traces/a.jsonl' })] });
    const links =
      `**[Open the HTML report](${HTML_URL})**: each trace's timeline with its findings (artifact \`tracejury-report-default.html\`, opens in the browser)` +
      ` · [saved traces of failing tests](${runUrl}/artifacts/78) (zip download, 3 files)`;
    expect(artifactLinks(artifacts)!.source).toBe(links);
    expect(artifactLinks({})).toBeUndefined();
    const withDiff: RenderInput = {
      head,
      diff: diffReports(report({ traces }), head, { regression: { newSignals: { minSeverity: 'high' } } }),
      baselineSource: 'x',
      runUrl,
      artifacts,
    };
    expect(firstScreen(renderComment(withDiff, marker))).toContain(links);
    expect(firstScreen(renderJobSummary(withDiff))).toContain(links);
    // Without a baseline, the report alone, with the links above it.
    const alone = renderComment({ ...withDiff, diff: undefined }, marker);
    expect(alone).toContain(
      `> No baseline to compare with: x. This comment shows the report alone; the next run with a baseline shows the change.\n\n${links}\n\n### tracejury`,
    );
    expect(renderJobSummary({ ...withDiff, diff: undefined })).toContain(links);
    // The check run: the comment's numbers, the reasons, the links.
    expect(
      checkRunSummary(['TOOL_LOOP: 1 high signal'], { shown: 1, total: 1 }, runUrl, {
        numbers: metricsLine(withDiff.diff!),
        links: artifactLinks(artifacts),
      }),
    ).toBe(
      `**Cost** $0.0100, unchanged · **Waste** $0.00, unchanged · **Findings** 0 → 1: 1 new, 0 resolved; runs with a high-or-worse finding 0 % → 100 % (within noise)\n\n` +
        `- TOOL\\_LOOP: 1 high signal\n\n${links}\n\n1 annotation. [Job summary](${runUrl})`,
    );
    expect(failuresText(withDiff.diff!)).toBe(
      '1 new finding at high or worse on a task clean in every base run (rule regression.newSignals.minSeverity: high)',
    );
    // No artifact: the trace names no link but its file, and nothing says a report is there.
    const bare = renderComment({ ...withDiff, artifacts: {} }, marker);
    expect(bare).not.toContain('HTML report');
    expect(firstScreen(bare)).toContain('- `TOOL_LOOP` **high** r1 · a.jsonl: loop');
  });

  it('escapes trace content and redacts secrets in the comment and the summary', () => {
    const traces = [trace({ id: 'evil](http://x.test) <img src=x>', file: 'traces/a.jsonl' })];
    const head = report({
      traces,
      signals: [
        finding({
          traceId: traces[0]!.id,
          file: 'traces/a.jsonl',
          detector: 'TOOL_LOOP',
          severity: 'high',
          message: 'called with key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789 <script>',
          steps: [1],
        }),
      ],
    });
    // With the HTML report linked: the hostile id goes into the link's anchor too.
    const input = {
      head,
      diff: diffReports(report({ traces }), head),
      baselineSource: 'x',
      runUrl,
      artifacts,
    };
    for (const text of [renderComment(input, marker), renderJobSummary(input)]) {
      expect(text).not.toContain('sk-proj-abcdefghijklmnopqrstuvwxyz0123456789');
      expect(text).not.toContain('<script>');
      expect(text).not.toContain('<img');
      expect(text).not.toContain('](http://x.test)');
    }
  });

  it('links a finding to its trace file at the head commit when given fileUrl', () => {
    const traces = [trace({ id: 'r1', file: 'traces/a (1).jsonl' })];
    const head = report({
      traces,
      signals: [
        finding({
          traceId: 'r1',
          file: 'traces/a (1).jsonl',
          detector: 'TOOL_LOOP',
          severity: 'high',
          steps: [1],
        }),
      ],
    });
    const body = renderComment(
      {
        head,
        diff: diffReports(report({ traces }), head),
        baselineSource: 'x',
        runUrl,
        fileUrl: (f) =>
          `https://github.com/acme/agent/blob/abc/${f.split('/').map(encodeURIComponent).join('/')}`,
      },
      marker,
    );
    expect(body).toContain(
      '[traces/a (1).jsonl](https://github.com/acme/agent/blob/abc/traces/a%20%281%29.jsonl)',
    );
  });

  it("links a new finding at its trace's line in head; a resolved one at the file only (its line is base's)", () => {
    const loop = (traceId: string) =>
      finding({ traceId, file: 'runs.jsonl', detector: 'TOOL_LOOP', severity: 'high', steps: [1] });
    const base = report({
      traces: [trace({ id: 'old', file: 'runs.jsonl', line: 30 })],
      signals: [loop('old')],
    });
    const head = report({
      traces: [trace({ id: 'new', file: 'runs.jsonl', line: 12 })],
      signals: [loop('new')],
    });
    const diff = diffReports(base, head);
    expect(diff.signals.new.map((s) => [s.traceId, s.line])).toEqual([['new', 12]]);
    expect(diff.signals.resolved.map((s) => [s.traceId, s.line])).toEqual([['old', 30]]);
    const body = renderComment(
      {
        head,
        diff,
        baselineSource: 'x',
        runUrl,
        fileUrl: (f, line) => `https://github.com/acme/agent/blob/abc/${f}${line ? `#L${line}` : ''}`,
      },
      marker,
    );
    expect(body).toContain('new ([runs.jsonl](https://github.com/acme/agent/blob/abc/runs.jsonl#L12))');
    expect(body).toContain('old ([runs.jsonl](https://github.com/acme/agent/blob/abc/runs.jsonl))');
  });

  it('without a baseline says why and shows the report alone', () => {
    const head = report({ traces: [trace({ id: 'r1' })] });
    const body = renderComment({ head, diff: undefined, baselineSource: 'none: first run', runUrl }, marker);
    expect(body).toContain('> No baseline to compare with: none: first run.');
    expect(body).toContain('### tracejury ✅ passed');
    expect(body).not.toContain('Waste by detector');
  });
});

describe('annotations', () => {
  it('name paths inside the repository only, relative to its root', () => {
    expect(repoPath('traces/a.jsonl', '/ws/app', '/ws')).toBe('app/traces/a.jsonl');
    expect(repoPath('/ws/x.json', '/ws/app', '/ws')).toBe('x.json');
    expect(repoPath('../../etc/passwd', '/ws/app', '/ws')).toBeUndefined();
    expect(repoPath('/tmp/runner/x.json', '/ws', '/ws')).toBeUndefined();
  });

  it('a failing finding of a trace analysis is a failure at its file; test runs keep findings as warnings', () => {
    const traces = [trace({ id: 'r1', file: 'traces/a.jsonl' })];
    const head = report({
      traces,
      signals: [
        finding({
          traceId: 'r1',
          file: 'traces/a.jsonl',
          detector: 'TOOL_LOOP',
          severity: 'high',
          steps: [1],
        }),
        finding({
          traceId: 'r1',
          file: 'traces/a.jsonl',
          detector: 'SLOW_STEP',
          severity: 'low',
          steps: [1],
        }),
      ],
    });
    const { annotations, total } = reportAnnotations(head, { workDir: '/ws', workspace: '/ws' });
    expect(total).toBe(2);
    expect(annotations.map((a) => [a.path, a.annotation_level, a.title])).toEqual([
      ['traces/a.jsonl', 'failure', 'TOOL_LOOP (high) in r1'],
      ['traces/a.jsonl', 'warning', 'SLOW_STEP (low) in r1'],
    ]);
  });

  it('a finding points at the line its trace starts on; a trace without one (a JSON document) at line 1', () => {
    const head = report({
      traces: [
        trace({ id: 'r1', file: 'traces/a.jsonl', line: 1 }),
        trace({ id: 'r2', file: 'traces/a.jsonl', line: 42 }),
        trace({ id: 'r2', file: 'traces/b.json' }),
      ],
      signals: [
        finding({
          traceId: 'r2',
          file: 'traces/a.jsonl',
          detector: 'TOOL_LOOP',
          severity: 'high',
          steps: [1],
        }),
        finding({
          traceId: 'r2',
          file: 'traces/b.json',
          detector: 'TOOL_LOOP',
          severity: 'high',
          steps: [1],
        }),
      ],
    });
    const { annotations } = reportAnnotations(head, { workDir: '/ws', workspace: '/ws' });
    expect(annotations.map((a) => [a.path, a.start_line, a.end_line])).toEqual([
      ['traces/a.jsonl', 42, 42],
      ['traces/b.json', 1, 1],
    ]);
  });
});
