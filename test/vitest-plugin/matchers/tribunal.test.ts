/**
 * toPassTribunal and toMeetSessionThreshold in a real Vitest run: verdicts recorded from judges
 * reached through the real OpenAI and Anthropic SDKs (a loopback server speaking their wire
 * formats) by `TRACEJURY_CASSETTE=record`, with two test files (two workers) writing one cassette;
 * recorded again, the file is the same bytes; then replayed with no API key and the judges pointed
 * at a trap that must stay unasked, as CI does; a case the cassette does not hold is INDETERMINATE
 * and fails, negated or not, with the command that records it; each judge's score and reasoning
 * are in the message, and a replayed verdict says so there and in the report; each cassette line
 * names the test and rubric it decides; session scores reach the report.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  anthropicReply,
  byModel,
  openaiReply,
  startFakeServer,
  type FakeServer,
} from '../../judge/fakeServers.js';
import { configWith, createProject, nativeTrace } from '../../helpers/vitestProject.js';

const EVALS = `
import { expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
const trace = JSON.parse(readFileSync('traces/clean-a.json', 'utf8'));

test('the answer is judged helpful', async () => {
  await expect(trace).toPassTribunal({ rubric: 'helpfulness' });
});

test('a bad answer is judged so', async () => {
  await expect('I cannot help with that.').not.toPassTribunal({ rubric: 'helpfulness' });
});

test('a bad answer passes (fails on purpose)', async () => {
  await expect('I cannot help with that.').toPassTribunal({ rubric: 'helpfulness' });
});

test('the session is reliable', async () => {
  await expect('traces/clean-*.json').toMeetSessionThreshold({ reliability: 0.9, consistency: 0.9 });
});

test('the session is very reliable (fails on purpose)', async () => {
  await expect(['traces/clean-a.json', 'traces/looping.json']).toMeetSessionThreshold({ reliability: 0.99 });
});
`;

const MORE = `
import { expect, test } from 'vitest';
test('another answer, judged in another worker', async () => {
  await expect('It is sunny in Paris today.').toPassTribunal({ rubric: 'helpfulness' });
});
test('one more, against a built-in rubric', async () => {
  await expect('It is sunny in Paris today.').toPassTribunal({ rubric: 'task_completion' });
});
`;

const UNSEEN = `
import { expect, test } from 'vitest';
test('an answer the cassette never saw', async () => {
  await expect('Something nobody recorded.').toPassTribunal({ rubric: 'helpfulness' });
});
test('an answer the cassette never saw, negated', async () => {
  await expect('Something nobody recorded.').not.toPassTribunal({ rubric: 'helpfulness' });
});
`;

function tribunalConfig(baseURL: string, anthropicURL: string): string {
  return [
    'tribunal:',
    '  judges:',
    `    - { provider: openai, model: gpt-4o, baseURL: "${baseURL}" }`,
    `    - { provider: anthropic, model: claude-sonnet-4-6, baseURL: "${anthropicURL}" }`,
    `    - { provider: openai, model: gpt-4.1, baseURL: "${baseURL}" }`,
    '  threshold: 0.7',
    '  rubrics:',
    '    helpfulness: The answer helps the user with what they asked, directly.',
    '',
  ].join('\n');
}

describe('tribunal and session matchers in a real Vitest run', () => {
  let server: FakeServer | undefined;
  afterAll(async () => server?.close());

  it('records with TRACEJURY_CASSETTE, records again to the same bytes, replays with no key past a trap, and fails a miss with the command that records it', async () => {
    const bad = (text: string) => text.includes('I cannot help');
    const judge =
      (model: string, reply: typeof openaiReply | typeof anthropicReply) => (req: { body: unknown }) => {
        const refused = bad(JSON.stringify(req.body));
        return reply(
          refused
            ? { score: 0.2, confidence: 0.9, passed: false, reasoning: 'refuses a question it could answer' }
            : {
                score: 0.9,
                confidence: 0.9,
                passed: true,
                reasoning: 'answers the weather question directly',
              },
          model,
        );
      };
    server = await startFakeServer((req, nth) =>
      byModel({
        'gpt-4o': () => judge('gpt-4o', openaiReply)(req),
        'gpt-4.1': () => judge('gpt-4.1', openaiReply)(req),
        'claude-sonnet-4-6': () => judge('claude-sonnet-4-6', anthropicReply)(req),
      })(req, nth),
    );
    const project = createProject({
      'vitest.config.ts': configWith(),
      'tracejury.yml': tribunalConfig(server.openaiBaseURL, server.anthropicBaseURL),
      'traces/clean-a.json': nativeTrace('clean-1', 1),
      'traces/clean-b.json': nativeTrace('clean-2', 1),
      'traces/looping.json': nativeTrace('loop-1', 6),
      'evals.test.ts': EVALS,
      'more.test.ts': MORE,
    });
    const cassette = path.join(project.dir, '.tracejury/cassette.jsonl');
    // Recording is one command: the variable, over the config's mode (auto here), no plugin option.
    const keys = { OPENAI_API_KEY: 'test-key', ANTHROPIC_API_KEY: 'test-key', TRACEJURY_CASSETTE: 'record' };
    const recorded = await project.run([], { env: keys });
    expect(recorded.output).toMatch(/Tests\s+2 failed \| 5 passed/);
    // record mode asks every judge at every call: 3 judges × 5 calls, of 4 distinct (response, rubric) pairs.
    expect(server.requests.length).toBe(15);
    expect(recorded.output).toMatch(/expected the tribunal to pass the response: score 0\.20/);
    expect(recorded.output).toMatch(/openai:gpt-4o: score 0\.20, fail — refuses a question it could answer/);
    expect(recorded.output).toMatch(/meet its thresholds: agent_reliability 0\.\d\d < 0\.99/);
    const first = readFileSync(cassette, 'utf8');
    const keysOnFile = first
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).key as string);
    expect(keysOnFile).toHaveLength(12); // one line per key: 3 judges × 4 pairs
    expect(keysOnFile).toEqual([...new Set(keysOnFile)].sort());
    // Reviewable: each line names, beside its hash, the test and rubric it decides and the judge.
    const lines = first
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const line of lines) {
      expect(Object.keys(line).slice(0, 6)).toEqual(
        line.traceId === undefined
          ? ['key', 'name', 'rubric', 'provider', 'model', 'answer']
          : ['key', 'traceId', 'name', 'rubric', 'provider', 'model'],
      );
      expect(line.name).toMatch(/^(evals|more)\.test\.ts > /);
      expect(['helpfulness', 'task_completion']).toContain(line.rubric);
    }
    expect(lines.filter((l) => l.traceId === 'clean-1').map((l) => l.name)).toEqual([
      'evals.test.ts > the answer is judged helpful',
      'evals.test.ts > the answer is judged helpful',
      'evals.test.ts > the answer is judged helpful',
    ]);
    // Asked live: nothing says replayed.
    expect(recorded.output).not.toContain('replayed');

    // Recorded again (every judge called again, the same answers): the file does not change.
    const again = await project.run([], { env: keys });
    expect(again.output).toMatch(/Tests\s+2 failed \| 5 passed/);
    expect(server.requests.length).toBe(30);
    expect(readFileSync(cassette, 'utf8')).toBe(first);

    // Replayed as CI does: no key, and the judges' URLs point at a trap that must stay unasked.
    await server.close();
    server = undefined;
    const trap = await startFakeServer(() => ({ status: 500, body: { error: { message: 'trap' } } }));
    project.write('tracejury.yml', tribunalConfig(trap.openaiBaseURL, trap.anthropicBaseURL));
    const env = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', TRACEJURY_CASSETTE: 'replay' };
    const replayed = await project.run([], { env });
    await trap.close();
    expect(trap.requests).toEqual([]);
    expect(replayed.output).toMatch(/Tests\s+2 failed \| 5 passed/);
    expect(readFileSync(cassette, 'utf8')).toBe(first);
    // The failure message says the verdict was replayed, and which answers were.
    expect(replayed.output).toMatch(
      /expected the tribunal to pass the response: score 0\.20 .*, replayed from the cassette\n/,
    );
    expect(replayed.output).toMatch(/openai:gpt-4o \(replayed\): score 0\.20, fail — refuses/);
    const report = project.readReport();
    const judged = report.verdicts.filter(
      (v: { test: string }) => v.test === 'evals.test.ts > the answer is judged helpful',
    );
    expect(judged).toHaveLength(1);
    expect(judged[0]).toMatchObject({ passed: true, indeterminate: false, traceId: 'clean-1' });
    expect(judged[0].judges.map((j: { model: string }) => j.model).sort()).toEqual([
      'claude-sonnet-4-6',
      'gpt-4.1',
      'gpt-4o',
    ]);
    expect(judged[0].judges.every((j: { cached?: boolean }) => j.cached)).toBe(true);
    expect(judged[0].replayed).toBe(true);
    expect(judged[0].judges.every((j: { replayed?: boolean }) => j.replayed)).toBe(true);
    expect(report.sessions.map((s: { metric: string }) => s.metric)).toEqual(
      expect.arrayContaining(['agent_reliability', 'agent_consistency']),
    );

    // A miss: INDETERMINATE, failing negated or not, each judge's line whole with the command that records it.
    project.write('unseen.test.ts', UNSEEN);
    const unseen = await project.run(['unseen.test.ts'], { env });
    expect(unseen.output).toMatch(/Tests\s+2 failed/);
    expect(unseen.output).toContain(
      'expected the tribunal to pass the response: INDETERMINATE (fail-closed): 3 of 3 judges could not judge',
    );
    expect(unseen.output).not.toContain('INDETERMINATE: INDETERMINATE');
    for (const [provider, model, keyEnv] of [
      ['openai', 'gpt-4o', 'OPENAI_API_KEY'],
      ['anthropic', 'claude-sonnet-4-6', 'ANTHROPIC_API_KEY'],
    ] as const)
      expect(unseen.output).toContain(
        `  - ${provider}:${model}: no cassette entry for ${model} (${provider}) in .tracejury/cassette.jsonl (replay mode); record it with ${keyEnv} set: TRACEJURY_CASSETTE=record npx vitest run unseen.test.ts`,
      );
    expect(readFileSync(path.join(project.dir, '.tracejury/report.json'), 'utf8')).toContain(
      '"indeterminate": true',
    );
  }, 240_000);
});
