import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { parseConfig } from '../../src/config/config.js';
import { signal as makeSignal } from '../helpers/signalBuilder.js';
import type { Verdict } from '../../src/judge/verdict.js';
import { createReportAccumulator } from '../../src/report/build.js';
import { emptyStats } from '../../src/trace/load.js';
import { llm, makeTrace, tool } from '../helpers/traceBuilder.js';

const GH = 'ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5z';
const OPENAI = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123';
const PASSWORD = 'hunter2';

describe('the Report itself is redacted', () => {
  it('holds no secret from the traces anywhere in its JSON: messages, evidence, model names, notes', async () => {
    const failing = tool('fetch', {
      status: 'error',
      error: `401 Unauthorized (Authorization: Bearer ${OPENAI}, token ${GH})`,
    });
    const storm = makeTrace([failing, failing, failing], { id: 'storm', agentId: 'bot' });
    const login = llm({ model: 'gpt-4', input: `Log in with password=${PASSWORD} and fetch the orders` });
    const retries = makeTrace([login, login, login, login], { id: 'retries', agentId: 'bot' });
    const unpriced = makeTrace([llm({ model: `proxy/${OPENAI}` })], { id: 'unpriced', agentId: 'bot' });
    const bad = { id: 'bad', steps: [{ type: 'llm', model: 'm', usage: `Bearer ${OPENAI}` }] };
    const dir = mkdtempSync(path.join(tmpdir(), 'tj-build-'));
    const file = path.join(dir, 'runs.jsonl');
    writeFileSync(file, [storm, retries, unpriced, bad].map((t) => JSON.stringify(t)).join('\n'));

    const report = await analyze([file], { config: parseConfig(''), baselines: false, cwd: dir });

    const detectors = report.signals.map((s) => s.detector);
    expect(detectors).toEqual(expect.arrayContaining(['RETRY_STORM', 'FIRST_STEP_FAILURE', 'RETRY_LOOP']));
    expect(report.inputs.errorCount).toBe(1);
    const json = JSON.stringify(report);
    for (const secret of [OPENAI, GH, `password=${PASSWORD}`, 'sk-proj-', 'ghp_']) {
      expect(json).not.toContain(secret);
    }
    const retryStorm = report.signals.find((s) => s.detector === 'RETRY_STORM')!;
    expect(retryStorm.evidence?.lastError).toBe(
      '401 Unauthorized (Authorization: [REDACTED], token [REDACTED])',
    );
    const retryLoop = report.signals.find((s) => s.detector === 'RETRY_LOOP')!;
    expect(retryLoop.evidence?.prompt).toBe('Log in with password=[REDACTED] and fetch the orders');
    expect(report.totals.unknownModels.map((u) => u.model)).toEqual(['proxy/[REDACTED]']);
    expect(report.notes.join('\n')).toContain('proxy/[REDACTED]');
  });

  it('redacts review reasons, notes, verdicts and input errors given to finish, and leaves the signals it was given alone', () => {
    const acc = createReportAccumulator();
    const signal = makeSignal({
      traceId: 't1',
      confidence: 0.5,
      message: `looped on a call carrying password=${PASSWORD}`,
      evidence: {
        args: { apiKey: 'abc', q: `token=${GH}` },
        escalation: `tribunal INDETERMINATE: saw ${OPENAI}`,
      },
    });
    acc.add({ trace: makeTrace([tool('t')]), source: { file: 'runs.jsonl', format: 'native' } }, [signal]);
    const verdict = { traceId: 't1', reason: `the run leaked ${OPENAI}` } as Verdict;
    const report = acc.finish({
      stats: {
        ...emptyStats(),
        errors: [{ file: 'runs.jsonl', line: 2, message: `expected number, got "Bearer ${OPENAI}"` }],
        errorCount: 1,
      },
      unknownModels: new Map(),
      failOn: ['high'],
      notes: [`detector X failed on trace t1: DB_PASSWORD=${PASSWORD}`],
      verdicts: [verdict],
    });

    expect(report.signals[0]!.message).toBe('looped on a call carrying password=[REDACTED]');
    expect(report.signals[0]!.evidence).toEqual({
      args: { apiKey: '[REDACTED]', q: 'token=[REDACTED]' },
      escalation: 'tribunal INDETERMINATE: saw [REDACTED]',
    });
    expect(report.review[0]!.reason).toBe(
      'tribunal INDETERMINATE: saw [REDACTED]: looped on a call carrying password=[REDACTED]',
    );
    expect(report.inputs.errors[0]!.message).toBe('expected number, got "Bearer [REDACTED]"');
    expect(report.notes).toEqual(['detector X failed on trace t1: DB_PASSWORD=[REDACTED]']);
    expect(report.verdicts[0]!.reason).toBe('the run leaked [REDACTED]');
    // The detector's own objects are not rewritten in place.
    expect(signal.message).toContain(PASSWORD);
    expect(verdict.reason).toContain(OPENAI);
  });
});

describe('review items', () => {
  it('say when the case comes from a detector in shadow mode', () => {
    const acc = createReportAccumulator();
    const loaded = { trace: makeTrace([tool('t')]), source: { file: 'runs.jsonl', format: 'native' } };
    acc.add(loaded, [
      makeSignal({ traceId: 'live', confidence: 0.5 }),
      makeSignal({ traceId: 'quiet', confidence: 0.5, shadow: true }),
    ]);
    const report = acc.finish({
      stats: { ...emptyStats(), traces: 1 },
      unknownModels: new Map(),
      failOn: ['high'],
    });
    expect(report.review.map((r) => [r.traceId, r.shadow])).toEqual([
      ['live', undefined],
      ['quiet', true],
    ]);
  });
});
