/**
 * The judge cassette is reviewable (issue 29, item 7), through the built CLI with the real OpenAI
 * SDK against a loopback judge: a recorded line names the trace, the detector and the rubric it
 * decides beside its hash; replayed, the verdict says "replayed from the cassette" in the report's
 * review reason (text, markdown, JSON, HTML) and carries `replayed`; a line an older version wrote
 * (no such fields) still replays; a cassette path that is a directory or a named pipe is a judge
 * error naming the path, not an internal error (nor a run that never ends).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startFakeServer, type FakeServer } from '../judge/fakeServers.js';

const bin = fileURLToPath(new URL('../../build/cli/bin.js', import.meta.url));

/** The CLI in a child process, awaited (the loopback judge answers from this one meanwhile). */
function tracejury(args: string[], cwd: string, env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd,
      env: { PATH: process.env.PATH, ...env },
      // A cassette that is a pipe once made the run wait forever: this bounds the test, not the code.
      timeout: 60_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let judge: FakeServer | undefined;
afterEach(async () => {
  await judge?.close();
  judge = undefined;
});

/** A gray-zone trace (three lookups), and one judge at `baseURL` with its key in MY_JUDGE_KEY. */
function checkout(baseURL: string, cassettePath = '.tracejury/cassette.jsonl') {
  const ws = mkdtempSync(path.join(tmpdir(), 'tracejury-cassette-'));
  const trace = {
    id: 'iterating',
    output: 'done',
    steps: ['R1', 'R2', 'R3'].map((id) => ({
      type: 'tool',
      name: 'get_reservation_details',
      args: { id },
      status: 'ok',
    })),
  };
  writeFileSync(path.join(ws, 'runs.jsonl'), `${JSON.stringify(trace)}\n`);
  writeFileSync(
    path.join(ws, 'tracejury.yml'),
    `tribunal:\n  judges:\n    - { provider: openai, model: gpt-4o, baseURL: "${baseURL}", apiKeyEnv: MY_JUDGE_KEY }\n  judgeTimeoutMs: 60000\n  budgetMs: 60000\n  cassette: { path: ${cassettePath} }\n`,
  );
  return ws;
}

/** The judge answers with text that is not a verdict: the case stays for review, with the verdict's reason. */
const unreadableAnswer = () => openaiReply('I would rather not say.');

interface ReviewReport {
  review: { reason: string }[];
  verdicts: { replayed?: boolean; judges: { replayed?: boolean; error?: string }[] }[];
}

describe('the judge cassette is reviewable', () => {
  it('a recorded line names what it decides; its replay says "replayed" wherever the verdict is shown', async () => {
    judge = await startFakeServer(unreadableAnswer);
    const ws = checkout(judge.openaiBaseURL);
    const live = await tracejury(['analyze', 'runs.jsonl', '--format', 'json', '--cassette', 'record'], ws, {
      MY_JUDGE_KEY: 'k',
    });
    expect(judge.requests).toHaveLength(1);
    const liveReport = JSON.parse(live.stdout) as ReviewReport;
    expect(liveReport.verdicts[0]!.replayed).toBeUndefined();
    expect(liveReport.review[0]!.reason).toMatch(/^tribunal INDETERMINATE: /);

    const lines = readFileSync(path.join(ws, '.tracejury/cassette.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(entry).slice(0, 6)).toEqual(['key', 'traceId', 'name', 'rubric', 'provider', 'model']);
    expect(entry).toMatchObject({
      traceId: 'iterating',
      name: 'TOOL_LOOP',
      provider: 'openai',
      model: 'gpt-4o',
    });
    // The rubric the tier wrote inline, named by its start.
    expect(entry.rubric).toMatch(/^custom: A rule-based detector \(TOOL_LOOP: .{20,}…$/);

    // Replayed with no key and no judge: every surface that shows the verdict says so.
    await judge.close();
    const replay = ['analyze', 'runs.jsonl', '--cassette', 'replay'];
    const json = JSON.parse((await tracejury([...replay, '--format', 'json'], ws)).stdout) as ReviewReport;
    expect(json.verdicts[0]!.replayed).toBe(true);
    expect(json.verdicts[0]!.judges[0]!.replayed).toBe(true);
    expect(json.review[0]!.reason).toMatch(/^tribunal INDETERMINATE, replayed from the cassette: /);
    expect((await tracejury(replay, ws)).stdout).toContain(
      'tribunal INDETERMINATE, replayed from the cassette: ',
    );
    expect((await tracejury([...replay, '--format', 'markdown'], ws)).stdout).toContain(
      'tribunal INDETERMINATE, replayed from the cassette: ',
    );
    await tracejury([...replay, '--out', 'report.html'], ws);
    expect(readFileSync(path.join(ws, 'report.html'), 'utf8')).toContain(
      'tribunal INDETERMINATE, replayed from the cassette: ',
    );
  }, 120_000);

  it('a line an older version wrote, with only the hash, still replays', async () => {
    judge = await startFakeServer(unreadableAnswer);
    const ws = checkout(judge.openaiBaseURL);
    await tracejury(['analyze', 'runs.jsonl', '--cassette', 'record'], ws, { MY_JUDGE_KEY: 'k' });
    await judge.close();
    const file = path.join(ws, '.tracejury/cassette.jsonl');
    const {
      traceId: _t,
      name: _n,
      rubric: _r,
      ...old
    } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, `${JSON.stringify(old)}\n`);
    const json = JSON.parse(
      (await tracejury(['analyze', 'runs.jsonl', '--cassette', 'replay', '--format', 'json'], ws)).stdout,
    ) as ReviewReport;
    expect(json.verdicts[0]!.replayed).toBe(true);
    expect(json.verdicts[0]!.judges[0]!.error).not.toMatch(/no cassette entry/);
  }, 120_000);

  it.each([
    ['a directory', (dir: string) => mkdirSync(dir), 'it is a directory'],
    ['a named pipe', (file: string) => execFileSync('mkfifo', [file]), 'it is a named pipe, not a file'],
  ])(
    'a cassette path that is %s is a judge error naming it',
    async (_what, make, reason) => {
      judge = await startFakeServer(unreadableAnswer);
      const ws = checkout(judge.openaiBaseURL, 'evals/cassette.jsonl');
      mkdirSync(path.join(ws, 'evals'));
      make(path.join(ws, 'evals/cassette.jsonl'));
      const run = await tracejury(['analyze', 'runs.jsonl', '--format', 'json'], ws, { MY_JUDGE_KEY: 'k' });
      expect(run.stderr).not.toContain('internal error');
      expect(run.code).toBe(0);
      const json = JSON.parse(run.stdout) as ReviewReport;
      expect(json.verdicts[0]!.judges[0]!.error).toBe(
        `cannot use the cassette evals/cassette.jsonl: ${reason}; point tribunal.cassette.path at a file (or where one can be written)`,
      );
      expect(judge.requests).toEqual([]);
    },
    120_000,
  );
});
