/** Outcomes: whether a run succeeded, read from what each recording says (docs/inputs.md, "Outcomes"). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraces } from '../../src/trace/load.js';

function file(name: string, body: unknown, jsonl = false): string {
  const d = mkdtempSync(path.join(tmpdir(), 'tj-outcome-'));
  const f = path.join(d, name);
  writeFileSync(
    f,
    jsonl ? (body as unknown[]).map((l) => JSON.stringify(l)).join('\n') : JSON.stringify(body, null, 2),
  );
  return f;
}

const msgs = [
  { role: 'system', content: 'You are an airline agent.' },
  { role: 'user', content: 'Cancel my booking.' },
  { role: 'assistant', content: 'Done.' },
];

describe('outcomes read by the importers', () => {
  it('τ-bench: success when reward is 1, the reward kept as score', async () => {
    const runs = [
      { task_id: 1, trial: 0, reward: 1.0, info: {}, traj: msgs },
      { task_id: 1, trial: 1, reward: 0.0, info: {}, traj: msgs },
      { task_id: 2, trial: 0, reward: 0.9999999, info: {}, traj: msgs },
      { task_id: 2, trial: 1, info: {}, traj: msgs },
    ];
    const { traces, stats } = await loadTraces(file('tau.json', runs));
    expect(stats.errorCount).toBe(0);
    expect(traces.map((t) => t.trace.outcome)).toEqual([
      { success: true, score: 1, source: 'tau-bench reward' },
      { success: false, score: 0, source: 'tau-bench reward' },
      { success: true, score: 0.9999999, source: 'tau-bench reward' },
      undefined,
    ]);
  });

  it('Who&When: is_correct when present, else a named mistake_agent means a failed run', async () => {
    const history = [{ role: 'assistant', name: 'Planner', content: 'plan' }];
    const base = { question: 'q', ground_truth: '3', history };
    const a = await loadTraces(file('a.json', { ...base, is_correct: false, mistake_agent: 'WebSurfer' }));
    expect(a.traces[0]!.trace.outcome).toEqual({ success: false, source: 'who-and-when is_correct' });
    const b = await loadTraces(file('b.json', { ...base, is_corrected: false, mistake_agent: 'WebSurfer' }));
    expect(b.traces[0]!.trace.outcome).toEqual({ success: false, source: 'who-and-when mistake_agent' });
    const c = await loadTraces(file('c.json', { ...base, is_corrected: false }));
    expect(c.traces[0]!.trace.outcome).toBeUndefined();
  });

  it('native: an outcome object (source filled in), a bare boolean, or a top-level success', async () => {
    const { traces, stats } = await loadTraces(
      file(
        'n.jsonl',
        [
          { id: 'a', steps: [], outcome: { success: true, score: 0.8 } },
          { id: 'b', steps: [], outcome: { success: false, source: 'my eval' } },
          { id: 'c', steps: [], outcome: false },
          { id: 'd', steps: [], success: true },
          { id: 'e', steps: [] },
        ],
        true,
      ),
    );
    expect(stats.errorCount).toBe(0);
    expect(traces.map((t) => t.trace.outcome)).toEqual([
      { success: true, score: 0.8, source: 'native outcome' },
      { success: false, source: 'my eval' },
      { success: false, source: 'native outcome' },
      { success: true, source: 'native success' },
      undefined,
    ]);
  });

  it('native: a malformed outcome is an input error, not silently dropped', async () => {
    const { traces, stats } = await loadTraces(
      file('n.jsonl', [{ id: 'a', steps: [], outcome: { success: 'yes' } }], true),
    );
    expect(traces).toHaveLength(0);
    expect(stats.errors[0]).toMatchObject({ field: 'outcome.success' });
  });

  it('OTel: tracejury.outcome.success and .score on the root agent span', async () => {
    const attr = (key: string, value: Record<string, unknown>) => ({ key, value });
    const span = (spanId: string, parent: string | undefined, attributes: unknown[]) => ({
      traceId: '5b8efff798038103d269b633813fc60c',
      spanId,
      ...(parent ? { parentSpanId: parent } : {}),
      name: spanId,
      startTimeUnixNano: '1741946400000000000',
      endTimeUnixNano: '1741946401000000000',
      attributes,
      status: { code: 0 },
    });
    const doc = {
      resourceSpans: [
        {
          resource: { attributes: [] },
          scopeSpans: [
            {
              scope: { name: 'x' },
              spans: [
                span('eee19b7ec3c1b174', undefined, [
                  attr('gen_ai.operation.name', { stringValue: 'invoke_agent' }),
                  attr('tracejury.outcome.success', { boolValue: false }),
                  attr('tracejury.outcome.score', { doubleValue: 0.25 }),
                ]),
                span('eee19b7ec3c1b175', 'eee19b7ec3c1b174', [
                  attr('gen_ai.operation.name', { stringValue: 'chat' }),
                  attr('gen_ai.request.model', { stringValue: 'gpt-4o-mini' }),
                ]),
              ],
            },
          ],
        },
      ],
    };
    const { traces, stats } = await loadTraces(file('otel.json', doc));
    expect(stats.errorCount).toBe(0);
    expect(traces[0]!.source.format).toBe('otel');
    expect(traces[0]!.trace.outcome).toEqual({
      success: false,
      score: 0.25,
      source: 'otel tracejury.outcome.success',
    });
  });

  it('Langfuse: a score named success (BOOLEAN, 0/1), never a quality rating', async () => {
    const trace = (id: string, scores: unknown[]) => ({
      id,
      name: 'support-bot',
      timestamp: '2025-01-01T00:00:00Z',
      scores,
      observations: [
        {
          id: `${id}-g`,
          traceId: id,
          type: 'GENERATION',
          name: 'chat',
          model: 'gpt-4o-mini',
          startTime: '2025-01-01T00:00:00Z',
          endTime: '2025-01-01T00:00:01Z',
          usageDetails: { input: 10, output: 5 },
        },
      ],
    });
    const { traces, stats } = await loadTraces(
      file(
        'lf.jsonl',
        [
          trace('t1', [{ name: 'success', value: 1, dataType: 'BOOLEAN' }]),
          trace('t2', [{ name: 'helpfulness', value: 0.2 }]),
        ],
        true,
      ),
    );
    expect(stats.errorCount).toBe(0);
    expect(traces.map((t) => t.source.format)).toEqual(['langfuse', 'langfuse']);
    expect(traces.map((t) => t.trace.outcome)).toEqual([
      { success: true, source: 'langfuse score success' },
      undefined,
    ]);
  });
});

describe('agent keys', () => {
  it('keys a trace that names no agent by --agent, else by its file relative to cwd', async () => {
    const f = file(
      'runs.jsonl',
      [
        { id: 'a', steps: [] },
        { id: 'b', agentId: 'bot', steps: [] },
      ],
      true,
    );
    const cwd = path.dirname(path.dirname(f));
    const byFile = await loadTraces(f, { cwd });
    const rel = path.relative(cwd, f).split(path.sep).join('/');
    expect(byFile.traces.map((t) => [t.trace.agentId, t.source.agentIdFrom])).toEqual([
      [rel, 'file'],
      ['bot', 'recorded'],
    ]);
    const byOption = await loadTraces(f, { cwd, agent: 'support' });
    expect(byOption.traces.map((t) => [t.trace.agentId, t.source.agentIdFrom])).toEqual([
      ['support', 'option'],
      ['bot', 'recorded'],
    ]);
  });
});
