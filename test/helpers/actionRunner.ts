/**
 * Runs the bundled Action (dist/index.js) as the GitHub runner does: a node process with the
 * event payload in GITHUB_EVENT_PATH, every input as INPUT_<NAME> (action.yml's defaults filled in
 * first, as the runner does), GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, and GITHUB_API_URL
 * pointing at the loopback fake. Returns what a workflow would see: exit code, log, outputs, summary.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const DIST = path.join(REPO, 'dist', 'index.js');

const actionYml = parse(readFileSync(path.join(REPO, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string }>;
};

export interface ActionRun {
  code: number | null;
  log: string;
  outputs: Record<string, string>;
  summary: string;
}

/** GITHUB_OUTPUT's `name<<delimiter` blocks, as the runner reads them. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = lines[i]!.match(/^([^<=]+)<<(.+)$/);
    if (!m) continue;
    const [, name, delimiter] = m;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i]!);
    out[name!] = value.join('\n');
  }
  return out;
}

export interface RunActionOptions {
  node?: string;
  workspace: string;
  eventName: string;
  payload: Record<string, unknown>;
  inputs?: Record<string, string>;
  token: string;
  apiUrl: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

export function runAction(o: RunActionOptions): Promise<ActionRun> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'tracejury-runner-'));
  const eventPath = path.join(scratch, 'event.json');
  const outputPath = path.join(scratch, 'output');
  const summaryPath = path.join(scratch, 'summary.md');
  writeFileSync(eventPath, JSON.stringify(o.payload));
  writeFileSync(outputPath, '');
  writeFileSync(summaryPath, '');
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(actionYml.inputs)) {
    const value = o.inputs?.[name] ?? spec.default ?? '';
    // The runner evaluates the expression; here it is the test's token.
    inputs[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] =
      value === '${{ github.token }}' ? o.token : value;
  }
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? scratch,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: o.eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: 'acme/agent',
    GITHUB_API_URL: o.apiUrl,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: '9001',
    GITHUB_RUN_NUMBER: '12',
    GITHUB_WORKFLOW: 'tracejury',
    GITHUB_WORKFLOW_REF: 'acme/agent/.github/workflows/tracejury.yml@refs/heads/main',
    GITHUB_SHA: 'c0ffee0000000000000000000000000000000000',
    GITHUB_REF: 'refs/heads/main',
    GITHUB_WORKSPACE: o.workspace,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    RUNNER_TEMP: scratch,
    ...inputs,
    ...o.env,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(o.node ?? process.execPath, [DIST], {
      cwd: o.workspace,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (c: Buffer) => (log += c.toString()));
    child.stderr.on('data', (c: Buffer) => (log += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`dist/index.js did not end within ${o.timeoutMs ?? 60_000} ms\n${log}`));
    }, o.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({
        code,
        log,
        outputs: parseOutputFile(readFileSync(outputPath, 'utf8')),
        summary: readFileSync(summaryPath, 'utf8'),
      });
    });
  });
}
