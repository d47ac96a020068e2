/**
 * Routing, the run budget and the cost tracker inside analyze(): the loopback judge server (real
 * OpenAI and Anthropic SDKs) sees which models each route called.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { parseConfig } from '../../src/config/config.js';
import { ReportSchema } from '../../src/report/schema.js';
import { anthropicReply, openaiReply, startFakeServer, type FakeServer } from '../judge/fakeServers.js';
import { makeTrace, tool } from '../helpers/traceBuilder.js';

// Three lookups of three different reservations: TOOL_LOOP (failure mode `loop`) reports it at 0.55.
const lookups = (id: string, output: string) =>
  makeTrace(
    [
      tool('get_reservation_details', { args: { id: 'R1' } }),
      tool('get_reservation_details', { args: { id: 'R2' } }),
      tool('get_reservation_details', { args: { id: 'R3' }, result: '{"status": "confirmed"}' }),
    ],
    { id, output },
  );

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(extra: string, traces: ReturnType<typeof lookups>[]) {
  server = await startFakeServer((req) =>
    req.api === 'anthropic'
      ? anthropicReply({ score: 0.1, confidence: 0.9, passed: false }, req.model)
      : openaiReply({ score: 0.1, confidence: 0.9, passed: false }, req.model),
  );
  const oa = `baseURL: "${server.openaiBaseURL}", apiKey: test-key`;
  const an = `baseURL: "${server.anthropicBaseURL}", apiKey: test-key`;
  const yml = `
tribunal:
  judges:
    - { provider: openai, model: gpt-4o, ${oa} }
  routes:
    low: { judges: [{ provider: openai, model: gpt-4o-mini, ${oa} }] }
    high:
      judges:
        - { provider: anthropic, model: claude-sonnet-4-6, ${an} }
        - { provider: openai, model: gpt-4.1, ${oa} }
  judgeTimeoutMs: 15000
  cassette: { mode: record }
${extra}`;
  const stateDir = mkdtempSync(path.join(tmpdir(), 'tj-routing-'));
  const report = await analyze(traces, { config: parseConfig(yml), stateDir, baselines: false });
  return { report, models: server.requests.map((r) => `${r.api}:${r.model}`) };
}

describe('tier 4 routing by failure mode', () => {
  it('a loop takes the default route: no default set configured, so tribunal.judges hear it', async () => {
    const { report, models } = await run('', [lookups('r-default', 'routing default')]);
    expect(models).toEqual(['openai:gpt-4o']);
    const loop = report.signals.find((s) => s.detector === 'TOOL_LOOP')!;
    expect(loop.evidence).toMatchObject({ route: 'default' });
    expect(loop.tier).toBe(4);
  });

  it('tribunal.failureModes moves loops to the high route, whose judges are called', async () => {
    const { report, models } = await run('  failureModes: { loop: high }\n', [
      lookups('r-high', 'routing high'),
    ]);
    expect(models.sort()).toEqual(['anthropic:claude-sonnet-4-6', 'openai:gpt-4.1']);
    expect(report.signals.find((s) => s.detector === 'TOOL_LOOP')!.evidence).toMatchObject({
      route: 'high',
    });
    expect(report.verdicts[0]!.modelsUsed.sort()).toEqual(['claude-sonnet-4-6', 'gpt-4.1']);

    // The cost tracker: per tier, per provider and model, per trace; the parts sum to the whole.
    const { cost } = ReportSchema.parse(report);
    expect(cost.judgeUsd).toBeGreaterThan(0);
    // Tier 3 (the offline embedder) costs nothing; tier 4 is the judges' spend.
    expect(cost.byTier).toEqual({ '3': 0, '4': cost.judgeUsd });
    expect(Object.keys(cost.byModel!).sort()).toEqual(['anthropic:claude-sonnet-4-6', 'openai:gpt-4.1']);
    expect(cost.byModel!['openai:gpt-4.1']).toMatchObject({ provider: 'openai', model: 'gpt-4.1', calls: 1 });
    const sum = (xs: { usd: number }[]) => xs.reduce((a, x) => a + x.usd, 0);
    expect(sum(Object.values(cost.byModel!))).toBeCloseTo(cost.judgeUsd, 12);
    expect(sum(Object.values(cost.byProvider!))).toBeCloseTo(cost.judgeUsd, 12);
    expect(Object.keys(cost.byProvider!).sort()).toEqual(['anthropic', 'openai']);
    expect(cost.perTraceUsd).toBeCloseTo(cost.judgeUsd / report.inputs.traces, 12);
  });

  it('a configured low route hears what failureModes sends it', async () => {
    const { models } = await run('  failureModes: { loop: low }\n', [lookups('r-low', 'routing low')]);
    expect(models).toEqual(['openai:gpt-4o-mini']);
  });

  it('a route judge outside the allow-list is a configuration error before any call', async () => {
    await expect(
      run('  allowedModels: ["gpt-4o", "gpt-4o-mini", "claude-*"]\n', [lookups('r-deny', 'deny')]),
    ).rejects.toThrow(/judge model "gpt-4.1" is not in the allowed judge models/);
    expect(server!.requests).toEqual([]);
  });
});

describe('run budget (tiers.budgetUsd)', () => {
  it('stops calling judges once reached, says so in a note, and leaves the rest for review', async () => {
    const { report, models } = await run('tiers: { budgetUsd: 0.000001 }\n', [
      lookups('b-1', 'budget one'),
      lookups('b-2', 'budget two'),
      lookups('b-3', 'budget three'),
    ]);
    // The first case is judged (spend starts at 0); after it the budget is spent.
    expect(models).toEqual(['openai:gpt-4o']);
    expect(report.verdicts).toHaveLength(1);
    expect(report.review.map((r) => [r.traceId, r.reason.split(':')[0]])).toEqual([
      ['b-2', 'run budget of $0.000001 reached'],
      ['b-3', 'run budget of $0.000001 reached'],
    ]);
    expect(report.review[0]!.evidence).toMatchObject({ escalation: 'run budget of $0.000001 reached' });
    expect(report.notes).toContainEqual(
      expect.stringMatching(
        /^run budget of \$0\.000001 reached \(tiers\.budgetUsd; judges spent \$[\d.]+\): 2 later gray-zone cases were not escalated/,
      ),
    );
    expect(report.cost.perTraceUsd).toBeCloseTo(report.cost.judgeUsd / 3, 12);
  });
});

describe('cost fields without judges', () => {
  it('are present and zero', async () => {
    const report = await analyze([lookups('c-1', 'no judges')], {
      config: parseConfig(''),
      baselines: false,
    });
    // Tier 3 ran on the gray-zone case with the offline embedder, for free; no judge was configured.
    expect(report.cost).toEqual({ judgeUsd: 0, byTier: { '3': 0 }, perTraceUsd: 0 });
  });
});
