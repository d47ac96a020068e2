/**
 * run(deps) in-process with fakes passed in (no module mocking): the eval command's exit code and
 * report, a command that writes no report, a partial report that is not a report, a `traces` input
 * with a bad record beside good ones, and a push with no PR. Each bad input fails the step with a
 * message naming the input, the file and the field; good data beside it is still reported.
 */
import { getOctokit } from '@actions/github';
import * as fs from 'node:fs/promises';
import { mkdirSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionDeps, Exec } from '../../src/action/deps.js';
import { MAX_BASELINE_BYTES } from '../../src/action/baseline.js';
import { run } from '../../src/action/run.js';
import { analyze } from '../../src/analyze.js';
import { pushContext } from '../helpers/actionContext.js';
import { fakeCore } from '../helpers/fakeCore.js';
import { startFakeGitHub, type FakeGitHub } from '../helpers/fakeGitHub.js';
import type { Report } from '../../src/report/schema.js';
import { normalRuns, outlierRun } from '../helpers/codingRuns.js';
import { nativeTrace } from '../helpers/vitestProject.js';

let gh: FakeGitHub;
let goodReport: string;

beforeAll(async () => {
  gh = await startFakeGitHub({ maxMs: 60_000 });
  const dir = mkdtempSync(path.join(tmpdir(), 'tracejury-run-'));
  writeFileSync(path.join(dir, 't.json'), nativeTrace('good-1', 1));
  goodReport = JSON.stringify(await analyze([path.join(dir, 't.json')], { cwd: dir, baselines: false }));
});
afterAll(() => gh.close());

function setup(inputs: Record<string, string>, exec: Exec = async () => 0) {
  const workspace = mkdtempSync(path.join(tmpdir(), 'tracejury-ws-'));
  const { core, rec } = fakeCore({
    baseline: 'none',
    'github-token': 'ghs_x',
    'check-run': 'false',
    ...inputs,
  });
  const deps: ActionDeps = {
    core,
    context: pushContext,
    octokit: (token) => getOctokit(token, { baseUrl: gh.url }),
    artifacts: {
      uploadArtifact: async () => {
        throw new Error('no artifact call expected');
      },
    },
    fs,
    exec,
    env: { GITHUB_WORKSPACE: workspace, GITHUB_STEP_SUMMARY: path.join(workspace, 'summary.md') },
    tempDir: path.join(workspace, 'tmp'),
  };
  return { deps, rec, workspace };
}

describe('run(deps)', () => {
  it('runs the command with bash in working-directory, reads its report, and fails on a non-zero exit the report does not explain', async () => {
    const calls: { command: string; args: string[]; cwd: string | undefined }[] = [];
    const { deps, rec, workspace } = setup(
      { command: 'npm run evals && echo done', 'working-directory': 'app' },
      async (command, args, options) => {
        calls.push({ command, args: args ?? [], cwd: options?.cwd });
        mkdirSync(path.join(options!.cwd!, '.tracejury'), { recursive: true });
        writeFileSync(path.join(options!.cwd!, '.tracejury/report.json'), goodReport);
        return 2;
      },
    );
    mkdirSync(path.join(workspace, 'app'));
    const result = await run(deps);
    expect(calls).toEqual([
      { command: 'bash', args: ['-c', 'npm run evals && echo done'], cwd: path.join(workspace, 'app') },
    ]);
    expect(result?.reportPath).toBe(path.join(workspace, 'app/.tracejury/report.json'));
    expect(rec.failed).toEqual(['tracejury: the command exited with 2']);
    expect(rec.outputs.passed).toBe('false');
    expect(rec.secrets).toEqual(['ghs_x']);
    expect(rec.info).toContain(
      'tracejury: no pull request for this push event; the job summary has the report',
    );
    expect(rec.summary).toContain('### tracejury ✅ passed');
  });

  it('a command that writes no report fails the step saying how to make one', async () => {
    const { deps, rec } = setup({ command: 'npx vitest run' }, async () => 1);
    expect(await run(deps)).toBeUndefined();
    expect(rec.failed).toHaveLength(1);
    expect(rec.failed[0]).toMatch(
      /^command: `npx vitest run` exited with 1 and wrote no report at \.tracejury\/report\.json\. Add tracejury\(\) to the plugins in vitest\.config\.ts/,
    );
  });

  it('merge with a partial report that is not a report names the input, the file and the field', async () => {
    const { deps, rec, workspace } = setup({ merge: 'shards/*.json' });
    mkdirSync(path.join(workspace, 'shards'));
    writeFileSync(path.join(workspace, 'shards/a.json'), goodReport);
    writeFileSync(
      path.join(workspace, 'shards/b.json'),
      JSON.stringify({ ...JSON.parse(goodReport), tool: { name: 'other' } }),
    );
    expect(await run(deps)).toBeUndefined();
    expect(rec.failed).toEqual([
      expect.stringMatching(/^merge: shards\/b\.json: not a Report v1: tool\.name: /),
    ]);
  });

  it('a report input heavier than the baseline limit is refused by its size before it is read', async () => {
    // In the fork pattern the comment job reads a report the fork's run wrote. A sparse file has the
    // size of a huge report without its bytes: the step must fail on the size, not while reading.
    const { deps, rec, workspace } = setup({ report: 'huge.json' });
    const file = path.join(workspace, 'huge.json');
    writeFileSync(file, '');
    truncateSync(file, MAX_BASELINE_BYTES + 1);
    expect(await run(deps)).toBeUndefined();
    expect(rec.failed).toEqual([
      expect.stringMatching(
        /^report: huge\.json is 256 MiB \(268,435,457 bytes\), over the 256 MiB a report file may weigh$/,
      ),
    ]);
  });

  it('traces with a bad record beside good ones: the good trace is reported, the input error fails the gate', async () => {
    const { deps, rec, workspace } = setup({ traces: 'traces', 'fail-on': 'gate' });
    mkdirSync(path.join(workspace, 'traces'));
    writeFileSync(
      path.join(workspace, 'traces/runs.jsonl'),
      `${nativeTrace('good-2', 1)}\n{"id": "broken", "steps": 7}\n`,
    );
    await run(deps);
    const report = JSON.parse(readFileSync(rec.outputs['report-path']!, 'utf8'));
    expect(report.traces.map((t: { id: string }) => t.id)).toEqual(['good-2']);
    expect(rec.warnings[0]).toMatch(
      /^tracejury: 1 input error in the traces; the first: traces\/runs\.jsonl:2: /,
    );
    expect(rec.failed[0]).toMatch(/input error/);
  });

  it("traces of an agent with no baseline store are judged against the base report's good runs", async () => {
    const { deps, rec, workspace } = setup({ traces: 'traces', baseline: 'base.json' });
    const base = await analyze(normalRuns(24, 'base'), { baselines: false });
    writeFileSync(path.join(workspace, 'base.json'), JSON.stringify(base));
    mkdirSync(path.join(workspace, 'traces'));
    writeFileSync(
      path.join(workspace, 'traces/runs.jsonl'),
      [...normalRuns(3, 'head'), outlierRun()].map((r) => JSON.stringify(r)).join('\n') + '\n',
    );
    await run(deps);
    const report = JSON.parse(readFileSync(rec.outputs['report-path']!, 'utf8')) as Report;
    expect(report.baselines?.[0]?.detectors.COST_SPIKE).toEqual({ source: 'base-report', runs: 24 });
    expect(
      report.signals
        .filter((s) => s.detector === 'COST_SPIKE' && s.status === 'finding')
        .map((s) => s.traceId),
    ).toEqual(['outlier']);
    // The comment quotes the finding, which names its baseline.
    expect(rec.summary).toContain("P75 baseline of 24 good runs in the base branch's report");
  });
});
