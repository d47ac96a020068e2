/** `--format html` and `--out *.html` for analyze, diff and merge, and --html-traces. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { DiffPage } from '../../src/diff/htmlPageData.js';
import type { ReportPage } from '../../src/report/html/pageData.js';
import { cli } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLES = ['examples/traces', '--config', 'examples/tracejury.yml'];

const pageOf = <P>(html: string): P =>
  JSON.parse(/<script type="application\/json" id="tj-page">([\s\S]*?)<\/script>/.exec(html)![1]!) as P;

describe('tracejury analyze --format html', () => {
  it('writes one page with every trace of the examples embedded, chosen by --out .html', async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'tj-html-')), 'report.html');
    const { code, stdout, stderr } = await cli(['analyze', ...EXAMPLES, '--out', out], root);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^tracejury: 13 traces, \d+ findings, .* → .*report\.html\n$/);
    const html = readFileSync(out, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    const page = pageOf<ReportPage>(html);
    expect(page.report.traces).toHaveLength(13);
    expect(page.traces.embedded).toHaveLength(13);
    expect(page.traces.leftOut.traces).toBe(0);
    // Each embedded trace is the block its entry names, and the one the report names by file and line.
    const support = page.traces.embedded.find((e) => e.id === 'support-002')!;
    expect(support).toMatchObject({ file: 'examples/traces/native-support-agent.jsonl', line: 2 });
    const block = new RegExp(
      `<script type="application/json" id="tj-trace-${support.block}">([^<]*)</script>`,
    ).exec(html)![1]!;
    expect(JSON.parse(block).id).toBe('support-002');
  });

  it('prints the page on stdout with --format html', async () => {
    const { code, stdout } = await cli(['analyze', ...EXAMPLES, '--format', 'html'], root);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^<!doctype html>/);
    expect(pageOf<ReportPage>(stdout).traces.embedded.length).toBe(13);
  });

  it('embeds what --html-traces allows, and says on stderr which traces with findings it left out', async () => {
    const { code, stdout, stderr } = await cli(
      ['analyze', ...EXAMPLES, '--format', 'html', '--html-traces', '0'],
      root,
    );
    expect(code).toBe(0);
    const page = pageOf<ReportPage>(stdout);
    expect(page.traces.embedded).toEqual([]);
    const withFindings = new Set(
      page.report.signals.filter((s) => s.status === 'finding').map((s) => `${s.file} ${s.traceId}`),
    ).size;
    expect(page.traces.leftOut).toMatchObject({ traces: 13, withFindings, overBudget: 13, budgetBytes: 0 });
    expect(page.traces.howToGetAll).toMatch(/--html-traces all/);
    expect(stderr).toBe(
      `tracejury: warning: the HTML page does not embed ${withFindings} traces with findings (over the 0 MB budget: --html-traces all embeds every trace)\n`,
    );
  });

  it('refuses a budget it cannot read, and --html-traces for output that is not HTML', async () => {
    const bad = await cli(['analyze', ...EXAMPLES, '--format', 'html', '--html-traces', 'lots'], root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'tracejury: --html-traces lots: expected a number of megabytes (e.g. 100) or all\n',
    );
    const json = await cli(['analyze', ...EXAMPLES, '--format', 'json', '--html-traces', 'all'], root);
    expect(json.code).toBe(2);
    expect(json.stderr).toBe(
      'tracejury: --html-traces applies to HTML output (--format html or --out FILE.html), not json\n',
    );
    expect(json.stdout).toBe('');
  });
});

describe('tracejury diff and merge --format html', () => {
  async function reports() {
    const dir = mkdtempSync(path.join(tmpdir(), 'tj-html-diff-'));
    const base = path.join(dir, 'base.json');
    const head = path.join(dir, 'head.json');
    const run = (files: string[], out: string) =>
      cli(
        [
          'analyze',
          ...files.map((f) => `examples/traces/${f}`),
          '--config',
          'examples/tracejury.yml',
          '--out',
          out,
        ],
        root,
      );
    await run(['llm-calls.jsonl', 'langfuse-export.json'], base);
    await run(['native-support-agent.jsonl', 'langfuse-export.json'], head);
    return { dir, base, head };
  }

  it("shows new, resolved and persisting findings, with head's traces of the new ones embedded", async () => {
    const { base, head } = await reports();
    const { code, stdout } = await cli(['diff', base, head, '--format', 'html'], root);
    // Eight runs against four: every change is within noise, and head's own gate passes.
    expect(code).toBe(0);
    const page = pageOf<DiffPage>(stdout);
    expect(page.diff.signals.new.map((s) => s.detector).sort()).toEqual([
      'EMPTY_LLM_RESPONSE',
      'RETRY_STORM',
    ]);
    expect(page.diff.signals.resolved.length).toBeGreaterThan(0);
    expect(page.persisting.map((s) => s.detector)).toEqual(['CONTEXT_BLOAT']);
    expect(page.traces.embedded.map((e) => [e.id, e.file])).toEqual([
      ['c18e4b77-92d0-4f3e-8a5b-6d2f9e0a7b02', 'examples/traces/langfuse-export.json'],
      ['support-002', 'examples/traces/native-support-agent.jsonl'],
    ]);
  });

  it('leaves the timelines out, and says why, where head ran in another directory', async () => {
    const { dir, base, head } = await reports();
    const { stdout, stderr } = await cli(['diff', base, head, '--format', 'html'], dir);
    const page = pageOf<DiffPage>(stdout);
    expect(page.traces.embedded).toEqual([]);
    expect(page.traces.leftOut.unreadable.map((u) => [u.file, u.reason])).toEqual([
      ['examples/traces/langfuse-export.json', 'no such file or directory'],
      ['examples/traces/native-support-agent.jsonl', 'no such file or directory'],
    ]);
    expect(stderr).toBe(
      'tracejury: warning: the HTML page does not embed 1 trace with findings; unreadable: ' +
        'examples/traces/langfuse-export.json (no such file or directory), ' +
        'examples/traces/native-support-agent.jsonl (no such file or directory)\n',
    );
  });

  it('merges partial reports into one page', async () => {
    const { base, head } = await reports();
    const out = path.join(path.dirname(base), 'merged.html');
    const { code, stdout } = await cli(['merge', base, head, '--out', out], root);
    expect(code).toBe(0);
    expect(stdout).toMatch(/→ .*merged\.html\n$/);
    const page = pageOf<ReportPage>(readFileSync(out, 'utf8'));
    // Both shards read langfuse-export.json: its two traces are embedded once.
    const distinct = new Set(page.report.traces.map((t) => `${t.file}:${t.line}:${t.id}`));
    expect(page.report.traces).toHaveLength(12);
    expect(page.traces.embedded).toHaveLength(distinct.size);
    expect(page.traces.leftOut.traces).toBe(0);
  });
});
