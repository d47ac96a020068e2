// Benchmark: what captureTrace adds to a traced agent call. Not a test: prints figures measured
// inside one run on this machine. Usage:
//   npm run build && node bench/capture.mjs [calls=2000] [rounds=5]
// Each call is an AI SDK 5 generateText (ai, MockLanguageModelV2) with one tool call, telemetry
// on (4 spans: ai.generateText, 2× ai.generateText.doGenerate, ai.toolCall). Baseline: the calls with telemetry
// on and the capture processor installed but no capture open (spans are made and dropped). Traced:
// the same calls, each wrapped in captureTrace (capture, settle, OTLP conversion, importer read).
// The machine's speed drifts (a shared box), so within each round the two alternate in blocks of
// BLOCK calls, and the per-call overhead is the median over rounds. Target: under 1 ms per traced call.
//
// Also times the OTLP conversion alone, spansToOtlp against otlp-transformer's JsonTraceSerializer
// (bytes, then JSON.parse, as captureTrace would need the value), on a capture's real spans.
import { context } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV2 } from 'ai/test';
import { z } from 'zod';
import { captureTrace } from '../build/vitest-plugin/capture/capture.js';
import { CAPTURE_KEY, closeCapture, openCapture } from '../build/vitest-plugin/capture/spanProcessor.js';
import { spansToOtlp } from '../build/vitest-plugin/capture/spansToOtlp.js';

const CALLS = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 5);
const TARGET_MS = 1;

const usage = { inputTokens: 100, outputTokens: 12, totalTokens: 112 };
const weather = tool({
  description: 'Current weather for a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, tempC: 18, sky: 'sunny' }),
});

/** One agent call: the model asks for get_weather once, then answers. */
async function agentCall() {
  let turn = 0;
  const model = new MockLanguageModelV2({
    provider: 'mock-provider',
    modelId: 'mock-model-v2',
    doGenerate: async () =>
      turn++ === 0
        ? {
            content: [
              { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '{"city":"Paris"}' },
            ],
            finishReason: 'tool-calls',
            usage,
            warnings: [],
          }
        : { content: [{ type: 'text', text: 'Sunny, 18°C.' }], finishReason: 'stop', usage, warnings: [] },
  });
  const result = await generateText({
    model,
    prompt: 'Weather in Paris?',
    tools: { get_weather: weather },
    stopWhen: stepCountIs(3),
    experimental_telemetry: { isEnabled: true, functionId: 'bench-agent' },
  });
  return result.text;
}

const BLOCK = 100;

async function timeCalls(wrap, n = CALLS) {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await wrap();
  return performance.now() - t0;
}

const tracedCall = () => captureTrace(agentCall);

/** One round: CALLS untraced and CALLS traced calls, alternating blocks; total ms of each. */
async function round() {
  let b = 0;
  let t = 0;
  for (let done = 0; done < CALLS; done += BLOCK) {
    const n = Math.min(BLOCK, CALLS - done);
    b += await timeCalls(agentCall, n);
    t += await timeCalls(tracedCall, n);
  }
  return { b, t };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => ms.toFixed(3);

// Installs the provider and processor (captureTrace registers them on first use), and checks the
// traced call reads as the expected trace before anything is timed.
const probe = await captureTrace(agentCall);
const shape = probe.steps.map((s) => s.type).join(',');
if (shape !== 'llm,tool,llm') throw new Error(`unexpected trace shape: ${shape}`);

// Warm-up: JIT both paths.
await timeCalls(agentCall);
await timeCalls(tracedCall);

const base = [];
const traced = [];
const overhead = [];
for (let r = 0; r < ROUNDS; r++) {
  const { b, t } = await round();
  base.push(b / CALLS);
  traced.push(t / CALLS);
  overhead.push((t - b) / CALLS);
}

// The conversion alone, on one capture's real spans.
const capture = openCapture();
await context.with(context.active().setValue(CAPTURE_KEY, capture), agentCall);
const spans = [...capture.ended];
closeCapture(capture);
const REPS = 20_000;
const timeConversion = (convert) => {
  for (let i = 0; i < 1000; i++) convert();
  const t0 = performance.now();
  for (let i = 0; i < REPS; i++) convert();
  return ((performance.now() - t0) / REPS) * 1000;
};
const oursUs = [];
const serializerUs = [];
for (let r = 0; r < ROUNDS; r++) {
  oursUs.push(timeConversion(() => spansToOtlp(spans)));
  serializerUs.push(
    timeConversion(() => JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans)))),
  );
}

const perCall = median(overhead);
console.log(
  `captureTrace bench: ${CALLS} calls × ${ROUNDS} rounds, ${spans.length} spans per call (Node ${process.version})`,
);
console.log(`  untraced call (telemetry on, no capture): median ${fmt(median(base))} ms`);
console.log(`  traced call (captureTrace):               median ${fmt(median(traced))} ms`);
console.log(
  `  overhead per traced call: median ${fmt(perCall)} ms (range ${fmt(Math.min(...overhead))}–${fmt(Math.max(...overhead))}), ` +
    `ratio ${(median(traced) / median(base)).toFixed(2)}× — target < ${TARGET_MS} ms: ${perCall < TARGET_MS ? 'met' : 'MISSED'}`,
);
console.log(
  `  OTLP conversion of ${spans.length} spans: spansToOtlp ${median(oursUs).toFixed(1)} µs, ` +
    `JsonTraceSerializer + JSON.parse ${median(serializerUs).toFixed(1)} µs (${(median(serializerUs) / median(oursUs)).toFixed(1)}×)`,
);
if (perCall >= TARGET_MS) process.exitCode = 1;
