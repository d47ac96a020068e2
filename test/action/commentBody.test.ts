/**
 * What the Action posts: the comment fits GitHub's 65,536 characters however large the diff, says
 * what it cut and links the job summary; trace content is escaped and secrets redacted; without a
 * baseline it says why and shows the report alone. Annotations name repository paths only.
 */
import { describe, expect, it } from 'vitest';
import { reportAnnotations, repoPath } from '../../src/action/annotations.js';
import { commentMarker } from '../../src/action/comment.js';
import { GITHUB_COMMENT_LIMIT, renderComment, renderJobSummary } from '../../src/action/commentBody.js';
import { diffReports } from '../../src/diff/diffReports.js';
import { finding, report, trace } from '../diff/reports.js';

const marker = commentMarker('default');
const runUrl = 'https://github.com/acme/agent/actions/runs/1';

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
  it('stays under 65,536 characters with 5,000 new findings, saying what was cut and where the rest is', () => {
    const { base, head } = bigPair(5000);
    const body = renderComment(
      { head, diff: diffReports(base, head), baselineSource: 'run #4 on main', runUrl },
      marker,
    );
    expect(body.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(body.startsWith(`${marker}\n`)).toBe(true);
    expect(body).toMatch(/more new signals not shown/);
    expect(body).toContain(`[Full report in the job summary](${runUrl})`);
    expect(body).toContain('Compared with run #\u200b4 on main.');
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
    const input = { head, diff: diffReports(report({ traces }), head), baselineSource: 'x', runUrl };
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
