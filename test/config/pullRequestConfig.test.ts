/**
 * narrowToBase, the rule a pull request's tracejury.yml is held to (the Action's end-to-end tests
 * are test/action/pullRequestConfig.test.ts and distPullRequest.test.ts): both sides of each key.
 * Judges in routes as in `judges`, compared whole whatever the order their keys were written in;
 * the cassette mode narrowed, never widened; embeddings and the webhook the base branch's unless
 * the PR's equal them or are removed; every other key the PR's own.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/config.js';
import { narrowerMode, narrowToBase } from '../../src/config/pullRequestConfig.js';

const BASE = parseConfig(`
tribunal:
  judges:
    - { provider: openai, model: gpt-4o, baseURL: "https://judge.example/v1", apiKeyEnv: JUDGE_KEY }
  routes:
    high: { judges: [{ provider: anthropic, model: claude-sonnet-4-6 }] }
  cassette: { mode: auto }
embeddings: { model: text-embedding-3-small }
review:
  webhook: { url: "https://hooks.example/review" }
`);

describe('narrowToBase', () => {
  it('keeps what the base branch has, in any key order, and the PR’s own thresholds', () => {
    const head = parseConfig(`
default:
  tool_loop: { threshold: 7 }
tribunal:
  judges:
    - { apiKeyEnv: JUDGE_KEY, baseURL: "https://judge.example/v1", model: gpt-4o, provider: openai }
  routes:
    high: { judges: [{ model: claude-sonnet-4-6, provider: anthropic }] }
  threshold: 0.9
  cassette: { mode: replay }
embeddings: { model: text-embedding-3-small }
review:
  webhook: { url: "https://hooks.example/review" }
`);
    const { config, notes, judgesDropped } = narrowToBase(head, BASE);
    expect(notes).toEqual([]);
    expect(judgesDropped).toBe(false);
    expect(config.tribunal?.judges).toEqual(head.tribunal?.judges);
    expect(config.tribunal?.routes?.high?.judges).toHaveLength(1);
    expect(config.tribunal?.threshold).toBe(0.9);
    // Narrower than the base branch's auto: the PR's replay stands.
    expect(config.tribunal?.cassette.mode).toBe('replay');
    expect(config.sections.default).toEqual({ tool_loop: { threshold: 7 } });
    expect(config.embeddings).toEqual(BASE.embeddings);
    expect(config.review).toEqual(BASE.review);
  });

  it('drops judges the base branch lacks (a route left empty goes), widens nothing, and takes the base branch’s endpoints', () => {
    const head = parseConfig(`
tribunal:
  judges:
    - { provider: openai, model: gpt-4o, baseURL: "https://judge.example/v1", apiKeyEnv: OPENAI_API_KEY }
  routes:
    high: { judges: [{ provider: anthropic, model: claude-sonnet-4-6, baseURL: "http://attacker.example" }] }
  cassette: { mode: record }
embeddings: { model: text-embedding-3-small, baseURL: "http://attacker.example/v1" }
review:
  webhook: { url: "https://hooks.example/review", headers: { x-forward-to: attacker } }
`);
    const { config, notes, judgesDropped } = narrowToBase(head, BASE);
    expect(judgesDropped).toBe(true);
    expect(config.tribunal?.judges).toEqual([]);
    expect(config.tribunal?.routes).toEqual({});
    expect(config.tribunal?.cassette.mode).toBe('auto');
    expect(config.embeddings).toEqual(BASE.embeddings);
    expect(config.review).toEqual(BASE.review);
    expect(notes).toHaveLength(5);
    expect(notes).toContain(
      "tracejury.yml: tribunal.judges[0] (openai gpt-4o at https://judge.example/v1 with $OPENAI_API_KEY) is not a judge of the base branch's config: dropped for this pull request (a pull request may remove a judge, not add or change one)",
    );
  });

  it('without a base config allows nothing: no judge, replay only, no endpoint, no webhook', () => {
    const { config } = narrowToBase(BASE, undefined);
    expect(config.tribunal?.judges).toEqual([]);
    expect(config.tribunal?.cassette.mode).toBe('replay');
    expect(config.embeddings).toBeUndefined();
    expect(config.review).toBeUndefined();
  });

  it('a PR that removes embeddings or the webhook keeps them removed', () => {
    const { config, notes } = narrowToBase(parseConfig('failOn: high\n'), BASE);
    expect(config.embeddings).toBeUndefined();
    expect(config.review).toBeUndefined();
    expect(config.tribunal).toBeUndefined();
    expect(notes).toEqual([]);
  });

  it('orders cassette modes from replay to record', () => {
    expect(narrowerMode('record', 'auto')).toBe('auto');
    expect(narrowerMode('auto', 'replay')).toBe('replay');
    expect(narrowerMode('replay', 'record')).toBe('replay');
  });
});
