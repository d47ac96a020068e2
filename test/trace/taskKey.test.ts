/** The task a run attempted: read by importers, from a metadata path (`taskKey:`), carried into the report. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { ConfigError, parseConfig } from '../../src/config/config.js';
import { openaiMessagesImporter } from '../../src/trace/formats/openaiMessages.js';
import { loadTraces } from '../../src/trace/load.js';
import { keyTask } from '../../src/trace/taskKey.js';
import { importFile } from '../helpers/importFile.js';

const fixture = (name: string) =>
  fileURLToPath(new URL(`../fixtures/openai-messages/${name}`, import.meta.url));

/** An AgentDojo-shaped run: `task_id` names the pipeline too; `info` names suite and tasks. */
const agentDojoRun = (pipeline: string, userTask: string, injectionTask: string | null) => ({
  task_id: `${pipeline}/banking/${userTask}/${injectionTask ?? 'none'}`,
  model: pipeline,
  reward: 1,
  traj: [
    { role: 'user', content: 'Pay the bill in bill.txt.' },
    { role: 'assistant', content: 'Done.' },
  ],
  info: { suite: 'banking', user_task_id: userTask, injection_task_id: injectionTask, pipeline },
});

function dir(files: Record<string, string>): string {
  const d = mkdtempSync(path.join(tmpdir(), 'tj-task-'));
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(d, name), body);
  return d;
}

describe('task keys read by the importers', () => {
  it("takes τ-bench's task_id, so the trials of one task share it", () => {
    const { traces } = importFile(openaiMessagesImporter, fixture('tau-bench.json'));
    expect(traces.map((t) => [t.trace.id, t.trace.taskId])).toEqual([
      ['task-3-trial-0', '3'],
      ['task-3-trial-1', '3'],
      ['task-3-trial-1-2', '3'],
    ]);
  });

  it("takes AgentDojo's suite, user task and injection task, leaving out the pipeline its task_id names", () => {
    const reader = openaiMessagesImporter.createReader({ problem: () => {} });
    const runs = [
      agentDojoRun('claude-3-5-sonnet', 'user_task_0', null),
      agentDojoRun('gpt-4o-mini', 'user_task_0', null),
      agentDojoRun('gpt-4o-mini', 'user_task_0', 'injection_task_3'),
    ].flatMap((r, i) => reader.push(r, i + 1));
    expect(runs.map((r) => r.trace.taskId)).toEqual([
      'banking/user_task_0/none',
      'banking/user_task_0/none',
      'banking/user_task_0/injection_task_3',
    ]);
  });
});

describe('taskKey: a dotted path into metadata', () => {
  it('fills taskId from the path, keeps a recorded one, and leaves traces without a value alone', () => {
    expect(keyTask({ id: 'a', metadata: { case: { id: 'c-7' } } }, 'case.id')).toMatchObject({
      taskId: 'c-7',
    });
    expect(keyTask({ id: 'a', metadata: { case: { id: 12 } } }, 'case.id')).toMatchObject({ taskId: '12' });
    expect(keyTask({ id: 'a', taskId: 'own', metadata: { case: { id: 'c-7' } } }, 'case.id')).toMatchObject({
      taskId: 'own',
    });
    const untouched = { id: 'a', metadata: { case: { id: { nested: true } } } };
    expect(keyTask(untouched, 'case.id')).toBe(untouched);
    expect(keyTask({ id: 'a', metadata: { constructor: 'x' } }, 'constructor.name')).not.toHaveProperty(
      'taskId',
    );
  });

  it('is read by the loader, and reaches the report as traces[].task', async () => {
    const line = (id: string, caseId: string) =>
      JSON.stringify({ id, metadata: { case: { id: caseId } }, steps: [{ type: 'tool', name: 'search' }] });
    const d = dir({ 'runs.jsonl': [line('r1', 'refund'), line('r2', 'cancel')].join('\n') + '\n' });
    const { traces } = await loadTraces('runs.jsonl', { cwd: d, taskKey: 'case.id' });
    expect(traces.map((t) => t.trace.taskId)).toEqual(['refund', 'cancel']);
    const report = await analyze(['runs.jsonl'], {
      cwd: d,
      config: { taskKey: 'case.id' },
      baselines: false,
      escalate: false,
    });
    expect(report.traces.map((t) => [t.id, t.task])).toEqual([
      ['r1', 'refund'],
      ['r2', 'cancel'],
    ]);
    const without = await analyze(['runs.jsonl'], { cwd: d, config: {}, baselines: false, escalate: false });
    expect(without.traces.map((t) => t.task)).toEqual([undefined, undefined]);
  });

  it('is checked like every key of tracejury.yml', () => {
    expect(parseConfig('taskKey: case.id\n').taskKey).toBe('case.id');
    expect(() => parseConfig('taskKey: "case..id"\n', 'f.yml')).toThrow(
      'f.yml:1: taskKey: expected a dotted path into each trace’s metadata, such as case.id',
    );
    expect(() => parseConfig('taskkey: case.id\n', 'f.yml')).toThrow(ConfigError);
  });
});
