/**
 * Session scores in analyze()'s report: grouped by sessionId (runs that name none are in no session),
 * valid Report v1, gating by `sessions:` config, and shown by both renderers.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { parseConfig } from '../../src/config/config.js';
import { renderMarkdown } from '../../src/report/renderMarkdown.js';
import { renderText } from '../../src/report/renderText.js';
import { ReportSchema } from '../../src/report/schema.js';

const answer = (id: string, sessionId?: string, agentId = 'support') => ({
  id,
  agentId,
  ...(sessionId ? { sessionId } : {}),
  input: `Where is order ${id}? It should have arrived by now.`,
  output: `Order ${id} has shipped and should arrive tomorrow.`,
  steps: [{ type: 'tool', name: 'lookup_order', args: { id }, status: 'ok' }],
});
/** The same tool called 5 times with identical arguments: a TOOL_LOOP finding. */
const looping = (id: string, sessionId?: string) => ({
  ...answer(id, sessionId),
  steps: Array.from({ length: 5 }, () => ({ type: 'tool', name: 'lookup_order', args: { id: 1 } })),
});

const run = (traces: unknown[], config: Record<string, unknown> = {}) =>
  analyze(traces as never, { config: { failOn: 'critical', ...config }, baselines: false });

describe('sessions in the report', () => {
  it('scores each session, validates as Report v1 and fails the gate naming the worst session', async () => {
    const report = await run([
      answer('1', 'calm'),
      answer('2', 'calm'),
      answer('3', 'rough'),
      looping('4', 'rough'),
    ]);
    expect(ReportSchema.safeParse(report).success).toBe(true);
    expect(report.sessions.map((s) => `${s.sessionId} ${s.metric}`)).toEqual([
      'calm agent_reliability',
      'calm agent_consistency',
      'rough agent_reliability',
      'rough agent_consistency',
    ]);
    const score = (id: string, metric: string) =>
      report.sessions.find((s) => s.sessionId === id && s.metric === metric)!;
    expect(score('calm', 'agent_reliability').passed).toBe(true);
    expect(score('rough', 'agent_reliability').score).toBeLessThan(score('calm', 'agent_reliability').score);
    expect(score('rough', 'agent_reliability').passed).toBe(false);
    expect(score('rough', 'agent_reliability').metadata).toMatchObject({
      total_traces_in_session: 2,
      threshold: 0.5,
      flagged_traces: ['4'],
      grouped_by: 'sessionId',
    });
    expect(report.gate.passed).toBe(false);
    const reliability = score('rough', 'agent_reliability').score.toFixed(2);
    expect(report.gate.reasons).toEqual([
      expect.stringMatching(
        new RegExp(
          `^1 session below its threshold \\(sessions\\.failGate\\): session rough agent_reliability ${reliability} < 0\\.50`,
        ),
      ),
    ]);

    const text = renderText(report);
    expect(text).toContain('Sessions: 2 (1 below threshold)');
    expect(text).toMatch(/× rough +reliability \d\.\d\d < 0\.50, consistency/);
    expect(text.indexOf('× rough')).toBeLessThan(text.indexOf('✓ calm'));
    const md = renderMarkdown(report);
    expect(md).toContain('**Sessions** (2, 1 below threshold; worst first)');
    expect(md).toMatch(/\| ❌ \| rough \| 2 \| \d\.\d\d < 0\.50 \|/);
    expect(md).toMatch(/^- 1 session below its threshold .*session rough/m);
  });

  it('scores no session for runs that name none, never fails the gate for them, and says how many', async () => {
    // Independent runs of one agent, one of them looping: no session and conversation ids, so no
    // session; the finding is left to failOn (critical here).
    const report = await run([answer('1', undefined, 'a'), looping('2'), answer('3', undefined, 'b')]);
    expect(ReportSchema.safeParse(report).success).toBe(true);
    expect(report.sessions).toEqual([]);
    expect(report.sessionCoverage).toEqual({ sessions: 0, grouped: 0, withoutSession: 3 });
    expect(report.gate.passed).toBe(true);
    expect(renderText(report)).toContain(
      'Sessions: none (3 traces named no session (no session or conversation id): they are scored in no session)',
    );
    expect(renderMarkdown(report)).toContain(
      '_Sessions: 3 traces named no session (no session or conversation id): they are scored in no session._',
    );
  });

  it('scores the sessions the recording names and leaves the other runs out of them', async () => {
    const report = await run([answer('1', 'calm'), looping('2'), answer('3', 'calm')]);
    const reliability = report.sessions.filter((s) => s.metric === 'agent_reliability');
    expect(
      reliability.map((s) => [s.sessionId, s.metadata.total_traces_in_session, s.metadata.grouped_by]),
    ).toEqual([['calm', 2, 'sessionId']]);
    expect(reliability[0]!.metadata).not.toHaveProperty('traces_without_session_id');
    expect(report.sessionCoverage).toEqual({ sessions: 1, grouped: 2, withoutSession: 1 });
    expect(report.gate.passed).toBe(true);
    expect(renderText(report)).toMatch(
      /Sessions: 1 \(all at or above threshold\)\n {2}1 trace named no session/,
    );
  });

  it('lowers a session that repeats its previous run near-identically', async () => {
    const same = (id: string) => ({ ...answer('7', 's'), id });
    const repeated = await run([same('a'), same('b')]);
    const varied = await run([answer('1', 's'), answer('2', 's')]);
    const reliability = (r: typeof repeated) => r.sessions.find((s) => s.metric === 'agent_reliability')!;
    expect(reliability(repeated).score).toBeLessThan(reliability(varied).score);
    expect(
      (reliability(repeated).metadata.per_trace_signals as Record<string, { loop_risk: number }>).b!
        .loop_risk,
    ).toBe(1);
  });

  it('follows the sessions: thresholds, and reports without gating when failGate is false', async () => {
    const traces = [answer('3', 'rough'), looping('4', 'rough')];
    const reported = await run(traces, { sessions: { failGate: false } });
    expect(reported.gate.passed).toBe(true);
    expect(reported.sessions.some((s) => !s.passed)).toBe(true);
    expect(renderText(reported)).toContain('Sessions: 1 (1 below threshold)');
    const lenient = await run(traces, { sessions: { reliabilityThreshold: 0, consistencyThreshold: 0 } });
    expect(lenient.gate.passed).toBe(true);
    expect(lenient.sessions.every((s) => s.passed && s.metadata.threshold === 0)).toBe(true);
  });

  it('says which sessions: key was meant', () => {
    expect(() => parseConfig('sessions:\n  failgate: false\n', 'f.yml')).toThrow(
      'f.yml:2: unknown key "sessions.failgate" — did you mean "failGate"?',
    );
    expect(() => parseConfig('session:\n  failGate: false\n', 'f.yml')).toThrow(
      'f.yml:1: unknown key "session" — did you mean "sessions"?',
    );
    expect(() => parseConfig('sessions:\n  weights: { tool_corectness: 1 }\n', 'f.yml')).toThrow(
      'unknown key "sessions.weights.tool_corectness" — did you mean "tool_correctness"?',
    );
    expect(parseConfig('sessions:\n  consistencyThreshold: 0.7\n', 'f.yml').sessions).toEqual({
      reliabilityThreshold: 0.5,
      consistencyThreshold: 0.7,
      weights: { confidence: 1, loop_detection: 1, tool_correctness: 0.8, coherence: 1 },
      failGate: true,
    });
  });
});
