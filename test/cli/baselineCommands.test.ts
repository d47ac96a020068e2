/** `tracejury baseline update|show|reset` and agent keys: baselines that one data set cannot poison for another. */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { ReportSchema } from '../../src/report/schema.js';

/** A directory with files at the given relative paths, each a JSONL of the given traces. */
function tmp(files: Record<string, object[]>): string {
  const d = mkdtempSync(path.join(tmpdir(), 'tj-bl-'));
  for (const [name, traces] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(d, name)), { recursive: true });
    writeFileSync(path.join(d, name), traces.map((t) => JSON.stringify(t)).join('\n'));
  }
  return d;
}

/** A run of `steps` distinct successful tool calls; no agent id unless given. */
const run = (id: string, steps: number, extra: object = {}) => ({
  id,
  status: 'ok',
  output: 'done',
  steps: Array.from({ length: steps }, (_, i) => ({ type: 'tool', name: `t${i}`, status: 'ok' })),
  ...extra,
});
/** A run that calls one tool with the same arguments 6 times: a high TOOL_LOOP finding. */
const looping = (id: string) => ({
  id,
  status: 'ok',
  output: 'done',
  steps: Array.from({ length: 6 }, () => ({ type: 'tool', name: 'search', args: { q: 'same' } })),
});
const history = (n: number, prefix = 'h') => Array.from({ length: n }, (_, i) => run(`${prefix}${i}`, 4));

const store = (d: string) =>
  JSON.parse(readFileSync(path.join(d, '.tracejury/baselines.json'), 'utf8')) as {
    agents: Record<string, { runs: { traceId: string }[] }>;
  };

async function inflation(d: string, args: string[]) {
  const { stdout } = await cli(['analyze', ...args, '--format', 'json'], d);
  const report = ReportSchema.parse(JSON.parse(stdout));
  return { report, fired: report.signals.filter((s) => s.detector === 'STEP_COUNT_INFLATION') };
}

describe('agent keys for traces that name no agent', () => {
  it('keeps two data sets apart: a baseline learned from one does not flag the other', async () => {
    const d = tmp({ 'set-a/history.jsonl': history(20), 'set-b/today.jsonl': [run('today', 9)] });
    const update = await cli(['baseline', 'update', 'set-a'], d);
    expect(update.code).toBe(0);
    expect(Object.keys(store(d).agents)).toEqual(['set-a/history.jsonl']);

    const { report, fired } = await inflation(d, ['set-b']);
    expect(fired).toEqual([]);
    expect(report.traces[0]).toMatchObject({ agentId: 'set-b/today.jsonl', agentIdFrom: 'file' });
    expect(report.notes).toContainEqual(
      expect.stringMatching(/^agent set-b\/today\.jsonl has no baseline runs/),
    );
  });

  it('--agent puts both data sets under one agent, whose baseline then applies', async () => {
    const d = tmp({ 'set-a/history.jsonl': history(20), 'set-b/today.jsonl': [run('today', 9)] });
    expect((await cli(['baseline', 'update', 'set-a', '--agent', 'planner'], d)).code).toBe(0);
    expect(Object.keys(store(d).agents)).toEqual(['planner']);
    const { report, fired } = await inflation(d, ['set-b', '--agent', 'planner']);
    expect(fired).toHaveLength(1);
    expect(report.traces[0]).toMatchObject({ agentId: 'planner', agentIdFrom: 'option' });
  });

  it('reads agent: from tracejury.yml; a recorded agentId still wins', async () => {
    const d = tmp({ 'runs.jsonl': [run('a', 2), run('b', 2, { agentId: 'bot' })] });
    writeFileSync(path.join(d, 'tracejury.yml'), 'agent: support\n');
    const { stdout } = await cli(['analyze', 'runs.jsonl', '--format', 'json'], d);
    const report = ReportSchema.parse(JSON.parse(stdout));
    expect(report.traces.map((t) => [t.agentId, t.agentIdFrom])).toEqual([
      ['support', 'option'],
      ['bot', 'recorded'],
    ]);
  });
});

describe('baseline update learns only good runs', () => {
  it('leaves out failed outcomes, high findings and errored runs, and says how many of each', async () => {
    const d = tmp({
      'runs.jsonl': [
        run('good1', 3, { agentId: 'bot' }),
        run('good2', 3, { agentId: 'bot', outcome: { success: true, source: 't' } }),
        run('failed', 3, { agentId: 'bot', outcome: { success: false, source: 't' } }),
        { ...looping('loop'), agentId: 'bot' },
        run('error', 3, { agentId: 'bot', status: 'error' }),
        run('other', 3, { agentId: 'helper' }),
      ],
    });
    const { code, stdout } = await cli(['baseline', 'update', 'runs.jsonl'], d);
    expect(code).toBe(0);
    expect(stdout).toContain(
      'learned 3 runs of 2 agents; left out 3: 1 failed outcome, 1 with high findings, 1 with status error',
    );
    expect(store(d).agents.bot!.runs.map((r) => r.traceId)).toEqual(['good1', 'good2']);
    // Each agent's count in the right number.
    expect(stdout).toMatch(/bot \(2 runs\)/);
    expect(stdout).toMatch(/helper \(1 run\)/);
  });
});

describe('baseline show and reset', () => {
  async function learned() {
    const d = tmp({
      'bot.jsonl': history(20).map((t) => ({ ...t, agentId: 'bot' })),
      'helper.jsonl': history(6, 'x').map((t) => ({ ...t, agentId: 'helper' })),
    });
    expect((await cli(['baseline', 'update', '.'], d)).code).toBe(0);
    return d;
  }

  it('shows each agent: runs, P75 per metric, active or not; as text and JSON', async () => {
    const d = await learned();
    const text = await cli(['baseline', 'show'], d);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('bot: 20 runs — active');
    expect(text.stdout).toContain('helper: 6 runs — static thresholds until 20');
    expect(text.stdout).toContain('P75: steps 4');

    const json = await cli(['baseline', 'show', 'helper', '--format', 'json'], d);
    const shown = JSON.parse(json.stdout) as { minRuns: number; agents: unknown[] };
    expect(shown.minRuns).toBe(20);
    expect(shown.agents).toEqual([
      expect.objectContaining({
        agent: 'helper',
        runs: 6,
        active: false,
        p75: expect.objectContaining({ stepCount: 4 }),
      }),
    ]);
    const unknown = await cli(['baseline', 'show', 'helpr'], d);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('did you mean "helper"');
  });

  it('notes in the analyze report an agent below minRuns', async () => {
    const d = await learned();
    const { report } = await inflation(d, ['helper.jsonl']);
    expect(report.notes).toContain('helper: 6 of 20 runs — static thresholds until 20');
  });

  it('resets one agent and keeps the others, or every agent', async () => {
    const d = await learned();
    const one = await cli(['baseline', 'reset', 'helper'], d);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('removed 6 runs of 1 agent (helper)');
    expect(Object.keys(store(d).agents)).toEqual(['bot']);
    expect(store(d).agents.bot!.runs).toHaveLength(20);
    expect(() => readFileSync(path.join(d, '.tracejury/baselines.json.lock'))).toThrow(/ENOENT/);

    const all = await cli(['baseline', 'reset'], d);
    expect(all.stdout).toContain('removed 20 runs of 1 agent (all)');
    expect(store(d).agents).toEqual({});
  });
});
