/**
 * Every recording counted once, every capture kept — in one real Vitest run of a fixture project:
 * the same JSONL read by describeTraces and by loadTraces is one set of traces in the report (cost,
 * signals and its input error once); the traces of each failing test are saved, redacted, as
 * native JSONL under .tracejury/traces/ and linked from the report by file and line, a captured
 * trace too when the test failed before any matcher saw it; describeTraces names a recording with
 * a hex id by what it was asked; an agent section of tracejury.yml that no trace belongs to is noted.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readTraceText } from '../../../src/trace/readInMemory.js';
import {
  configWith,
  createProject,
  nativeTrace,
  type Project,
  type ReportLike,
  type RunResult,
} from '../../helpers/vitestProject.js';

const SECRET = 'sk-proj-Xq7Lm2Np9Rt4Vw8Yz1Bc6Df3Gh5Jk0Ls2Mn';

function recording(id: string, loops: number, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...JSON.parse(nativeTrace(id, loops)), agentId: 'order-support', ...extra });
}

const LOOPING = JSON.parse(recording('loop-1', 6));
// A secret in a tool result: it must not reach the saved file.
LOOPING.steps[1].result = `token ${SECRET}`;

const HEX_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SUPPORT_JSONL = [
  JSON.stringify(LOOPING),
  recording('clean-1', 1),
  recording(HEX_ID, 1, {
    input: [
      { role: 'system', content: 'You are a support agent.' },
      {
        role: 'user',
        content: 'Where is my order 4412?\nIt was due on Monday, and the tracking page says nothing at all.',
      },
    ],
  }),
  '{"id": "broken", "steps": "not a list"}',
].join('\n');

const RECORDED = `
import { expect } from 'vitest';
import { describeTraces } from 'tracejury/vitest';

describeTraces('traces/support.jsonl', (trace) => {
  expect(trace).toHaveNoSignals();
}, { allowInputErrors: true });
`;

const LOADED = `
import { expect, test } from 'vitest';
import { loadTraces } from 'tracejury/vitest';

test('every recording at once', async () => {
  const traces = await loadTraces('traces/support.jsonl', { allowInputErrors: true });
  expect(traces).toHaveLength(3);
  for (const trace of traces) expect(trace).not.toHaveSignal('EMPTY_LLM_RESPONSE');
});
`;

/** An agent that emits OTel GenAI spans by hand; its tool is called with a secret in its arguments. */
const CAPTURED = `
import { expect, test } from 'vitest';
import { trace } from '@opentelemetry/api';
import { captureTrace } from 'tracejury/vitest';

async function refundAgent() {
  const tracer = trace.getTracer('fixture-agent');
  return tracer.startActiveSpan('invoke_agent order-support', { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'order-support' } }, async (root) => {
    await tracer.startActiveSpan('chat gpt-4o', { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 120, 'gen_ai.usage.output_tokens': 15 } }, async (span) => span.end());
    await tracer.startActiveSpan('execute_tool refund', { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'refund', 'gen_ai.tool.call.arguments': JSON.stringify({ order: '4412', apiKey: '${SECRET}' }) } }, async (span) => span.end());
    root.end();
    return 'refunded';
  });
}

test('a captured run that fails before any matcher looks at it', async () => {
  const captured = await captureTrace(() => refundAgent(), { name: 'refund flow' });
  expect(captured.steps).toHaveLength(99);
});

test('a captured run that passes', async () => {
  const captured = await captureTrace(() => refundAgent(), { name: 'refund flow, passing' });
  expect(captured.steps.length).toBeGreaterThan(0);
});
`;

describe('recordings in a real Vitest run: counted once, kept when a test fails', () => {
  let project: Project;
  let run: RunResult;
  let report: ReportLike;
  const testNamed = (suffix: string) => {
    const found = report.tests.find((t: { name: string }) => t.name.endsWith(suffix));
    if (!found)
      throw new Error(
        `no test …${suffix} in ${report.tests.map((t: { name: string }) => t.name).join(', ')}`,
      );
    return found;
  };

  beforeAll(async () => {
    project = createProject({
      'vitest.config.ts': configWith(),
      'tracejury.yml': 'order-suport:\n  tool_loop: { threshold: 2 }\n',
      'traces/support.jsonl': SUPPORT_JSONL,
      'recorded.test.ts': RECORDED,
      'loaded.test.ts': LOADED,
      'captured.test.ts': CAPTURED,
    });
    // What an earlier run saved: gone once this run starts.
    mkdirSync(path.join(project.dir, '.tracejury/traces'), { recursive: true });
    writeFileSync(path.join(project.dir, '.tracejury/traces/stale-test-0000.jsonl'), recording('stale', 1));
    run = await project.run();
    report = project.readReport();
  }, 120_000);

  it('fails the tests that fail, and only those', () => {
    expect(run.output).toMatch(/Tests\s+2 failed \| 5 passed/);
    expect(testNamed('> loop-1').state).toBe('failed');
    expect(testNamed('a captured run that fails before any matcher looks at it').state).toBe('failed');
  });

  it('counts a recording read by describeTraces and loadTraces once: traces, cost, signals, input errors', () => {
    // The three recordings once each, beside the two captures (in the report whether or not a
    // matcher looked at them).
    const recordings = report.traces.filter((t: { format: string }) => t.format === 'native');
    expect(recordings.map((t: { id: string }) => t.id).sort()).toEqual([HEX_ID, 'clean-1', 'loop-1'].sort());
    expect(report.inputs.traces).toBe(5);
    expect(report.inputs.formats.native).toBe(3);
    expect(
      report.traces
        .filter((t: { format: string }) => t.format !== 'native')
        .map((t: { test: string }) => t.test)
        .sort(),
    ).toEqual([
      'captured.test.ts > a captured run that fails before any matcher looks at it',
      'captured.test.ts > a captured run that passes',
    ]);
    const cost = report.traces.reduce((sum: number, t: { costUsd: number }) => sum + t.costUsd, 0);
    expect(report.totals.costUsd).toBeCloseTo(cost, 10);
    expect(report.signals.filter((s: { detector: string }) => s.detector === 'TOOL_LOOP')).toHaveLength(1);
    expect(report.inputs.errorCount).toBe(1);
    expect(report.inputs.errors).toEqual([
      expect.objectContaining({ file: 'traces/support.jsonl', line: 4 }),
    ]);
    // Each test still lists the recordings it read.
    expect(testNamed('every recording at once').traces.sort()).toEqual([HEX_ID, 'clean-1', 'loop-1'].sort());
    expect(testNamed('> loop-1').traces).toEqual(['loop-1']);
  });

  it('names a recording with a hex id by what it was asked, on one line, cut', () => {
    const asked = testNamed('"Where is my order 4412? It was due on Monday, and the track…"');
    expect(asked).toMatchObject({ state: 'passed', traces: [HEX_ID] });
  });

  it('saves the traces of each failing test as native JSONL, redacted, and links them by file and line', () => {
    const looping = testNamed('> loop-1');
    expect(looping.savedTraces).toEqual([
      {
        id: 'loop-1',
        file: expect.stringMatching(
          /^\.tracejury\/traces\/recorded-test-ts-traces-traces-support-jsonl-loop-1-[0-9a-f]{8}\.jsonl$/,
        ),
        line: 1,
      },
    ]);
    const text = readFileSync(path.join(project.dir, looping.savedTraces[0].file), 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).toContain('[REDACTED]');
    // Read back by tracejury's own loader: the same recording, in the native format.
    const back = readTraceText('saved.jsonl', text);
    expect(back.stats.errorCount).toBe(0);
    expect(back.traces.map((t) => [t.trace.id, t.source.format, t.trace.steps.length])).toEqual([
      ['loop-1', 'native', 8],
    ]);

    // A capture the test never handed a matcher is saved too, under the name it was given.
    const captured = testNamed('a captured run that fails before any matcher looks at it');
    expect(captured.savedTraces).toHaveLength(1);
    const saved = readFileSync(path.join(project.dir, captured.savedTraces[0].file), 'utf8')
      .trim()
      .split('\n');
    expect(saved).toHaveLength(1);
    const trace = JSON.parse(saved[0]!);
    expect(trace).toMatchObject({
      id: captured.savedTraces[0].id,
      agentId: 'order-support',
      metadata: { name: 'refund flow' },
    });
    expect(saved[0]).not.toContain(SECRET);
  });

  it('writes report.html beside report.json with the saved traces of the failing tests, redacted', () => {
    const html = readFileSync(path.join(project.dir, '.tracejury/report.html'), 'utf8');
    expect(html).not.toContain(SECRET);
    const page = JSON.parse(/id="tj-page">([\s\S]*?)<\/script>/.exec(html)![1]!);
    const saved = report.tests.flatMap(
      (t: { savedTraces?: { id: string; file: string }[] }) => t.savedTraces ?? [],
    );
    expect(page.traces.embedded.map((e: { id: string; file: string }) => [e.id, e.file]).sort()).toEqual(
      saved.map((s: { id: string; file: string }) => [s.id, s.file]).sort(),
    );
    expect(run.output).toContain('HTML report: .tracejury/report.html');
  });

  it('saves nothing for passing tests, and clears what an earlier run saved', () => {
    for (const t of report.tests) if (t.state === 'passed') expect(t.savedTraces).toBeUndefined();
    const files = readdirSync(path.join(project.dir, '.tracejury/traces')).sort();
    expect(files).toHaveLength(2);
    expect(files.some((f) => f.startsWith('stale'))).toBe(false);
    expect(existsSync(path.join(project.dir, '.tracejury/traces/stale-test-0000.jsonl'))).toBe(false);
  });

  it('notes an agent section that no trace of the run belongs to, with the nearest agent id', () => {
    const note =
      'tracejury.yml:1: section "order-suport" matches no agent of this run, so its settings were not used — did you mean "order-support"?';
    expect(report.notes).toContain(note);
    expect(run.output).toContain(note);
  });
});
