/**
 * captureTrace around an agent traced by OpenInference's real OpenAI instrumentation and
 * openinference-core's traceAgent / traceTool, live, with the `openai` client talking to a loopback
 * server. The instrumentation packages live in test/fixtures/generate (their own tree), so a plain
 * script there runs the agent with the built plugin and prints the captured trace.
 *
 * Enable: npm run build && npm install --prefix test/fixtures/generate (CI does both).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Trace } from '../../../src/trace/schema.js';
import { expectRun } from '../../helpers/realLibraryRun.js';

const root = (p: string) => fileURLToPath(new URL(`../../../${p}`, import.meta.url));
const installed = existsSync(
  root('test/fixtures/generate/node_modules/@arizeai/openinference-instrumentation-openai'),
);
if (!installed)
  console.info(
    'captureOpenInference.test.ts skipped: npm install --prefix test/fixtures/generate (after npm run build)',
  );

describe.skipIf(!installed)('captureTrace with the OpenInference OpenAI instrumentation', () => {
  it('reads the LLM, tool and agent spans captured live', { timeout: 120_000 }, () => {
    const out = execFileSync(process.execPath, [root('test/fixtures/generate/capture-openinference.mjs')], {
      cwd: root('test/fixtures/generate'),
      encoding: 'utf8',
      timeout: 120_000,
    });
    const trace = JSON.parse(out) as Trace;
    expectRun(trace);
    expect(trace.agentId).toBe('support-agent');
    expect(trace.steps[0]).toMatchObject({
      type: 'llm',
      model: 'gpt-4o-mini-2024-07-18',
      usage: { inputTokens: 110 },
    });
  });
});
