/**
 * The example workflows and the Action's documentation against action.yml, the contract: every
 * example passes only inputs the Action has, docs/action.md's tables list exactly its inputs and
 * outputs, the README shows the minimal workflow as it is, and every job that comments asks for the
 * permission to.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

interface ActionYml {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, unknown>;
}
interface Step {
  uses?: string;
  with?: Record<string, unknown>;
}
interface Job {
  permissions?: Record<string, string> | string;
  steps?: Step[];
}
interface Workflow {
  permissions?: Record<string, string> | string;
  jobs: Record<string, Job>;
}

const action = parse(read('action.yml')) as ActionYml;
const inputs = Object.keys(action.inputs).sort();
const outputs = Object.keys(action.outputs).sort();

const workflowDir = 'examples/workflows';
const workflows = readdirSync(path.join(root, workflowDir))
  .filter((f) => f.endsWith('.yml'))
  .sort()
  .map((f) => ({ file: f, workflow: parse(read(path.join(workflowDir, f))) as Workflow }));

const isTracejury = (s: Step) => s.uses !== undefined && /^tracejury\/tracejury@/.test(s.uses);

/** The table of `section` whose first header cell is `first`: the names in its first column. */
function tableNames(section: string, first: string): string[] {
  const lines = section.split('\n');
  const start = lines.findIndex((l) => new RegExp(`^\\|\\s*${first}\\s*\\|`).test(l));
  expect(start, `a table headed "| ${first} |"`).toBeGreaterThanOrEqual(0);
  const names: string[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const name = /^\|\s*`([^`]+)`/.exec(line)?.[1];
    if (name !== undefined) names.push(name);
  }
  return names.sort();
}

describe('example workflows', () => {
  test('there are the five examples', () => {
    expect(workflows.map((w) => w.file)).toEqual([
      'tracejury-fork-comment.yml',
      'tracejury-fork-pr.yml',
      'tracejury-sharded.yml',
      'tracejury-traces.yml',
      'tracejury.yml',
    ]);
  });

  test.each(workflows)('$file uses tracejury with inputs action.yml has', ({ workflow }) => {
    const steps = Object.values(workflow.jobs).flatMap((j) => j.steps ?? []);
    const ours = steps.filter(isTracejury);
    expect(ours.length).toBeGreaterThan(0);
    for (const step of ours) {
      for (const key of Object.keys(step.with ?? {})) expect(inputs).toContain(key);
    }
  });

  test.each(workflows)('$file: every job that comments may write to pull requests', ({ workflow }) => {
    for (const [name, job] of Object.entries(workflow.jobs)) {
      const comments = (job.steps ?? []).some(
        (s) => isTracejury(s) && String(s.with?.comment ?? action.inputs.comment?.default) !== 'off',
      );
      if (!comments) continue;
      const permissions = job.permissions ?? workflow.permissions;
      expect(permissions, `job ${name}`).toBeTypeOf('object');
      expect((permissions as Record<string, string>)['pull-requests'], `job ${name}`).toBe('write');
    }
  });

  test.each(workflows)(
    '$file: a workflow_run job that comments may read the artifacts of the run it reads (to link its HTML report)',
    ({ workflow }) => {
      const on = (workflow as unknown as { on?: Record<string, unknown> }).on ?? {};
      if (!('workflow_run' in on)) return;
      for (const [name, job] of Object.entries(workflow.jobs)) {
        if (!(job.steps ?? []).some(isTracejury)) continue;
        const permissions = (job.permissions ?? workflow.permissions) as Record<string, string>;
        expect(permissions.actions, `job ${name}`).toMatch(/^(read|write)$/);
      }
    },
  );

  test.each(workflows)('$file: every job sets its own permissions', ({ workflow }) => {
    for (const [name, job] of Object.entries(workflow.jobs)) {
      expect(job.permissions ?? workflow.permissions, `job ${name}`).toBeTypeOf('object');
    }
  });
});

describe('docs/action.md: the reference', () => {
  const page = read('docs/action.md');

  test("the inputs table lists exactly action.yml's inputs", () => {
    expect(tableNames(page, 'input')).toEqual(inputs);
  });

  test("the outputs table lists exactly action.yml's outputs", () => {
    expect(tableNames(page, 'output')).toEqual(outputs);
  });
});

describe('README: GitHub Actions', () => {
  const readme = read('README.md');
  const section = /\n## GitHub Actions\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';

  test('the section exists, after the Vitest quick start, and links the reference', () => {
    expect(section).not.toBe('');
    const at = (h: string) => readme.indexOf(`\n## ${h}`);
    expect(at('Quick start: Vitest')).toBeGreaterThan(0);
    expect(at('Quick start: Vitest')).toBeLessThan(at('GitHub Actions'));
    expect(section).toContain('(docs/action.md)');
  });

  test('the minimal workflow shown is examples/workflows/tracejury.yml', () => {
    const shown = /```yaml\n(# The minimal tracejury workflow[\s\S]*?)```/.exec(section)?.[1];
    expect(shown).toBe(read(path.join(workflowDir, 'tracejury.yml')));
  });
});
