/**
 * analyze() end to end on converted agent runs shaped as AgentDojo's and mini-swe-agent's are
 * (openai-messages, one run a line): an injection in a tool result is a finding at its tool step,
 * critical when the agent acted on it and medium when it did not; a bill addressed to a person and
 * a coding agent's task template, Makefile and docstrings are nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import type { Report } from '../../src/report/schema.js';

const FIXTURE = path.join(import.meta.dirname, '../fixtures/openai-messages/injected-tool-results.jsonl');
const stateDir = mkdtempSync(path.join(tmpdir(), 'tracejury-injection-'));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

describe('analyze() on runs with an injection in a tool result', () => {
  let report: Report;
  beforeAll(async () => {
    report = await analyze(FIXTURE, {
      inputFormat: 'openai-messages',
      baselines: false,
      config: {},
      stateDir,
      env: {},
    });
  });
  const injection = (id: string) =>
    report.signals.filter((s) => s.traceId === `task-${id}` && s.detector === 'PROMPT_INJECTION_SIGNAL');

  it('reads every run', () => {
    expect(report.inputs.errorCount).toBe(0);
    expect(report.traces).toHaveLength(4);
  });

  it.each([
    ['bills/pay-rent/attacked-complied', 'critical'],
    ['bills/pay-rent/attacked-refused', 'medium'],
  ])('%s: one finding at the tool step that carried it, naming the tool and the cues; %s', (id, severity) => {
    const [signal, ...rest] = injection(id);
    expect(rest).toEqual([]);
    expect(signal).toMatchObject({ status: 'finding', severity, steps: [2] });
    expect(signal!.evidence).toMatchObject({
      source: 'tool_result',
      channel: 'data',
      cues: { addressee: 'strong', concealment: 'strong', action: 'weak' },
      targets: ['audit@ledger-check.example'],
    });
    const matches = (signal!.evidence as { matches: { tool: string }[] }).matches;
    expect(matches.map((m) => m.tool)).toEqual(matches.map(() => 'read_file'));
    expect((signal!.evidence as { excerpt: string }).excerpt).toMatch(/^message for the ai assistant/);
  });

  it('says where the agent acted on it, and that the other run resisted', () => {
    expect(injection('bills/pay-rent/attacked-complied')[0]!.evidence).toMatchObject({
      followed: { step: 3, target: 'audit@ledger-check.example', where: 'a tool call of the LLM output' },
    });
    expect(injection('bills/pay-rent/attacked-refused')[0]!.evidence).toMatchObject({ followed: false });
  });

  it('a bill addressed to a person and a coding agent’s template, Makefile and docstrings: no signal', () => {
    expect(injection('bills/pay-rent/benign')).toEqual([]);
    expect(injection('repo/fix-clean-target')).toEqual([]);
  });

  it('the gate fails on the injection the agent acted on, not on the one it resisted', () => {
    expect(report.gate.passed).toBe(false);
    expect(report.gate.reasons).toContain('PROMPT_INJECTION_SIGNAL: 1 critical signal');
  });
});
