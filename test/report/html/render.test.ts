import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/analyze.js';
import { diffReports } from '../../../src/diff/diffReports.js';
import type { DiffPage } from '../../../src/diff/htmlPageData.js';
import { renderDiffHtml, writeDiffHtml } from '../../../src/diff/renderHtml.js';
import type { ReportPage } from '../../../src/report/html/pageData.js';
import { renderHtmlReport, writeHtmlReport } from '../../../src/report/html/render.js';
import { FORM_EXAMPLES } from '../../helpers/credentials.js';
import { llm, makeTrace, tool } from '../../helpers/traceBuilder.js';

const SECRET = FORM_EXAMPLES['GitHub token']!;
const storm = (id: string) =>
  makeTrace(
    [
      llm(),
      ...[1, 2, 3].map(() =>
        tool('charge', { args: { token: SECRET }, status: 'error', error: `402 ${SECRET}` }),
      ),
      llm(),
    ],
    { id, agentId: 'a', input: `</script><script>window.__pwned=1</script> ${SECRET}` },
  );

/** The elements of a page the browser would parse: the text between `<script…>` and `</script>`. */
function scripts(html: string): { attrs: string; body: string }[] {
  return [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map((m) => ({
    attrs: m[1]!,
    body: m[2]!,
  }));
}
const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('renderHtmlReport', () => {
  it('is one file that loads nothing: a CSP that names only its own script and style', async () => {
    const traces = [storm('s1')];
    const report = await analyze(traces, { cwd: mkdtempSync(path.join(tmpdir(), 'tj-')), baselines: false });
    const html = renderHtmlReport({ report, traces });
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1]!;
    const viewer = scripts(html).find((s) => s.attrs === '')!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    expect(csp.split('; ')).toEqual([
      "default-src 'none'",
      `script-src ${sha(viewer.body)}`,
      `style-src ${sha(style)}`,
      'img-src data:',
      "base-uri 'none'",
      "form-action 'none'",
    ]);
    // The CSP comes before anything it governs.
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<style>'));
    // No element fetches: no src, no stylesheet link, no absolute URL anywhere in the markup around the data.
    const markup = html.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<style>[\s\S]*?<\/style>/, '');
    expect(markup).not.toMatch(/\ssrc=|<link|https?:\/\//i);
  });

  it('embeds the report and each trace as JSON a trace cannot break out of, with secrets redacted', async () => {
    const traces = [storm('s1'), storm('s2')];
    const report = await analyze(traces, { cwd: mkdtempSync(path.join(tmpdir(), 'tj-')), baselines: false });
    const html = renderHtmlReport({ report, traces });
    expect(html).not.toContain(SECRET);
    expect(html).not.toContain('window.__pwned=1</script>');
    const blocks = scripts(html);
    // The page data, one block per trace, the viewer: nothing a trace wrote became an element.
    expect(blocks.map((b) => b.attrs)).toEqual([
      ' type="application/json" id="tj-page"',
      ' type="application/json" id="tj-trace-0"',
      ' type="application/json" id="tj-trace-1"',
      '',
    ]);
    const page = JSON.parse(blocks[0]!.body) as ReportPage;
    expect(page.kind).toBe('report');
    expect(page.report.signals.map((s) => s.detector)).toContain('RETRY_STORM');
    expect(page.detectors.RETRY_STORM?.fix).toMatch(/retr/i);
    expect(page.traces.embedded.map((e) => [e.block, e.id, e.file])).toEqual([
      [0, 's1', '<input>[0]'],
      [1, 's2', '<input>[1]'],
    ]);
    const trace = JSON.parse(blocks[1]!.body);
    expect(trace.input).toMatch(/^<\/script><script>window.__pwned=1<\/script> /);
    expect(trace.steps[1].error).not.toContain(SECRET);
  });

  it('without traces, shows the summaries and says every timeline is left out', async () => {
    const report = await analyze([storm('s1')], {
      cwd: mkdtempSync(path.join(tmpdir(), 'tj-')),
      baselines: false,
    });
    const page = JSON.parse(scripts(renderHtmlReport({ report }))[0]!.body) as ReportPage;
    expect(page.traces.embedded).toEqual([]);
    expect(page.traces.leftOut).toMatchObject({ traces: 1, notFound: 1 });
  });
});

describe('writeHtmlReport', () => {
  it("streams the page to a file, re-reading the report's traces from their files", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tj-write-'));
    writeFileSync(
      path.join(dir, 'run.jsonl'),
      `${JSON.stringify(storm('s1'))}\n${JSON.stringify(makeTrace([llm()], { id: 'calm', agentId: 'a' }))}\n`,
    );
    const report = await analyze(['run.jsonl'], { cwd: dir, baselines: false });
    const file = path.join(dir, 'out', 'report.html');
    const written = await writeHtmlReport(file, { report, cwd: dir, budgetBytes: null });
    expect(written).toMatchObject({ file, embedded: 2, leftOut: { traces: 0 } });
    const html = readFileSync(file, 'utf8');
    const page = JSON.parse(scripts(html)[0]!.body) as ReportPage;
    expect(page.traces.embedded.map((e) => [e.id, e.file, e.line])).toEqual([
      ['s1', 'run.jsonl', 1],
      ['calm', 'run.jsonl', 2],
    ]);
    expect(html).not.toContain(SECRET);
  });
});

describe('the HTML diff', () => {
  it("lists new, resolved and persisting findings and embeds head's traces of new ones", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tj-diff-'));
    writeFileSync(
      path.join(dir, 'base.jsonl'),
      `${JSON.stringify(storm('old'))}\n${JSON.stringify(storm('both'))}\n`,
    );
    writeFileSync(
      path.join(dir, 'head.jsonl'),
      `${JSON.stringify(storm('both'))}\n${JSON.stringify(storm('new'))}\n`,
    );
    const base = await analyze(['base.jsonl'], { cwd: dir, baselines: false });
    const head = await analyze(['head.jsonl'], { cwd: dir, baselines: false });
    // One file name for both sides, so 'both' persists.
    for (const r of [base, head]) {
      r.traces = r.traces.map((t) => ({ ...t, file: 'run.jsonl' }));
      r.signals = r.signals.map((s) => ({ ...s, file: 'run.jsonl' }));
    }
    writeFileSync(path.join(dir, 'run.jsonl'), readFileSync(path.join(dir, 'head.jsonl')));
    const diff = diffReports(base, head);
    const file = path.join(dir, 'diff.html');
    await writeDiffHtml(file, { diff, base, head, cwd: dir, within: dir });
    const page = JSON.parse(scripts(readFileSync(file, 'utf8'))[0]!.body) as DiffPage;
    expect(page.kind).toBe('diff');
    expect(new Set(page.diff.signals.new.map((s) => s.traceId))).toEqual(new Set(['new']));
    expect(new Set(page.diff.signals.resolved.map((s) => s.traceId))).toEqual(new Set(['old']));
    expect(new Set(page.persisting.map((s) => s.traceId))).toEqual(new Set(['both']));
    expect(page.persisting).toHaveLength(diff.signals.persisting);
    expect(page.traces.embedded.map((e) => e.id)).toEqual(['both', 'new']);
    expect(page.quantities.map((q) => q.id).slice(0, 3)).toEqual(['findings', 'waste', 'cost']);
    expect(page.lines.verdict).toMatch(
      /^❌ head's own gate failed: RETRY_STORM.*; no regression shown against base: runs with a high-or-worse finding /,
    );
    // Without the two reports the page still renders, listing no persisting finding.
    const bare = JSON.parse(scripts(renderDiffHtml({ diff }))[0]!.body) as DiffPage;
    expect(bare.persisting).toEqual([]);
    expect(bare.traces.embedded).toEqual([]);
  });

  it("links the tasks whose outcome flipped to head's traces of them, and embeds those traces", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tj-diff-flip-'));
    const run = (id: string, success: boolean) =>
      JSON.stringify({
        id,
        taskId: id.split('@')[0],
        outcome: { success, source: 'test' },
        steps: [{ type: 'tool', name: 'search' }],
      });
    writeFileSync(
      path.join(dir, 'base.jsonl'),
      [run('refund@1', true), run('cancel@1', false)].join('\n') + '\n',
    );
    writeFileSync(
      path.join(dir, 'head.jsonl'),
      [run('refund@2', false), run('cancel@2', true)].join('\n') + '\n',
    );
    const base = await analyze(['base.jsonl'], { cwd: dir, baselines: false });
    const head = await analyze(['head.jsonl'], { cwd: dir, baselines: false });
    const diff = diffReports(base, head);
    expect(diff.outcomes!.flipped.toFail.map((t) => [t.task, t.traces.map((r) => r.id)])).toEqual([
      ['refund', ['refund@2']],
    ]);
    const file = path.join(dir, 'diff.html');
    await writeDiffHtml(file, { diff, base, head, cwd: dir, within: dir });
    const page = JSON.parse(scripts(readFileSync(file, 'utf8'))[0]!.body) as DiffPage;
    expect(page.traces.embedded.map((e) => e.id).sort()).toEqual(['cancel@2', 'refund@2']);
    expect(page.lines.success).toBe('50 % → 50 %, from recorded outcomes');
  });
});
