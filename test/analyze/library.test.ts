/** analyze() as a library caller uses it: trace objects, plain config objects, and misuse. */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { ConfigError } from '../../src/config/config.js';
import type { TraceInput } from '../../src/trace/schema.js';

const loop = (id: string, calls: number): TraceInput => ({
  id,
  steps: Array.from({ length: calls }, () => ({
    type: 'tool' as const,
    name: 'search',
    args: { q: 'same' },
  })),
});

describe('analyze() on trace objects', () => {
  it('reports an invalid object as an input error naming it and its field, and analyses the others', async () => {
    const report = await analyze([loop('good', 3), { id: 'bad', steps: 5 } as unknown as TraceInput], {
      baselines: false,
      config: {},
    });
    expect(report.inputs).toMatchObject({ traces: 1, records: 2, errorCount: 1, formats: { native: 1 } });
    expect(report.inputs.errors).toEqual([
      { file: '<input>[1]', field: 'steps', message: expect.stringMatching(/^trace bad: /) },
    ]);
    expect(report.traces.map((t) => t.id)).toEqual(['good']);
    expect(report.signals.map((s) => s.detector)).toContain('TOOL_LOOP');
  });

  it('takes a config as a plain object, checked as a file is', async () => {
    const strict = await analyze([loop('t', 3)], { baselines: false, config: {} });
    expect(strict.signals.map((s) => s.detector)).toContain('TOOL_LOOP');
    const relaxed = await analyze([loop('t', 3)], {
      baselines: false,
      config: { default: { tool_loop: { threshold: 4 } } },
    });
    expect(relaxed.signals.map((s) => s.detector)).not.toContain('TOOL_LOOP');
    await expect(
      analyze([loop('t', 3)], { baselines: false, config: { default: { tool_loop: { treshold: 4 } } } }),
    ).rejects.toThrow(
      new ConfigError('options.config: unknown key "default.tool_loop.treshold" — did you mean "threshold"?'),
    );
  });

  it('says what it takes when given something else', async () => {
    await expect(analyze({ id: 't' } as unknown as string)).rejects.toThrow(
      'analyze() takes a path, a list of paths or a list of trace objects; got object',
    );
    await expect(analyze([loop('t', 1)], { config: {}, configFile: 'tracejury.yml' })).rejects.toThrow(
      'analyze(): give options.config or options.configFile, not both',
    );
    await expect(analyze(['traces/', loop('t', 1)] as unknown as string[])).rejects.toThrow(
      'analyze() takes paths or trace objects, not a mix of both',
    );
  });
});

describe('analyze() agent keys for trace objects', () => {
  it('keys objects that name no agent as <input>, or by the agent option; a recorded agentId wins', async () => {
    const traces: TraceInput[] = [loop('a', 1), { ...loop('b', 1), agentId: 'bot' }];
    const byInput = await analyze(traces, { baselines: false, config: {} });
    expect(byInput.traces.map((t) => [t.agentId, t.agentIdFrom])).toEqual([
      ['<input>', 'file'],
      ['bot', 'recorded'],
    ]);
    const byOption = await analyze(traces, { baselines: false, config: {}, agent: 'support' });
    expect(byOption.traces.map((t) => [t.agentId, t.agentIdFrom])).toEqual([
      ['support', 'option'],
      ['bot', 'recorded'],
    ]);
  });
});
