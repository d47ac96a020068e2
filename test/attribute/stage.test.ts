/**
 * The attribute stage inside analyze(): a failed run gets `traces[].rootCause` and the report an
 * `attribution` tally; a successful run gets neither. In the gray zone, configured judges choose
 * among the candidate steps (real OpenAI SDK against a loopback server), their answers go to the
 * cassette and replay with no server; offline, the rules' answer stands.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { parseConfig } from '../../src/config/config.js';
import { closeAllCassettes } from '../../src/judge/cassette.js';
import { openaiReply, startFakeServer, type FakeServer } from '../judge/fakeServers.js';
import { makeTrace, llm } from '../helpers/traceBuilder.js';
import { tauBenchRun, whoAndWhenRun } from './fixtures.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  closeAllCassettes();
});

/** Only the prior names a step: the WebSurfer did most; the FileSurfer's one turn is what went wrong. */
const team = (question = 'What page number is the quote on?') =>
  whoAndWhenRun([
    ['human', question],
    ['Orchestrator (thought)', `Initial plan: ${question}`],
    ['Orchestrator (-> FileSurfer)', 'Open the PDF.'],
    ['FileSurfer', 'I could not read the file, so I assumed page 12.'],
    ['Orchestrator (-> WebSurfer)', 'Search for the quote.'],
    ['WebSurfer', 'I typed the quote into the search bar.'],
    ['Orchestrator (-> WebSurfer)', 'Open the first result.'],
    ['WebSurfer', 'I clicked the first result.'],
  ]);

const stateDir = () => mkdtempSync(path.join(tmpdir(), 'tj-attr-'));

describe('the attribute stage', () => {
  it('a failed run gets a root cause and the report a tally; a successful run neither', async () => {
    const failed = tauBenchRun(
      [
        { calls: [{ name: 'cancel_reservation', args: { reservation_id: 'WRONG' }, result: '{}' }] },
        { say: 'Done.' },
      ],
      [{ name: 'cancel_reservation', kwargs: { reservation_id: 'ZX9' } }],
    );
    const ok = makeTrace([llm()], { id: 'fine', outcome: { success: true, source: 'native outcome' } });
    const report = await analyze([failed, ok], {
      config: parseConfig(''),
      baselines: false,
      stateDir: stateDir(),
    });
    expect(report.traces[0]!.rootCause).toEqual({
      step: 2,
      agent: failed.agentId,
      rule: 'DEPARTS_FROM_EXPECTED',
      confidence: 0.8,
      evidence: 'it called cancel_reservation with another reservation_id than the task expected',
      symptoms: [],
      decidedBy: 'rules',
    });
    expect(report.traces[1]!.rootCause).toBeUndefined();
    expect(report.attribution).toEqual({
      failedRuns: 1,
      attributed: 1,
      agents: [{ agent: failed.agentId, causes: 1 }],
      rules: [{ rule: 'DEPARTS_FROM_EXPECTED', causes: 1 }],
    });
    const none = await analyze([ok], { config: parseConfig(''), baselines: false, stateDir: stateDir() });
    expect(none.attribution).toBeUndefined();
  });

  it('a failed run no rule explains is unattributed, and counted so', async () => {
    const failed = makeTrace([llm(), llm()], {
      id: 'f',
      outcome: { success: false, source: 'native outcome' },
    });
    const report = await analyze([failed], {
      config: parseConfig(''),
      baselines: false,
      stateDir: stateDir(),
    });
    expect(report.traces[0]!.rootCause).toEqual({
      unattributed: expect.stringMatching(/^no rule found a cause/),
    });
    expect(report.attribution).toMatchObject({ failedRuns: 1, attributed: 0, agents: [], rules: [] });
  });

  it('attribution.enabled: false names no root cause', async () => {
    const report = await analyze([team()], {
      config: parseConfig('attribution:\n  enabled: false\n'),
      baselines: false,
      stateDir: stateDir(),
    });
    expect(report.traces[0]!.rootCause).toBeUndefined();
    expect(report.attribution).toBeUndefined();
  });

  it('the root cause’s sentences are redacted like every text from a trace', async () => {
    const key = 'sk-proj-' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0';
    const failed = tauBenchRun(
      [{ calls: [{ name: 'lookup', args: {}, result: `Error: bad key ${key}` }] }, { say: 'Sorry.' }],
      [],
    );
    const report = await analyze([failed], {
      config: parseConfig(''),
      baselines: false,
      stateDir: stateDir(),
    });
    const cause = report.traces[0]!.rootCause as { evidence: string };
    expect(cause.evidence).toMatch(/^its lookup call failed \(Error: bad key /);
    expect(cause.evidence).not.toContain(key);
  });

  describe('the tribunal in the gray zone', () => {
    // The cassette is kept with the state (`<stateDir>/cassette.jsonl`): a config may not point outside the working directory.
    async function judges(mode: 'record' | 'replay', server?: FakeServer) {
      const url = server?.openaiBaseURL ?? 'http://127.0.0.1:9/v1';
      return parseConfig(`
tribunal:
  judges:
    - { provider: openai, model: gpt-4o, baseURL: "${url}", apiKey: test-key }
    - { provider: openai, model: gpt-4o-mini, baseURL: "${url}", apiKey: test-key }
    - { provider: openai, model: gpt-4.1, baseURL: "${url}", apiKey: test-key }
  judgeTimeoutMs: 4000
  cassette: { mode: ${mode} }
`);
    }

    it('judges choose among the candidates; their answers replay from the cassette', async () => {
      // The judges blame the step whose text says it assumed a page it could not read.
      const server = await startFakeServer((req) => {
        const prompt = JSON.stringify(req.body.messages);
        const blamed = prompt.includes('assumed page 12');
        return openaiReply(
          { score: blamed ? 0.9 : 0.1, confidence: 0.8, passed: blamed, reasoning: 'r' },
          req.model,
        );
      });
      servers.push(server);
      const dir = stateDir();
      const recorded = await analyze([team()], {
        config: await judges('record', server),
        baselines: false,
        stateDir: dir,
      });
      const cause = recorded.traces[0]!.rootCause;
      expect(cause).toMatchObject({
        step: 4,
        agent: 'FileSurfer',
        rule: 'BUSIEST_AGENT_PRIOR',
        decidedBy: 'tribunal',
        confidence: 0.9,
        tribunal: { score: 0.9, judges: 3, reasoning: 'r' },
        alternatives: [{ step: 6, agent: 'WebSurfer' }],
      });
      // Two candidates × three judges; the spend is the run's.
      expect(server.requests).toHaveLength(6);
      expect(recorded.cost.byModel?.['openai:gpt-4o']?.calls).toBe(2);

      await server.close();
      closeAllCassettes();
      const replayed = await analyze([team()], {
        config: await judges('replay'),
        baselines: false,
        stateDir: dir,
      });
      expect(replayed.traces[0]!.rootCause).toEqual(cause);
    });

    it('offline (a cassette without the answers), the rules’ answer stands', async () => {
      const dir = stateDir();
      // Another question than the test before: none of its answers is in this process's memory cache.
      const report = await analyze([team('On which page is the second quote?')], {
        config: await judges('replay'),
        baselines: false,
        stateDir: dir,
      });
      expect(report.traces[0]!.rootCause).toMatchObject({
        step: 6,
        agent: 'WebSurfer',
        rule: 'BUSIEST_AGENT_PRIOR',
        confidence: 0.3,
        decidedBy: 'rules',
      });
      // Attribution's misses are not the detectors' escalations: no judgesNotRun, no breaker note.
      expect(report.judgesNotRun).toBeUndefined();
      expect(report.notes.join('\n')).not.toMatch(/circuit breaker/);
    });
  });
});
