/**
 * toPassTribunal and toMeetSessionThreshold in a real Vitest run: verdicts recorded once from
 * judges reached through the real OpenAI and Anthropic SDKs (a loopback server speaking their wire
 * formats), then replayed from the cassette with no server and no API key, as CI does; a case the
 * cassette does not hold is INDETERMINATE and fails, negated or not; each judge's score and
 * reasoning are in the message; session scores reach the report.
 */
import { existsSync, readFileSync } from 'node:fs';
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
    '',
  ].join('\n');
}

describe('tribunal and session matchers in a real Vitest run', () => {
  let server: FakeServer | undefined;
  afterAll(async () => server?.close());

  it('records verdicts once, replays them with no key and no server, and fails what it cannot judge', async () => {
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
      'vitest.config.ts': configWith("{ cassette: 'record' }"),
      'tracejury.yml': tribunalConfig(server.openaiBaseURL, server.anthropicBaseURL),
      'traces/clean-a.json': nativeTrace('clean-1', 1),
      'traces/clean-b.json': nativeTrace('clean-2', 1),
      'traces/looping.json': nativeTrace('loop-1', 6),
      'evals.test.ts': EVALS,
    });
    const recorded = await project.run([], {
      env: { OPENAI_API_KEY: 'test-key', ANTHROPIC_API_KEY: 'test-key' },
    });
    expect(recorded.output).toMatch(/Tests\s+2 failed \| 3 passed/);
    expect(server.requests.length).toBeGreaterThanOrEqual(9); // 3 judges × 3 distinct responses
    expect(existsSync(path.join(project.dir, '.tracejury/cassette.jsonl'))).toBe(true);
    expect(recorded.output).toMatch(/expected the tribunal to pass the response: score 0\.20/);
    expect(recorded.output).toMatch(/openai:gpt-4o: score 0\.20, fail — refuses a question it could answer/);
    expect(recorded.output).toMatch(/meet its thresholds: agent_reliability 0\.\d\d < 0\.99/);

    await server.close();
    server = undefined;
    project.write('vitest.config.ts', configWith("{ cassette: 'replay' }"));
    const env = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' };
    const replayed = await project.run([], { env });
    expect(replayed.output).toMatch(/Tests\s+2 failed \| 3 passed/);
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
    expect(report.sessions.map((s: { metric: string }) => s.metric)).toEqual(
      expect.arrayContaining(['agent_reliability', 'agent_consistency']),
    );

    project.write('unseen.test.ts', UNSEEN);
    const unseen = await project.run(['unseen.test.ts'], { env });
    expect(unseen.output).toMatch(/Tests\s+2 failed/);
    expect(unseen.output).toMatch(/INDETERMINATE/);
    expect(unseen.output).toMatch(/no cassette entry/);
    expect(readFileSync(path.join(project.dir, '.tracejury/report.json'), 'utf8')).toContain(
      '"indeterminate": true',
    );
  }, 240_000);
});
