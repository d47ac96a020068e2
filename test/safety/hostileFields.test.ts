/**
 * One hostile value — HTML, a fake sticky-comment marker, a mention, a `</details>` breakout, a
 * forged "Gate: passed" line, table breakers, backticks, a link, ESC, a workflow command and three
 * live-looking secrets — in every string of a Report v1 (generated from its zod schema), then every
 * surface that shows a report: the PR comment and job summary, the check run's summary and
 * annotations (a real run() against a loopback GitHub), and `analyze`, `diff` and `merge` in every
 * format. Markdown must show the value inert and redacted; the terminal and the log must show it
 * redacted, one line, with no control character and no command line.
 */
import { getOctokit } from '@actions/github';
import * as fs from 'node:fs/promises';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionContext, ActionDeps } from '../../src/action/deps.js';
import { run } from '../../src/action/run.js';
import { renderDiffMarkdown } from '../../src/diff/renderMarkdown.js';
import { diffReports } from '../../src/diff/diffReports.js';
import { renderMarkdown } from '../../src/report/renderMarkdown.js';
import type { Report } from '../../src/report/schema.js';
import { cli } from '../helpers/cli.js';
import { fakeCore } from '../helpers/fakeCore.js';
import { startFakeGitHub, type FakeGitHub } from '../helpers/fakeGitHub.js';
import {
  HOSTILE,
  HOSTILE_SECRETS,
  hostileReport,
  RAW_HOSTILE_PARTS,
  stringPaths,
} from '../helpers/hostileReport.js';

/** The same report as `tracejury analyze` writes it (no tests) and as the Vitest reporter does. */
function variants(): { name: string; report: Report }[] {
  const testRun = hostileReport();
  const { tests: _tests, testRun: _run, ...analyzeReport } = hostileReport();
  return [
    { name: 'an analyze report', report: analyzeReport as Report },
    { name: 'a test-run report', report: testRun },
  ];
}

/** Head differs from base in its signal, so the diff lists one new and one resolved finding. */
function headOf(base: Report): Report {
  const head = structuredClone(base);
  head.signals = head.signals.map((s) => ({ ...s, traceId: `${HOSTILE} head` }));
  return head;
}

function expectInertMarkdown(surface: string, text: string): void {
  for (const raw of RAW_HOSTILE_PARTS)
    expect(text.includes(raw), `${surface} holds ${JSON.stringify(raw)}`).toBe(false);
  expect(text, `${surface}: a forged line`).not.toMatch(/^\s*Gate: passed/m);
  expect(text, `${surface}: a mention`).not.toMatch(/(^|[^\w`])@[A-Za-z0-9]/m);
  expect(text, `${surface}: a line that is a workflow command`).not.toMatch(/^\s*::/m);
  // The renderer's own <details> blocks are the only ones: no value closes or opens one.
  for (const line of text.split('\n'))
    if (/<\/?details/.test(line))
      expect(line, `${surface}: ${line}`).toMatch(/^(<\/details>|<details( open)?><summary>)/);
}

function expectInertTerminal(surface: string, text: string): void {
  for (const secret of HOSTILE_SECRETS)
    expect(text.includes(secret), `${surface} holds ${secret}`).toBe(false);
  expect(text, `${surface}: a control character`).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  expect(text, `${surface}: a line that is a workflow command`).not.toMatch(/^\s*(::|##\[)/m);
  expect(text, `${surface}: a forged line`).not.toMatch(/^\s*Gate: passed/m);
}

/**
 * HTML: the value may sit in the page's JSON (escaped so it cannot end or open an element), never
 * in its markup; the only elements are the page's own, and no secret is anywhere.
 */
function expectInertHtml(surface: string, html: string): void {
  for (const secret of HOSTILE_SECRETS)
    expect(html.includes(secret), `${surface} holds ${secret}`).toBe(false);
  expect(html, `${surface}: raw markup from a value`).not.toMatch(/<img|<!-- tracejury/);
  expect(html, `${surface}: a raw control character`).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
  // Script and style bodies cannot hold `</script` or `</style` (scriptJson; the build checks the
  // viewer): what is left is the markup the browser builds elements from.
  const markup = html
    .replace(/(<script[^>]*>)[\s\S]*?(<\/script>)/g, '$1$2')
    .replace(/(<style>)[\s\S]*?(<\/style>)/g, '$1$2');
  const tags = [...markup.matchAll(/<(\/?[a-z!][a-z0-9]*)/gi)].map((m) => m[1]!.toLowerCase());
  const own = new Set([
    '!doctype',
    'html',
    '/html',
    'head',
    '/head',
    'meta',
    'title',
    '/title',
    'style',
    '/style',
    'body',
    '/body',
    'noscript',
    '/noscript',
    'div',
    '/div',
    'script',
    '/script',
  ]);
  expect(
    tags.filter((t) => !own.has(t)),
    `${surface}: elements the page did not write`,
  ).toEqual([]);
  const scripts = html.match(/<script/g) ?? [];
  const blocks = html.match(/<script type="application\/json" id="tj-(page|trace-\d+)">/g) ?? [];
  expect(scripts.length, `${surface}: scripts other than the data blocks and the viewer`).toBe(
    blocks.length + 1,
  );
}

describe('a hostile value in every string of a Report v1', () => {
  it('is generated into every string field, record key and free-form value of the schema', () => {
    hostileReport();
    // Spot checks that the generator reaches the fields the attack used and the deep ones.
    for (const field of [
      'report.signals[0].detector',
      'report.gate.reasons[0]',
      'report.tool.version',
      'report.inputs.errors[0].message',
      'report.review[0].reason',
      'report.verdicts[0].reason',
      'report.tests[0].name',
      'report.notes[0]',
      'report.waste.byDetector{key}',
      'report.signals[0].evidence{value}',
    ])
      expect(stringPaths).toContain(field);
    expect(stringPaths.length).toBeGreaterThan(50);
  });

  it.each(variants())('is inert in the markdown of $name and of its diffs', ({ report }) => {
    expectInertMarkdown('renderMarkdown', renderMarkdown(report));
    const head = headOf(report);
    expectInertMarkdown('renderDiffMarkdown', renderDiffMarkdown(diffReports(report, head)));
    expectInertMarkdown('renderDiffMarkdown (resolved)', renderDiffMarkdown(diffReports(head, report)));
  });

  it.each(variants())(
    'is inert in analyze-style CLI output of $name: diff and merge, every format',
    async ({ report }) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'tracejury-hostile-'));
      writeFileSync(path.join(dir, 'base.json'), JSON.stringify(report));
      writeFileSync(path.join(dir, 'head.json'), JSON.stringify(headOf(report)));
      for (const format of ['markdown', 'text', 'json', 'html']) {
        for (const args of [
          ['diff', 'base.json', 'head.json', '--format', format],
          ['merge', 'base.json', 'head.json', '--format', format],
        ]) {
          const { stdout, stderr } = await cli(args, dir);
          const surface = args.join(' ');
          expect(stdout.length, surface).toBeGreaterThan(100);
          if (format === 'markdown') expectInertMarkdown(surface, stdout);
          else if (format === 'html') expectInertHtml(surface, stdout);
          else expectInertTerminal(surface, stdout);
          expectInertTerminal(`${surface} (stderr)`, stderr);
        }
      }
    },
  );
});

describe('the Action with a hostile head report and baseline', () => {
  let gh: FakeGitHub;
  beforeAll(async () => {
    gh = await startFakeGitHub({ maxMs: 60_000 });
  });
  afterAll(() => gh.close());

  it.each(variants())(
    'posts a comment, a job summary and a check run where $name is inert, and logs no command',
    async ({ report }) => {
      const workspace = mkdtempSync(path.join(tmpdir(), 'tracejury-hostile-ws-'));
      writeFileSync(path.join(workspace, 'base.json'), JSON.stringify(report));
      const { core, rec } = fakeCore({
        command: 'run the evals',
        baseline: 'base.json',
        'github-token': 'ghs_token',
        'check-run': 'true',
        comment: 'update',
        'fail-on': 'any',
        'upload-baseline': 'never',
      });
      const context = {
        eventName: 'pull_request',
        payload: {
          repository: { default_branch: 'main', full_name: 'acme/agent' },
          pull_request: {
            number: 7,
            base: { ref: 'main', repo: { full_name: 'acme/agent' } },
            head: { sha: 'c0ffee', repo: { full_name: 'acme/agent' } },
          },
        },
        sha: 'c0ffee',
        ref: 'refs/pull/7/merge',
        workflow: 'tracejury',
        runId: 9,
        runNumber: 1,
        serverUrl: 'https://github.com',
        repo: { owner: 'acme', repo: 'agent' },
      } as unknown as ActionContext;
      const deps: ActionDeps = {
        core,
        context,
        octokit: (token) => getOctokit(token, { baseUrl: gh.url }),
        artifacts: {
          uploadArtifact: async () => {
            throw new Error('no upload expected');
          },
        },
        fs,
        exec: async (_command, _args, options) => {
          mkdirSync(path.join(options!.cwd!, '.tracejury'), { recursive: true });
          writeFileSync(path.join(options!.cwd!, '.tracejury/report.json'), JSON.stringify(headOf(report)));
          return 0;
        },
        env: { GITHUB_WORKSPACE: workspace, GITHUB_STEP_SUMMARY: path.join(workspace, 'summary.md') },
        tempDir: path.join(workspace, 'tmp'),
      };
      await run(deps);

      const comment = gh.comments.get(7)!.at(-1)!.body;
      expect(comment.split('\n')[0]).toBe('<!-- tracejury:default -->');
      expectInertMarkdown('the PR comment', comment.split('\n').slice(1).join('\n'));
      expectInertMarkdown('the job summary', rec.summary);
      const check = gh.checkRuns.at(-1)!;
      expect(check.output!.summary!).toContain('annotation');
      expectInertMarkdown('the check run summary', check.output!.summary!);
      expect(check.annotations.length).toBeGreaterThan(0);
      for (const a of check.annotations) {
        // Annotations are plain text to GitHub: redacted, one line, no control character.
        expectInertTerminal('an annotation title', String(a.title));
        expectInertTerminal('an annotation message', String(a.message));
      }
      // What the runner reads from the log: no data-made line is a command, nothing is raw.
      const log = [...rec.info, ...rec.warnings, ...rec.failed];
      expect(log.length).toBeGreaterThan(0);
      for (const line of log.flatMap((l) => l.split(/\r\n|\r|\n/))) {
        expect(line, 'a log line').not.toMatch(/^\s*::(add-mask|stop-commands)/);
        for (const secret of HOSTILE_SECRETS) expect(line.includes(secret)).toBe(false);
        expect(line).not.toContain('\x1b');
      }
    },
  );
});
