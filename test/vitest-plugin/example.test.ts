/**
 * examples/vitest, the eval suite docs/vitest.md takes its examples from, run for real as its
 * command runs it: from the repository root, with no API key. It must pass, use every matcher,
 * and replay the tribunal's verdicts from the committed cassette without touching the network
 * (judge base URLs point at a loopback trap that must stay unasked).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, type ReportLike, type RunResult } from '../helpers/vitestProject.js';

const EXAMPLE = path.join(REPO, 'examples', 'vitest');
const STATE_DIR = path.join(EXAMPLE, '.tracejury');
const VITEST_BIN = path.join(REPO, 'node_modules', 'vitest', 'vitest.mjs');
const TIMEOUT_MS = 120_000;

function runExample(env: NodeJS.ProcessEnv): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [VITEST_BIN, 'run', '--config', 'examples/vitest/vitest.config.ts'],
      { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the example suite did not end within ${TIMEOUT_MS} ms\n${stdout}\n${stderr}`));
    }, TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, output: `${stdout}\n${stderr}`.replace(/\x1b\[[0-9;]*m/g, '') });
    });
  });
}

interface TestEntry {
  name: string;
  state: string;
  attempts: number;
  traces: string[];
  trajectories?: { mode: string; pass: boolean }[];
}

describe('examples/vitest', () => {
  const trapped: string[] = [];
  const trap = createServer((req, res) => {
    trapped.push(`${req.method} ${req.url}`);
    res.writeHead(500).end();
  });
  // The committed cassette lives in the state dir; what else the run writes there is removed after.
  const before = new Set(existsSync(STATE_DIR) ? readdirSync(STATE_DIR) : []);
  let run: RunResult;
  let report: ReportLike;
  let byName: (suffix: string) => TestEntry;

  beforeAll(async () => {
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      CI: 'true',
      NO_COLOR: '1',
      FORCE_COLOR: '0',
      // As in CI: no judge keys. Were the suite to call a judge anyway, it would land on the trap.
      OPENAI_BASE_URL: `${url}/v1`,
      ANTHROPIC_BASE_URL: url,
    };
    delete env.OPENAI_API_KEY;
    delete env.ANTHROPIC_API_KEY;
    delete env.TRACEJURY_CASSETTE;
    run = await runExample(env);
    const file = path.join(STATE_DIR, 'report.json');
    if (existsSync(file)) report = JSON.parse(readFileSync(file, 'utf8'));
    byName = (suffix) => {
      const found = (report.tests as TestEntry[]).find((t) => t.name.endsWith(suffix));
      if (!found) throw new Error(`no test named …${suffix} in the report`);
      return found;
    };
  }, TIMEOUT_MS + 10_000);

  afterAll(async () => {
    // The run writes its report (and saved traces) beside the cassette; leave the checkout as it was.
    for (const entry of existsSync(STATE_DIR) ? readdirSync(STATE_DIR) : [])
      if (!before.has(entry)) rmSync(path.join(STATE_DIR, entry), { recursive: true, force: true });
    await new Promise<void>((resolve) => trap.close(() => resolve()));
  });

  it('passes with no API key, and touches no network', () => {
    expect(run.output).toMatch(/Tests\s+16 passed \(16\)/);
    expect(run.code, run.output).toBe(0);
    expect(trapped).toEqual([]);
    expect(run.output).toMatch(/Gate: passed \(every test passed\)/);
  });

  it('writes the report under the example root, every test named, the gate passed', () => {
    expect(report, `no report at ${STATE_DIR}`).toBeDefined();
    expect(report.schemaMinor).toBe(4);
    expect(report.testRun).toMatchObject({ tests: 16, passed: 16, failed: 0, repeated: 1 });
    expect(report.gate.passed).toBe(true);
    expect(report.inputs.errorCount).toBe(0);
  });

  it('describeTraces: one test per recording of ../traces/*.jsonl, each with its trace', () => {
    const recorded = (report.tests as TestEntry[]).filter((t) =>
      t.name.startsWith('evals/recorded.test.ts > traces: ../traces/*.jsonl > '),
    );
    expect(recorded.length).toBe(9);
    // Named by the trace id when it is one a person can read, else by what the run was asked.
    const byTrace = Object.fromEntries(recorded.map((t) => [t.traces[0], t.name.split(' > ').at(-1)]));
    expect(recorded.every((t) => t.traces.length === 1)).toBe(true);
    expect(byTrace['support-002']).toBe('support-002');
    expect(byTrace['0af7651916cd43dd8448eb211c80319c']).toBe(
      '"How do I rotate an API key without downtime?"',
    );
    const support = report.traces.find((t: { id: string }) => t.id === 'support-002');
    expect(support).toMatchObject({
      file: '../traces/native-support-agent.jsonl',
      test: 'evals/recorded.test.ts > traces: ../traces/*.jsonl > support-002',
    });
  });

  it('captureTrace: the agent runs are traced, and signals are named by their test', () => {
    const looping = byName('a flaky carrier API makes it retry the same call: the loop is caught');
    expect(looping.traces).toHaveLength(1);
    const loop = report.signals.find(
      (s: { detector: string; test: string }) => s.detector === 'TOOL_LOOP' && s.test.endsWith(looping.name),
    );
    expect(loop).toMatchObject({ traceId: looping.traces[0], status: 'finding' });
    // Read from the captured spans, priced with the run's prices, and reported as such.
    const captured = report.traces.find((t: { id: string }) => t.id === looping.traces[0]);
    expect(captured).toMatchObject({ file: 'captureTrace', format: 'otel' });
    expect(byName('a session of five runs is reliable and consistent').traces).toHaveLength(5);
  });

  it('startTraceReceiver: the agent run as a process of its own is traced over OTLP', () => {
    const other = byName('the agent in its own process, traced over OTLP');
    expect(other).toMatchObject({ state: 'passed' });
    expect(other.traces).toHaveLength(1);
    const trace = report.traces.find((t: { id: string }) => t.id === other.traces[0]);
    expect(trace).toMatchObject({ agentId: 'order-support', file: '<otlp-receiver>', format: 'otel' });
  });

  it('repeats: 2 runs the test three times, each attempt recorded with pass^k and pass@k', () => {
    const repeated = byName('answers where a shipped order is, with no wasted calls');
    expect(repeated).toMatchObject({ state: 'passed', attempts: 3, passedAttempts: 3 });
    expect(repeated.traces).toHaveLength(3); // one captured trace per attempt
    expect(report.testRun.passHatK).toEqual([1, 1, 1]);
  });

  it('toMatchTrajectory: the strict trajectories, one with failed calls ignored', () => {
    const trajectories = (report.tests as TestEntry[]).flatMap((t) => t.trajectories ?? []);
    expect(trajectories.length).toBe(6); // 3 attempts of the repeated test, 3 others
    expect(trajectories.every((t) => t.mode === 'strict' && t.pass)).toBe(true);
  });

  it('toPassTribunal: three judges replayed from .tracejury/cassette.jsonl, the verdict passed', () => {
    expect(report.verdicts).toHaveLength(1);
    const [verdict] = report.verdicts;
    expect(verdict).toMatchObject({ passed: true, indeterminate: false });
    expect(verdict.test).toMatch(/the answer passes the tribunal of judges/);
    expect(verdict.judges.map((j: { model: string }) => j.model).sort()).toEqual([
      'claude-haiku-4-5',
      'gpt-4.1-mini',
      'gpt-4o-mini',
    ]);
    expect(verdict.judges.every((j: { cached?: boolean }) => j.cached === true)).toBe(true);
  });

  it('toMeetSessionThreshold: session scores, a met and a missed one', () => {
    const sessions = report.sessions as { metric: string; passed: boolean; test: string }[];
    expect(sessions.map((s) => [s.metric, s.passed])).toEqual(
      expect.arrayContaining([
        ['agent_reliability', true],
        ['agent_consistency', true],
        ['agent_reliability', false], // the Langfuse session, asserted with .not
      ]),
    );
  });
});
