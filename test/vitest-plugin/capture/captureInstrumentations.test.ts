/**
 * captureTrace around real instrumentations, in every order of set-up, run as a user runs it: Vitest
 * with the tracejury plugin on the project in test/fixtures/generate/capture, each SDK talking to a
 * loopback model. The project's own tests hold each capture to the whole run (every LLM call with
 * its model, tokens and cost; every tool step); this test runs it and checks each passed.
 *
 * The orders (one Vitest project each): instrumentations made in the test file with no provider of
 * the user's; made in a user's setup file; a provider the user registers in the test file, after
 * and before instrumenting; a provider registered before anything else (node --import). The projects
 * are inline and extend the root config, which Vitest 5 resolves on the root's shared Vite server
 * (`sharedViteServer`): CI's second pass (Vitest 5) holds the plugin's setup file to reaching those.
 *
 * Enable: npm run build && npm ci --prefix test/fixtures/generate && npm ci --prefix test/fixtures/generate/capture
 */
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = (p: string) => fileURLToPath(new URL(`../../../${p}`, import.meta.url));
const project = root('test/fixtures/generate/capture');
const NEEDS = [
  ['build/vitest-plugin/setup.js', 'npm run build'],
  [
    'test/fixtures/generate/node_modules/@arizeai/openinference-instrumentation-anthropic',
    'npm ci --prefix test/fixtures/generate',
  ],
  [
    'test/fixtures/generate/capture/node_modules/@opentelemetry/instrumentation-openai',
    'npm ci --prefix test/fixtures/generate/capture',
  ],
] as const;
const missing = NEEDS.filter(([need]) => !existsSync(root(need)));
// CI installs both trees: there a missing one is a failure, not a skip.
const skip = missing.length > 0 && process.env.CI !== 'true';
if (skip)
  console.info(`captureInstrumentations.test.ts skipped: ${missing.map(([, how]) => how).join(' && ')}`);

interface JsonResults {
  testResults: { assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
}

/**
 * `tracejury` in the project's node_modules is this checkout (its build/), as an installed package
 * is: linked here rather than in the project's package.json, whose lock would then pin this
 * repository's own dependency list.
 */
function linkTracejury(): void {
  const link = path.join(project, 'node_modules', 'tracejury');
  if (existsSync(link) || lstatSync(link, { throwIfNoEntry: false })) return;
  symlinkSync(root(''), link, 'dir');
}

function runProject(out: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        root('node_modules/vitest/vitest.mjs'),
        'run',
        '--reporter=json',
        `--outputFile=${path.join(out, 'results.json')}`,
      ],
      {
        cwd: project,
        env: { ...process.env, CAPTURE_OUT: out, CI: 'true', NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const EXPECTED = {
  'instrumentations made in the test file': [
    'OpenInference Anthropic',
    'OpenTelemetry contrib OpenAI',
    'OpenInference LangChain',
    'OpenAI Agents SDK under NODE_ENV=test: the error names the switch',
    'OpenAI Agents SDK with setTracingDisabled(false), through OpenInference',
  ],
  'instrumentations made in a setup file of the user': [
    'OpenInference Anthropic',
    'OpenTelemetry contrib OpenAI',
    'OpenInference LangChain',
    'OpenAI Agents SDK with setTracingDisabled(false), through OpenInference',
  ],
  'a tracer provider the user registers in the test file': [
    'is refused by OpenTelemetry: one was registered before',
    'instrumented before it: OpenInference Anthropic',
    'instrumented after it: OpenInference LangChain',
  ],
  'a tracer provider registered before tracejury': ['is kept, with the capture processor added'],
};

describe.skipIf(skip)('captureTrace with real instrumentations, in every order of set-up', () => {
  // One Vitest run of four projects, each file in a process of its own: a bound, not a measure.
  it('captures every LLM and tool step of each', { timeout: 300_000 }, async () => {
    for (const [need, how] of missing) expect.fail(`${need} is missing: ${how}`);
    const out = mkdtempSync(path.join(tmpdir(), 'tracejury-capture-instr-'));
    linkTracejury();
    const { code, output } = await runProject(out);
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as JsonResults;
    const byName = new Map(
      results.testResults.flatMap((f) => f.assertionResults).map((r) => [r.fullName, r] as const),
    );
    for (const [suite, tests] of Object.entries(EXPECTED))
      for (const test of tests) {
        const result = byName.get(`${suite} ${test}`);
        expect(result, `${suite} > ${test} did not run:\n${output.slice(-4000)}`).toBeDefined();
        expect(result!.status, `${suite} > ${test}: ${result!.failureMessages.join('\n')}`).toBe('passed');
      }
    expect(byName.size).toBe(Object.values(EXPECTED).flat().length);
    expect(code).toBe(0);
  });
});
