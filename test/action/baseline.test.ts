/**
 * The Action's baseline: the real @actions/github Octokit and @actions/artifact client, pointed at
 * the loopback fake GitHub, find the report a base-branch run uploaded (paging through the runs,
 * skipping runs without it and expired artifacts), fall back to the committed file when the token
 * cannot read Actions or the artifact is not a report, say "first run" when there is nothing, and
 * fail only on a `baseline:` path the user named that is unusable.
 */
import * as fsPromises from 'node:fs/promises';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  baselineArtifactName,
  COMMITTED_BASELINE,
  findBaseline,
  uploadBaseline,
  type FindBaselineArgs,
} from '../../src/action/baseline.js';
import { whyNotBaseline, type WorkflowRun } from '../../src/action/baselineRuns.js';
import { ActionInputError } from '../../src/action/inputError.js';
import { analyze } from '../../src/analyze.js';
import type { Report } from '../../src/report/schema.js';
import { startFakeGitHub, type FakeGitHub } from '../helpers/fakeGitHub.js';
import {
  addRun,
  artifactEnv,
  artifactRoutes,
  createArtifactStore,
  resetArtifactStore,
  seedArtifact,
  type FakeArtifactStore,
  type FakeRun,
} from '../helpers/fakeGitHubArtifacts.js';
import { zipFile } from '../helpers/zipFile.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const TOKEN = 'ghs_fake_token_for_the_loopback';
const NAME = baselineArtifactName('default');
const FILE = `${NAME}.json`;

let report: Report;

/** A report told apart from the others by its generatedAt. */
const reportJson = (generatedAt: string) => JSON.stringify({ ...report, generatedAt });

const store: FakeArtifactStore = createArtifactStore();
let gh: FakeGitHub;
let getOctokit: typeof import('@actions/github').getOctokit;
let DefaultArtifactClient: typeof import('@actions/artifact').DefaultArtifactClient;
let scratch: string;
let workDir: string;
let tempDir: string;
let logs: string[];
const envKeys = [
  'ACTIONS_RUNTIME_TOKEN',
  'ACTIONS_RESULTS_URL',
  'GITHUB_API_URL',
  'GITHUB_WORKSPACE',
  'GITHUB_SERVER_URL',
] as const;
let savedEnv: Partial<Record<(typeof envKeys)[number], string>>;

beforeAll(async () => {
  savedEnv = Object.fromEntries(envKeys.map((k) => [k, process.env[k]]));
  report = await analyze(['examples/traces/llm-calls.jsonl'], { cwd: root, baselines: false });
  gh = await startFakeGitHub({ routes: artifactRoutes(store), maxMs: 60_000 });
  // @actions/github fixes its API URL from GITHUB_API_URL when first imported, and the artifact
  // client's download builds its Octokit from there: one server for the file, set before the import.
  // The artifact client refuses GHES hosts, so GITHUB_SERVER_URL stays github.com (unset).
  process.env.GITHUB_API_URL = gh.url;
  delete process.env.GITHUB_SERVER_URL;
  ({ getOctokit } = await import('@actions/github'));
  ({ DefaultArtifactClient } = await import('@actions/artifact'));
});

afterAll(async () => {
  for (const k of envKeys) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
  await gh.close();
});

beforeEach(() => {
  resetArtifactStore(store);
  gh.requests.length = 0;
  gh.forbidden.clear();
  scratch = mkdtempSync(path.join(tmpdir(), 'tracejury-baseline-test-'));
  workDir = path.join(scratch, 'work');
  tempDir = path.join(scratch, 'runner-temp');
  mkdirSync(workDir);
  logs = [];
  process.env.GITHUB_WORKSPACE = workDir;
});

afterEach(() => {
  delete process.env.ACTIONS_RUNTIME_TOKEN;
  delete process.env.ACTIONS_RESULTS_URL;
  rmSync(scratch, { recursive: true, force: true });
});

function find(over: Partial<FindBaselineArgs> = {}) {
  return findBaseline({
    input: { kind: 'auto' },
    octokit: getOctokit(TOKEN, { baseUrl: gh.url }),
    fs: fsPromises,
    repo: { owner: gh.owner, repo: gh.repo },
    baseBranch: 'main',
    workflowId: 'ci.yml',
    artifactName: NAME,
    workDir,
    tempDir,
    log: (line) => logs.push(line),
    ...over,
  });
}

function commitBaseline(text: string) {
  mkdirSync(path.join(workDir, '.tracejury'), { recursive: true });
  writeFileSync(path.join(workDir, COMMITTED_BASELINE), text);
}

const seedReport = (run: FakeRun, generatedAt: string, extra: { expired?: boolean } = {}) =>
  seedArtifact(store, run, { name: FILE, bytes: reportJson(generatedAt), ...extra });

const requestsTo = (re: RegExp) => gh.requests.filter((r) => re.test(r.url.pathname));

describe('uploadBaseline then findBaseline', () => {
  it('a push run’s upload is the report a later pull-request run finds, byte for byte', async () => {
    const push = addRun(store, { branch: 'main', conclusion: null });
    Object.assign(process.env, artifactEnv(gh, push));
    const reportPath = path.join(workDir, '.tracejury', 'report.json');
    mkdirSync(path.dirname(reportPath), { recursive: true });
    const bytes = reportJson('2025-05-01T00:00:00.000Z');
    writeFileSync(reportPath, bytes);

    const uploaded = await uploadBaseline({
      artifacts: new DefaultArtifactClient(),
      fs: fsPromises,
      reportPath,
      artifactName: NAME,
      tempDir,
      retentionDays: 30,
    });
    // Uploaded raw, the artifact is named after the file: the name findBaseline asks for.
    expect(store.artifacts.map((a) => [a.id, a.name, a.runId])).toEqual([[uploaded.id, FILE, push.id]]);
    expect(store.artifacts[0]!.bytes.toString('utf8')).toBe(bytes);
    expect(store.artifacts[0]!.contentType).toBe('application/json');
    expect(uploaded.size).toBe(Buffer.byteLength(bytes));

    // The push run ends well; a pull-request run on a branch now looks for its base.
    push.status = 'completed';
    push.conclusion = 'success';
    delete process.env.ACTIONS_RUNTIME_TOKEN;
    const found = await find();
    expect(found.warnings).toEqual([]);
    expect(found.report).toEqual(JSON.parse(bytes));
    expect(found.source).toBe(`the report of run #1 on main (${push.head_sha.slice(0, 7)})`);
    expect(found.url).toBe(push.html_url);
    // The download is the one raw JSON file, the same bytes.
    const [dir] = readdirSync(tempDir).filter((d) => d.startsWith('tracejury-baseline-'));
    expect(readFileSync(path.join(tempDir, dir!, FILE), 'utf8')).toBe(bytes);
    // The token went in the Authorization header only.
    const listRuns = requestsTo(/\/actions\/workflows\/ci\.yml\/runs$/)[0]!;
    expect(listRuns.headers.authorization).toBe(`token ${TOKEN}`);
    expect(listRuns.url.searchParams.get('branch')).toBe('main');
    expect(listRuns.url.searchParams.get('status')).toBe('success');
  });
});

describe('findBaseline auto', () => {
  it('accepts an artifact someone uploaded zipped, when it holds one JSON file', async () => {
    const push = addRun(store);
    Object.assign(process.env, artifactEnv(gh, push));
    const dir = path.join(scratch, 'zipped');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'report.json'), reportJson('zipped'));
    await new DefaultArtifactClient().uploadArtifact(FILE, [path.join(dir, 'report.json')], dir);
    expect(store.artifacts[0]!.contentType).toBe('application/zip');

    const found = await find();
    expect(found.warnings).toEqual([]);
    expect(found.report?.generatedAt).toBe('zipped');

    // Two reports in one zip: which one is the baseline is anyone's guess, so neither is.
    writeFileSync(path.join(dir, 'other.json'), reportJson('other'));
    const again = addRun(store);
    Object.assign(process.env, artifactEnv(gh, again));
    await new DefaultArtifactClient().uploadArtifact(
      FILE,
      [path.join(dir, 'report.json'), path.join(dir, 'other.json')],
      dir,
    );
    const two = await find();
    expect(two.report).toBeUndefined();
    expect(two.warnings).toEqual([expect.stringContaining(`run #${again.run_number} on main`)]);
    expect(two.warnings[0]).toContain('it holds 2 .json files');
  });

  it('takes the latest successful run on the base branch that has the artifact', async () => {
    seedReport(addRun(store), 'oldest');
    const wanted = addRun(store);
    seedReport(wanted, 'wanted');
    seedReport(addRun(store, { conclusion: 'failure' }), 'failed run');
    seedReport(addRun(store, { branch: 'feature' }), 'other branch');
    seedReport(addRun(store, { workflowFile: 'nightly.yml', workflowId: 99 }), 'other workflow');
    const otherId = addRun(store);
    seedArtifact(store, otherId, { name: 'tracejury-report-other.json', bytes: reportJson('other id') });
    const newest = addRun(store); // the newest success, with no artifact at all

    const found = await find();
    expect(found.report?.generatedAt).toBe('wanted');
    expect(found.source).toBe(
      `the report of run #${wanted.run_number} on main (${wanted.head_sha.slice(0, 7)})`,
    );
    // Newest first, asking for this comment-id's artifact by name; the oldest run never.
    const asked = requestsTo(/\/actions\/runs\/\d+\/artifacts$/);
    expect(asked.map((r) => r.url.pathname.split('/')[6])).toEqual(
      [newest, otherId, wanted].map((r) => String(r.id)),
    );
    expect(new Set(asked.map((r) => r.url.searchParams.get('name')))).toEqual(new Set([FILE]));
  });

  it('pages past the first 100 runs when the artifact is older', async () => {
    const runs = Array.from({ length: 120 }, () => addRun(store));
    const run105 = runs[120 - 105]!; // the 105th newest
    seedReport(run105, 'page two');

    const found = await find({ maxRuns: 150 });
    expect(found.report?.generatedAt).toBe('page two');
    expect(found.source).toContain(`run #${run105.run_number} on main`);
    const pages = requestsTo(/\/runs$/).map((r) => r.url.searchParams.get('page'));
    expect(pages).toEqual(['1', '2']);
    expect(requestsTo(/\/artifacts$/)).toHaveLength(105);
  });

  it('stops after maxRuns runs (30 by default) and says how far it looked', async () => {
    const runs = Array.from({ length: 120 }, () => addRun(store));
    seedReport(runs[120 - 105]!, 'too old');

    const found = await find();
    expect(found.report).toBeUndefined();
    expect(found.source).toContain('(looked through the latest 30 runs)');
    expect(requestsTo(/\/artifacts$/)).toHaveLength(30);
    expect(requestsTo(/\/runs$/)).toHaveLength(1);
  });

  it('skips an expired artifact for an older live one', async () => {
    seedReport(addRun(store), 'live');
    seedReport(addRun(store), 'expired', { expired: true });
    const found = await find();
    expect(found.report?.generatedAt).toBe('live');
    expect(
      gh.requests.some(
        (r) => r.url.pathname.endsWith('/zip') && r.url.pathname.includes(String(store.artifacts[1]!.id)),
      ),
    ).toBe(false);
  });

  it('with only expired artifacts and nothing committed, says so and that this is a first run', async () => {
    seedReport(addRun(store), 'expired', { expired: true });
    const found = await find();
    expect(found.report).toBeUndefined();
    expect(found.source).toContain('1 expired one aside');
    expect(found.source).toContain('first run');
  });

  it('without actions: read (403) warns naming the permission and uses the committed baseline', async () => {
    seedReport(addRun(store), 'unreachable');
    gh.forbidden.add('artifacts');
    commitBaseline(reportJson('committed'));

    const found = await find();
    expect(found.report?.generatedAt).toBe('committed');
    expect(found.source).toBe(`committed ${COMMITTED_BASELINE}`);
    expect(found.warnings).toHaveLength(1);
    expect(found.warnings[0]).toContain('403');
    expect(found.warnings[0]).toContain('actions: read');
    expect(found.warnings[0]).not.toContain(TOKEN);
  });

  it('with no run, no artifact and no committed file says plainly that this is the first run', async () => {
    addRun(store, { branch: 'feature' });
    const found = await find();
    expect(found).toEqual({
      report: undefined,
      source: `none: no successful push run of this workflow on main has a ${FILE} artifact yet; runs that failed are passed over (on main, \`fail-on: regression\` lets a run with findings succeed and become the baseline), and there is no committed ${COMMITTED_BASELINE} (first run: a report without deltas)`,
      warnings: [],
    });
  });

  it('an artifact that is not a report is a warning naming the run, then the committed fallback', async () => {
    seedReport(addRun(store), 'older but fine');
    const bad = addRun(store);
    seedArtifact(store, bad, { name: FILE, bytes: JSON.stringify({ hello: 'world' }) });
    commitBaseline(reportJson('committed'));

    const found = await find();
    expect(found.report?.generatedAt).toBe('committed');
    expect(found.warnings).toHaveLength(1);
    expect(found.warnings[0]).toContain(`run #${bad.run_number} on main (${bad.head_sha.slice(0, 7)})`);
    expect(found.warnings[0]).toContain('not a Report v1: schemaVersion');
  });

  it('a committed file that is not a report is a warning, and then there is none', async () => {
    commitBaseline('{ not json');
    const found = await find();
    expect(found.report).toBeUndefined();
    expect(found.warnings).toEqual([
      expect.stringMatching(/^baseline: \.tracejury\/baseline-report\.json: not valid JSON/),
    ]);
    expect(found.source).toContain('first run');
  });

  it('without a base branch or a workflow it asks GitHub nothing and falls back', async () => {
    commitBaseline(reportJson('committed'));
    const noBranch = await find({ baseBranch: undefined });
    expect(noBranch.report?.generatedAt).toBe('committed');
    const noWorkflow = await find({ workflowId: undefined });
    expect(noWorkflow.report?.generatedAt).toBe('committed');
    expect(gh.requests).toEqual([]);
    rmSync(path.join(workDir, COMMITTED_BASELINE));
    expect((await find({ baseBranch: undefined })).source).toContain('no base branch');
  });
});

describe('findBaseline trusts only this repository’s own runs', () => {
  it('passes over a fork’s newer pull_request run on a branch called main for the repository’s push run', async () => {
    const push = addRun(store);
    seedReport(push, 'our push');
    // GitHub lists this under branch=main: the fork's branch is called main, its workflow is the
    // fork's own, and it uploaded a report under our artifact name.
    const fork = addRun(store, { fork: 'someone/agent-fork' });
    seedReport(fork, 'planted by the fork');
    expect(fork.id).toBeGreaterThan(push.id);

    const found = await find();
    expect(found.warnings).toEqual([]);
    expect(found.report?.generatedAt).toBe('our push');
    expect(found.source).toBe(`the report of run #${push.run_number} on main (${push.head_sha.slice(0, 7)})`);
    // Listed as pushes only; the fork's run and its artifact were never looked at.
    const listed = requestsTo(/\/actions\/workflows\/ci\.yml\/runs$/);
    expect(listed.map((r) => r.url.searchParams.get('event'))).toEqual(['push']);
    expect(requestsTo(new RegExp(`/actions/runs/${fork.id}/`))).toEqual([]);
    const planted = store.artifacts.find((a) => a.runId === fork.id)!;
    expect(requestsTo(new RegExp(`/artifacts/${planted.id}/zip$`))).toEqual([]);
  });

  it('checks each listed run again: one from another repository is passed over with a line saying why', async () => {
    const push = addRun(store);
    seedReport(push, 'our push');
    // A listing that let another repository's run through (GitHub's filter is not the only check).
    const stranger = addRun(store, { fork: 'someone/agent-fork', event: 'push' });
    seedReport(stranger, 'planted');

    const found = await find();
    expect(found.report?.generatedAt).toBe('our push');
    expect(logs).toContain(
      `baseline: passed over run #${stranger.run_number} (${stranger.html_url}): its commit comes from someone/agent-fork, not acme/agent`,
    );
    expect(requestsTo(new RegExp(`/actions/runs/${stranger.id}/`))).toEqual([]);
  });

  it('on the default branch takes scheduled and hand-started runs too, newest first; elsewhere only pushes', async () => {
    seedReport(addRun(store), 'push');
    const nightly = addRun(store, { event: 'schedule' });
    seedReport(nightly, 'nightly');
    seedReport(addRun(store, { event: 'pull_request' }), 'a same-repo pull request run');

    const onDefault = await find({ defaultBranch: 'main' });
    expect(onDefault.report?.generatedAt).toBe('nightly');
    const events = requestsTo(/\/runs$/).map((r) => r.url.searchParams.get('event'));
    expect(events).toEqual(['push', 'schedule', 'workflow_dispatch']);

    gh.requests.length = 0;
    const intoRelease = await find({ defaultBranch: 'develop' });
    expect(intoRelease.report?.generatedAt).toBe('push');
    expect(requestsTo(/\/runs$/).map((r) => r.url.searchParams.get('event'))).toEqual(['push']);
  });

  it('whyNotBaseline names the event, branch or repository that rules a run out', () => {
    const rule = { repository: 'acme/agent', baseBranch: 'main', events: ['push'] };
    const run = (over: Record<string, unknown>) =>
      ({
        event: 'push',
        head_branch: 'main',
        head_repository: { full_name: 'acme/agent' },
        ...over,
      }) as unknown as WorkflowRun;
    expect(whyNotBaseline(run({}), rule)).toBeUndefined();
    // GitHub's names are case-insensitive.
    expect(whyNotBaseline(run({ head_repository: { full_name: 'Acme/Agent' } }), rule)).toBeUndefined();
    expect(whyNotBaseline(run({ event: 'pull_request_target' }), rule)).toBe(
      'it ran for a pull_request_target event; only push runs are baselines',
    );
    expect(whyNotBaseline(run({ head_branch: 'feature' }), rule)).toBe('it ran on feature, not main');
    expect(whyNotBaseline(run({ head_repository: null }), rule)).toBe(
      'its commit comes from an unknown repository, not acme/agent',
    );
  });
});

describe('findBaseline bounds what a baseline may weigh', () => {
  const LIMIT = 64 * 1024;
  /** A report padded past LIMIT with a long generatedAt. */
  const bigReport = () => reportJson('x'.repeat(LIMIT + 1000));

  const expectNoBaseline = (found: Awaited<ReturnType<typeof find>>, what: RegExp) => {
    expect(found.report).toBeUndefined();
    expect(found.warnings).toHaveLength(1);
    expect(found.warnings[0]).toMatch(what);
    expect(found.warnings[0]).toMatch(/(over|went past) the 64 KiB a baseline may weigh/);
    expect(found.source).toContain('(first run: a report without deltas)');
  };

  it('a report over the limit is refused from its listed size, before any download', async () => {
    const run = addRun(store);
    seedArtifact(store, run, { name: FILE, bytes: bigReport() });
    const found = await find({ maxBytes: LIMIT });
    expectNoBaseline(found, new RegExp(`run #${run.run_number} on main.*: it is \\d+(?:\\.\\d)? KiB,`));
    expect(requestsTo(/\/zip$/)).toEqual([]);
  });

  it('a listed size that lies is caught by the Content-Length, and without one by counting', async () => {
    const run = addRun(store);
    seedArtifact(store, run, { name: FILE, bytes: bigReport(), sizeInBytes: 10 });
    expectNoBaseline(await find({ maxBytes: LIMIT }), /: its download is \d+(?:\.\d)? KiB, over/);

    resetArtifactStore(store);
    const chunked = addRun(store);
    seedArtifact(store, chunked, { name: FILE, bytes: bigReport(), sizeInBytes: 10, chunked: true });
    expectNoBaseline(await find({ maxBytes: LIMIT }), /: its download went past the 64 KiB/);
    // The partial download does not stay behind.
    const dirs = readdirSync(tempDir).map((d) => readdirSync(path.join(tempDir, d)));
    expect(dirs.flat()).toEqual([]);
  });

  it('a zip whose report entry states a size over the limit is not unpacked', async () => {
    const run = addRun(store);
    // 4 GiB stated, a few bytes stored: a zip bomb's header.
    const zip = zipFile([{ name: 'report.json', data: '{}', claimedSize: 0xffff_fff0 }]);
    seedArtifact(store, run, { name: FILE, bytes: zip, contentType: 'application/zip' });
    expectNoBaseline(await find({ maxBytes: LIMIT }), /: its report\.json unpacked is 4 GiB, over/);
  });

  it('a zip whose report entry unpacks past the size it states is stopped there', async () => {
    const run = addRun(store);
    // 8 MiB of zeros deflate to a few KiB; the header says 100 bytes.
    const zip = zipFile([{ name: 'report.json', data: Buffer.alloc(8 * 1024 * 1024), claimedSize: 100 }]);
    expect(zip.length).toBeLessThan(LIMIT);
    seedArtifact(store, run, { name: FILE, bytes: zip, contentType: 'application/zip' });
    const found = await find({ maxBytes: LIMIT });
    expect(found.report).toBeUndefined();
    expect(found.warnings).toEqual([
      expect.stringMatching(/: it is refused as a zip: too many bytes in the stream/),
    ]);
  });

  it('a zip holding a true report over the limit, stated honestly, is refused too', async () => {
    const run = addRun(store);
    const zip = zipFile([{ name: 'report.json', data: bigReport() }]);
    expect(zip.length).toBeLessThan(LIMIT);
    seedArtifact(store, run, { name: FILE, bytes: zip, contentType: 'application/zip' });
    expectNoBaseline(
      await find({ maxBytes: LIMIT }),
      /: its report\.json unpacked is \d+(?:\.\d)? KiB, over/,
    );
  });

  it('a committed baseline over the limit is a warning; a named one is an input error', async () => {
    commitBaseline(bigReport());
    const found = await find({ maxBytes: LIMIT });
    expect(found.report).toBeUndefined();
    expect(found.warnings).toEqual([
      expect.stringMatching(
        /^baseline: \.tracejury\/baseline-report\.json is \d+(?:\.\d)? KiB, over the 64 KiB a baseline may weigh; comparing with no baseline$/,
      ),
    ]);
    await expect(
      find({ input: { kind: 'file', path: COMMITTED_BASELINE }, maxBytes: LIMIT }),
    ).rejects.toThrow(
      /^baseline: \.tracejury\/baseline-report\.json is \d+(?:\.\d)? KiB \([\d,]+ bytes\), over the 64 KiB a report file may weigh$/,
    );
  });

  it.each([
    ['a ../ entry', [{ name: '../escaped.json', data: '{}' }], /invalid relative path: \.\.\/escaped\.json/],
    ['an absolute entry', [{ name: '/tmp/escaped.json', data: '{}' }], /absolute path: \/tmp\/escaped\.json/],
    ['a backslash entry', [{ name: '..\\escaped.json', data: '{}' }], /invalid characters in fileName/],
    [
      'a symbolic link',
      [{ name: 'report.json', data: '/etc/passwd', symlink: true, method: 'store' as const }],
      /it holds a symbolic link, report\.json: refused as tampered with/,
    ],
  ])('refuses a zip with %s, writing nothing outside its directory', async (_label, entries, why) => {
    const run = addRun(store);
    seedArtifact(store, run, {
      name: FILE,
      bytes: zipFile([...entries, { name: 'report.json.bak', data: reportJson('beside') }]),
      contentType: 'application/zip',
    });
    const found = await find();
    expect(found.report).toBeUndefined();
    expect(found.warnings).toEqual([expect.stringMatching(why)]);
    // Nothing was extracted anywhere: the download directory holds the zip alone.
    expect(readdirSync(scratch).sort()).toEqual(['runner-temp', 'work']);
    const [dir] = readdirSync(tempDir);
    expect(readdirSync(path.join(tempDir, dir!))).toEqual([`${FILE}.zip`]);
  });
});

describe('findBaseline file and none', () => {
  it('reads and validates a named file relative to the working directory', async () => {
    writeFileSync(path.join(workDir, 'base.json'), reportJson('from file'));
    const found = await find({ input: { kind: 'file', path: 'base.json' } });
    expect(found.report?.generatedAt).toBe('from file');
    expect(found.source).toBe('base.json');
    expect(gh.requests).toEqual([]);
  });

  it('a missing file is an input error naming the input and the path', async () => {
    const err = await find({ input: { kind: 'file', path: 'missing.json' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActionInputError);
    expect((err as Error).name).toBe('ActionInputError');
    expect((err as Error).message).toMatch(
      /^baseline: missing\.json: cannot read the report: no such file or directory \(ENOENT\)/,
    );
  });

  it('a file that is not a report is an input error naming the first bad field', async () => {
    writeFileSync(
      path.join(workDir, 'bad.json'),
      JSON.stringify({ ...report, tool: { name: 'other', version: '1' } }),
    );
    const err = await find({ input: { kind: 'file', path: 'bad.json' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActionInputError);
    expect((err as Error).message).toMatch(/^baseline: bad\.json: not a Report v1: tool\.name: /);

    writeFileSync(path.join(workDir, 'text.json'), 'hello');
    await expect(find({ input: { kind: 'file', path: 'text.json' } })).rejects.toThrow(
      /^baseline: text\.json: not valid JSON/,
    );
  });

  it('none asks nothing and says so', async () => {
    commitBaseline(reportJson('committed'));
    expect(await find({ input: { kind: 'none' } })).toEqual({
      report: undefined,
      source: 'the workflow set `baseline: none`',
      warnings: [],
    });
    expect(gh.requests).toEqual([]);
  });
});
