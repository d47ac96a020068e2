/**
 * `toHaveWasteBelow` in a real Vitest run counts a structural loop's dollars: four identical
 * `lookup_order` calls, each issued by a priced LLM call, waste the three calls that issued the
 * repeats — the failure names TOOL_LOOP and the dollars.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createPricer } from '../../../src/pricing/pricer.js';
import { formatUsd } from '../../../src/report/summarise.js';
import { configWith, createProject, type ReportLike, type RunResult } from '../../helpers/vitestProject.js';

const usage = { inputTokens: 1000, outputTokens: 100 };
const ask = (n: number) => ({
  type: 'llm',
  model: 'gpt-4o',
  input: `turn ${n}`,
  output: 'looking it up',
  usage,
});
const lookup = (issuedBy: number) => ({
  type: 'tool',
  name: 'lookup_order',
  args: { order_id: 'A1' },
  result: { status: 'shipped' },
  status: 'ok',
  issuedBy,
});
const LOOKUPS = JSON.stringify({
  id: 'lookups-1',
  agentId: 'support',
  status: 'ok',
  input: 'Where is my order A1?',
  output: 'It has shipped.',
  steps: [ask(1), lookup(1), ask(2), lookup(3), ask(3), lookup(5), ask(4), lookup(7), ask(5)],
});

const EVALS = `
import { expect, test } from 'vitest';

test('a loop of lookups wastes under a cent (fails on purpose)', () => {
  expect('traces/lookups.json').toHaveWasteBelow(0.01);
});

test('a loop of lookups wastes under a dollar', () => {
  expect('traces/lookups.json').toHaveWasteBelow(1);
});
`;

describe('toHaveWasteBelow on a structural loop, in a real Vitest run', () => {
  let run: RunResult;
  let report: ReportLike;
  // The three LLM calls that issued the repeated lookups, each priced from its tokens.
  const wasted = formatUsd(3 * createPricer().quote('gpt-4o', usage)!.usd);

  beforeAll(async () => {
    const project = createProject({
      'vitest.config.ts': configWith(),
      'traces/lookups.json': LOOKUPS,
      'evals.test.ts': EVALS,
    });
    run = await project.run();
    report = project.readReport();
  }, 120_000);

  it('fails with the loop named and its dollars; a bound above them passes', () => {
    expect(run.output).toMatch(/Tests\s+1 failed \| 1 passed/);
    const failed = report.tests.find((t: { name: string }) => t.name.endsWith('(fails on purpose)'));
    // The first line brings the signal its colon announces.
    expect(failed.errors[0]).toContain(
      `expected trace lookups-1 to have waste below $0.0100, but it wastes ${wasted}: TOOL_LOOP (high, confidence 0.94, wastes ${wasted}) at steps 2, 4, 6, 8: lookup_order called 4×`,
    );
    expect(run.output).toContain(
      `- TOOL_LOOP (high, confidence 0.94, wastes ${wasted}) at steps 2, 4, 6, 8: lookup_order called 4×`,
    );
    expect(wasted).toBe('$0.0105');
  });
});
