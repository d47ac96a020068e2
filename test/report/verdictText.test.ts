/**
 * The judges' verdicts in the text report (each verdict against its threshold, each judge's model,
 * score, confidence and reasoning, "replayed from the cassette") and counted in the markdown, with a
 * judge's reasoning treated as the hostile text it is; a Vitest run's gate line names its tests.
 */
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/judge/verdict.js';
import { renderMarkdown } from '../../src/report/renderMarkdown.js';
import { renderText } from '../../src/report/renderText.js';
import { buildTestRunReport, type TestRunEntry } from '../../src/report/testRunReport.js';
import { verdictCounts, verdictFacts } from '../../src/report/verdictText.js';

const SECRET = 'sk-proj-Xq7Lm2Np9Rt4Vw8Yz1Bc6Df3Gh5Jk0Ls2Mn';

function verdict(passed: boolean, fields: Partial<Verdict> = {}): Verdict {
  return {
    traceId: passed ? 'good-1' : 'bad-1',
    passed,
    indeterminate: false,
    score: passed ? 0.9 : 0.2,
    confidence: 0.85,
    threshold: 0.7,
    disagreement: 0.05,
    highDisagreement: false,
    modelsUsed: ['gpt-4o', 'claude-sonnet-4-6'],
    latencyMs: 1400,
    costUsd: 0.0021,
    replayed: true,
    judges: [
      {
        provider: 'openai',
        model: 'gpt-4o',
        httpStatus: 200,
        usedStructuredOutput: true,
        score: passed ? 0.9 : 0.2,
        confidence: 0.9,
        passed,
        reasoning: passed
          ? 'answers the question directly'
          : `refuses\u001b[2J to answer; the key ${SECRET} was in the prompt`,
        latencyMs: 700,
        costUsd: 0.001,
        replayed: true,
      },
      {
        provider: 'anthropic',
        model: 'claude-sonnet-4-6',
        httpStatus: 0,
        usedStructuredOutput: false,
        error: 'no cassette entry',
        latencyMs: 0,
        costUsd: 0,
      },
    ],
    ...fields,
  };
}

function entry(name: string, state: 'passed' | 'failed', verdicts: Verdict[]): TestRunEntry {
  return {
    name,
    file: 'evals.test.ts',
    state,
    attempts: [state === 'passed'],
    errors: state === 'failed' ? ['expected the tribunal to pass the response'] : [],
    traces: [],
    trajectories: [],
    verdicts,
    sessions: [],
    inputErrors: [],
  };
}

const report = buildTestRunReport(
  [
    entry('evals.test.ts > judged helpful', 'passed', [verdict(true)]),
    entry('evals.test.ts > a refusal (fails on purpose)', 'failed', [verdict(false)]),
  ],
  { failOn: ['critical', 'high'] },
);

describe('verdicts in the reports', () => {
  it('words a verdict against its threshold, and without one for reports before 1.4', () => {
    expect(verdictFacts(verdict(false))).toBe(
      'score 0.20 < 0.7, confidence 0.85 ≥ 0.7 · 0 of 2 judges passed · disagreement 0.05 · $0.0021 · 1.4 s · replayed from the cassette',
    );
    expect(verdictFacts(verdict(true, { threshold: undefined, replayed: undefined }))).toBe(
      'score 0.90, confidence 0.85 · 1 of 2 judges passed · disagreement 0.05 · $0.0021 · 1.4 s',
    );
    expect(verdictCounts([verdict(true), verdict(false), verdict(false, { indeterminate: true })])).toEqual({
      verdicts: 3,
      passed: 1,
      failed: 1,
      indeterminate: 1,
      replayed: 3,
    });
  });

  it('lists every verdict in the text report, failed first, each judge with its reasoning, made safe', () => {
    const text = renderText(report);
    expect(text).toContain('Gate: FAILED — 1 test of 2 failed');
    const at = text.indexOf(
      'Judges: 2 verdicts: 1 passed, 1 failed, 0 indeterminate (2 replayed from the cassette)',
    );
    expect(at).toBeGreaterThan(-1);
    const lines = text.slice(at).split('\n').slice(1, 7);
    expect(lines[0]).toBe(
      '  × FAILED evals.test.ts > a refusal (fails on purpose): score 0.20 < 0.7, confidence 0.85 ≥ 0.7 · 0 of 2 judges passed · disagreement 0.05 · $0.0021 · 1.4 s · replayed from the cassette',
    );
    expect(lines[1]).toMatch(
      /^ {6}openai:gpt-4o — failed, score 0\.20, confidence 0\.90, replayed: refuses.* to answer/,
    );
    // The judge's text is hostile: no secret, no raw escape sequence reaches the terminal.
    expect(lines[1]).not.toContain(SECRET);
    expect(lines[1]).not.toContain('\u001b');
    expect(lines[2]).toBe('      anthropic:claude-sonnet-4-6 — could not judge: no cassette entry');
    expect(lines[3]).toMatch(/^ {2}✓ PASSED evals\.test\.ts > judged helpful: score 0\.90 ≥ 0\.7/);
    expect(lines[4]).toBe(
      '      openai:gpt-4o — passed, score 0.90, confidence 0.90, replayed: answers the question directly',
    );
  });

  it('counts them in the markdown, and a test run’s gate line names its tests', () => {
    const md = renderMarkdown(report);
    expect(md).toContain(
      '**Judges**: 2 verdicts: 1 passed, 1 failed, 0 indeterminate (2 replayed from the cassette)',
    );
    expect(md).toContain('Gate: tests — 1 passed, 1 failed');
    expect(md).not.toContain('failOn');
    expect(md).not.toContain(SECRET);
  });
});
