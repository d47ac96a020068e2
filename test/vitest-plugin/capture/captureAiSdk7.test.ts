/**
 * captureTrace around AI SDK 7 (@ai-sdk/otel's OpenTelemetry and LegacyOpenTelemetry), live. The
 * AI SDK packages live in test/fixtures/generate (their own tree), so a plain script there
 * (capture-ai-sdk-7.mjs) runs the agent with the built plugin and prints the two captured traces;
 * they are held to the real-library fixtures' checks here. ai@7 needs Node >= 22, which every
 * supported Node is (package.json engines), so the script runs on this test's own Node.
 *
 * Enable: npm run build && npm ci --prefix test/fixtures/generate (CI does both).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Trace } from '../../../src/trace/schema.js';
import { expectRun } from '../../helpers/realLibraryRun.js';

const root = (p: string) => fileURLToPath(new URL(`../../../${p}`, import.meta.url));
const NEEDS = [
  ['build/vitest-plugin/capture/capture.js', 'npm run build'],
  ['test/fixtures/generate/node_modules/@ai-sdk/otel', 'npm ci --prefix test/fixtures/generate'],
] as const;
const missing = NEEDS.filter(([need]) => !existsSync(root(need)));
// CI installs the tree: there a missing one is a failure, not a skip.
const skip = missing.length > 0 && process.env.CI !== 'true';
if (skip) console.info(`captureAiSdk7.test.ts skipped: ${missing.map(([, how]) => how).join(' && ')}`);

describe.skipIf(skip)('captureTrace with AI SDK 7 (@ai-sdk/otel)', () => {
  it('reads both span layouts captured live', { timeout: 120_000 }, () => {
    for (const [need, how] of missing) expect.fail(`${need} is missing: ${how}`);
    const out = execFileSync(process.execPath, [root('test/fixtures/generate/capture-ai-sdk-7.mjs')], {
      cwd: root('test/fixtures/generate'),
      encoding: 'utf8',
      timeout: 120_000,
    });
    const { legacy, genai } = JSON.parse(out) as { legacy: Trace; genai: Trace };

    expectRun(legacy);
    expect(legacy.metadata?.rootSpan).toBe('ai.streamText');
    expect(legacy.steps[0]).toMatchObject({ model: 'mock-model-v4', finishReason: 'tool-calls' });

    expectRun(genai);
    expect(genai.metadata?.rootSpan).toBe('invoke_agent mock-model-v4');
    expect(genai.steps[0]).toMatchObject({ model: 'mock-model-v4' });
  });
});
