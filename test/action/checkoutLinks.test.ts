/**
 * What a pull request's checkout can make the Action read and upload, through run() with the real
 * Octokit against the loopback GitHub and an artifact store that records the bytes it is given:
 *
 * - the saved traces (issue 29, item 4): a committed `.tracejury/traces/cache → <outside dir>` and
 *   a shard's report naming `cache/credentials.json` upload nothing from outside; the real trace
 *   beside it still goes;
 * - `traces:` (item 6): links in the trace folder to `/etc/passwd`-like files and to another
 *   project's traces are input errors naming the link; no line of the outside file reaches the
 *   comment, the log or the job summary, and no outside trace the HTML;
 * - the HTML report (item 8): in `command:` mode the page uploaded is the one the Action wrote from
 *   the report, not what the command left at `.tracejury/report.html`, and a link left there does
 *   not make the Action write outside the workspace.
 */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { startFakeGitHub, type FakeGitHub } from '../helpers/fakeGitHub.js';
import { runOnPullRequest, PR } from '../helpers/pullRequestRun.js';
import { nativeTrace } from '../helpers/vitestProject.js';

let gh: FakeGitHub;
beforeAll(async () => {
  gh = await startFakeGitHub({ maxMs: 120_000 });
});
afterAll(() => gh.close());
beforeEach(() => gh.comments.clear());

const CREDENTIALS = '{"aws_secret": "OUTSIDE-CREDENTIAL-0123456789"}';
const PASSWD = 'root:x:0:0:OUTSIDE-PASSWD-LINE:/root:/bin/bash\ndaemon:x:1:1:OUTSIDE-SECOND-LINE\n';

/** A checkout (`ws`) and beside it the runner's files it must not reach. */
function checkout() {
  const root = mkdtempSync(path.join(tmpdir(), 'tracejury-checkout-'));
  const ws = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  mkdirSync(outside);
  mkdirSync(path.join(ws, 'traces'), { recursive: true });
  writeFileSync(path.join(outside, 'credentials.json'), CREDENTIALS);
  writeFileSync(path.join(outside, 'passwd'), PASSWD);
  writeFileSync(path.join(outside, 'other.jsonl'), `${nativeTrace('outside-run', 5)}\n`);
  return { root, ws, outside };
}

/** Everything the run published: the comment, the log lines, the job summary and every upload. */
function published(out: Awaited<ReturnType<typeof runOnPullRequest>>): string {
  return [
    out.comment,
    ...out.rec.info,
    ...out.rec.warnings,
    ...out.rec.failed,
    out.rec.summary,
    ...out.uploads.flatMap((u) => u.files.map((f) => f.text)),
  ].join('\n');
}

describe('the saved traces upload follows no link out of its folder (item 4)', () => {
  it('a linked cache folder and a shard naming cache/credentials.json upload only the real trace', async () => {
    const { ws, outside } = checkout();
    mkdirSync(path.join(ws, '.tracejury/traces'), { recursive: true });
    writeFileSync(path.join(ws, '.tracejury/traces/checkout-1.jsonl'), `${nativeTrace('checkout-1', 5)}\n`);
    symlinkSync(outside, path.join(ws, '.tracejury/traces/cache'));
    const base = await analyze([path.join(ws, '.tracejury/traces/checkout-1.jsonl')], {
      cwd: ws,
      baselines: false,
    });
    const saved = (file: string) => ({ id: 'checkout-1', file, line: 1 });
    writeFileSync(
      path.join(ws, 'shard-1.json'),
      JSON.stringify({
        ...base,
        tests: [
          {
            name: 'checkout does not loop',
            file: 'evals/checkout.test.ts',
            state: 'failed',
            attempts: 1,
            passedAttempts: 0,
            traces: ['checkout-1'],
            savedTraces: [
              saved('.tracejury/traces/checkout-1.jsonl'),
              saved('.tracejury/traces/cache/credentials.json'),
            ],
          },
        ],
      }),
    );
    const out = await runOnPullRequest({ gh, workspace: ws, inputs: { merge: 'shard-*.json' } });
    expect(out.rec.failed).toEqual([]);
    const traces = out.uploads.find((u) => u.name === 'tracejury-traces-default');
    expect(traces?.files.map((f) => f.name)).toEqual(['checkout-1.jsonl']);
    expect(out.rec.warnings).toContain(
      "tracejury: 1 saved trace the report names leads out of the saved traces' folder through a link and was not uploaded: .tracejury/traces/cache/credentials.json",
    );
    expect(published(out)).not.toContain('OUTSIDE-CREDENTIAL');
  });
});

describe('traces: follows no link out of the workspace (item 6)', () => {
  it('links to a passwd file and to an outside trace are input errors; nothing of them is published', async () => {
    const { ws, outside } = checkout();
    writeFileSync(path.join(ws, 'traces/mine.jsonl'), `${nativeTrace('inside-run', 5)}\n`);
    symlinkSync(path.join(outside, 'passwd'), path.join(ws, 'traces/passwd.jsonl'));
    symlinkSync(path.join(outside, 'other.jsonl'), path.join(ws, 'traces/other.jsonl'));
    const out = await runOnPullRequest({ gh, workspace: ws, inputs: { traces: 'traces/**/*.jsonl' } });
    expect(out.rec.failed).toEqual([]);
    const report = JSON.parse(readFileSync(path.join(ws, '.tracejury/report.json'), 'utf8')) as {
      traces: { id: string }[];
      inputs: { errors: { file: string; message: string }[] };
    };
    expect(report.traces.map((t) => t.id)).toEqual(['inside-run']);
    expect(report.inputs.errors.map((e) => `${e.file}: ${e.message}`)).toEqual([
      'traces/other.jsonl: a link to a file outside the working directory: not read (links are followed only to files inside it)',
      'traces/passwd.jsonl: a link to a file outside the working directory: not read (links are followed only to files inside it)',
    ]);
    const text = published(out);
    expect(text).not.toContain('OUTSIDE-PASSWD-LINE');
    expect(text).not.toContain('OUTSIDE-SECOND-LINE');
    expect(text).not.toContain('outside-run');
    const html = out.uploads.find((u) => u.name === 'tracejury-report-default.html')!;
    expect(html.files[0]!.text).toContain('inside-run');
    expect(out.comment).toContain('inside-run');
  });
});

describe('in command: mode the HTML report is the one the Action writes (item 8)', () => {
  function suiteCheckout() {
    const c = checkout();
    // What the suite would write: a report of a looping trace, whose file is in the checkout.
    writeFileSync(path.join(c.ws, 'traces/mine.jsonl'), `${nativeTrace('inside-run', 5)}\n`);
    return c;
  }

  it('a page the command left is replaced by tracejury’s, written from the report', async () => {
    const { ws } = suiteCheckout();
    const command =
      'node -e "' +
      "const fs=require('fs');fs.mkdirSync('.tracejury',{recursive:true});" +
      "fs.writeFileSync('.tracejury/report.html','<html><body>FORGED PAGE: all green</body></html>')" +
      '" && node ../make-report.mjs';
    writeFileSync(
      path.join(ws, '..', 'make-report.mjs'),
      `import { analyze } from ${JSON.stringify(path.resolve('build/index.js'))};\n` +
        `import { writeFileSync } from 'node:fs';\n` +
        `writeFileSync('.tracejury/report.json', JSON.stringify(await analyze(['traces/mine.jsonl'], { baselines: false })));\n`,
    );
    const out = await runOnPullRequest({ gh, workspace: ws, inputs: { command } });
    expect(out.rec.failed).toEqual([]);
    const html = out.uploads.find((u) => u.name === 'tracejury-report-default.html')!.files[0]!.text;
    expect(html).not.toContain('FORGED PAGE');
    expect(html).toContain('<meta http-equiv="Content-Security-Policy"');
    expect(html).toContain('inside-run');
    expect(out.comment).toContain(`/actions/runs/9001/artifacts/`);
    expect(gh.comments.get(PR)).toHaveLength(1);
  });

  it('a link the command left at report.html is replaced, not written through', async () => {
    const { ws, outside } = suiteCheckout();
    writeFileSync(
      path.join(ws, '..', 'make-report.mjs'),
      `import { analyze } from ${JSON.stringify(path.resolve('build/index.js'))};\n` +
        `import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';\n` +
        `mkdirSync('.tracejury', { recursive: true });\n` +
        `symlinkSync(${JSON.stringify(path.join(outside, 'credentials.json'))}, '.tracejury/report.html');\n` +
        `writeFileSync('.tracejury/report.json', JSON.stringify(await analyze(['traces/mine.jsonl'], { baselines: false })));\n`,
    );
    const out = await runOnPullRequest({ gh, workspace: ws, inputs: { command: 'node ../make-report.mjs' } });
    expect(out.rec.failed).toEqual([]);
    expect(readFileSync(path.join(outside, 'credentials.json'), 'utf8')).toBe(CREDENTIALS);
    const html = out.uploads.find((u) => u.name === 'tracejury-report-default.html')!.files[0]!.text;
    expect(html).toContain('inside-run');
    expect(html).not.toContain('OUTSIDE-CREDENTIAL');
  });
});
