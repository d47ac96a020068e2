/**
 * Redaction's rule set is gitleaks' default configuration, pinned under vendor/gitleaks/ and
 * translated by scripts/write-secret-rules.mjs: the committed module is what the generator writes;
 * every rule of the set is either taken or left out with a reason; every branch taken hides an
 * example built from gitleaks' own regex, wherever it sits; and what those rules could mistake for
 * a credential in an ordinary trace (ids, hashes, UUIDs, model names, paths) is left alone.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedFromVendor, MODULE_PATH } from '../../scripts/write-secret-rules.mjs';
import { CREDENTIAL_PATTERNS } from '../../src/redact/credentialScan.js';
import {
  GITLEAKS_LEFT_OUT,
  GITLEAKS_PATTERNS,
  GITLEAKS_RULE_COUNT,
  GITLEAKS_SOURCE,
} from '../../src/redact/gitleaksRules.generated.js';
import { redact, redactLowercased, REDACTED } from '../../src/redact/redact.js';
import { gitleaksExamples } from '../helpers/gitleaksExamples.js';

const EXAMPLES = gitleaksExamples();

describe("gitleaks' rule set", () => {
  it('is the generator’s output from the pinned copy (run node scripts/write-secret-rules.mjs after changing either)', () => {
    expect(readFileSync(MODULE_PATH, 'utf8')).toBe(generatedFromVendor());
    expect(GITLEAKS_SOURCE.gitleaksVersion).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('accounts for every rule: taken (with at least one branch) or left out as a whole, with a reason', () => {
    const taken = new Set(GITLEAKS_PATTERNS.map((p) => p.id));
    const leftOutWhole = new Set(GITLEAKS_LEFT_OUT.filter((l) => l.branch === undefined).map((l) => l.id));
    expect(taken.size + leftOutWhole.size).toBe(GITLEAKS_RULE_COUNT);
    for (const id of leftOutWhole) expect(taken.has(id), id).toBe(false);
    for (const l of GITLEAKS_LEFT_OUT) expect(l.reason.length, l.id).toBeGreaterThan(30);
    // The rules the issue names by their prefixes are among those taken.
    for (const id of [
      'prefect-api-token',
      'pulumi-api-token',
      'rubygems-api-token',
      'openshift-user-token',
      'hashicorp-tf-api-token',
      'alibaba-access-key-id',
      'easypost-api-token',
      'flyio-access-token',
      'huggingface-organization-api-token',
      'grafana-api-key',
      'square-access-token',
      '1password-secret-key',
      'mailgun-signing-key',
      'telegram-bot-api-token',
      'microsoft-teams-webhook',
      'notion-api-token',
      'sendinblue-api-token',
    ])
      expect(taken.has(id), id).toBe(true);
    // Generic keyword + value rules stay with named values (they would take trace ids for keys).
    for (const id of ['generic-api-key', 'discord-api-token', 'heroku-api-key', 'sentry-access-token'])
      expect(leftOutWhole.has(id), id).toBe(true);
  });

  it('has an example of every branch taken, built from its own regex, which one of its anchors finds', () => {
    expect(EXAMPLES).toHaveLength(GITLEAKS_PATTERNS.length);
    EXAMPLES.forEach((e, i) => {
      const pattern = GITLEAKS_PATTERNS[i]!;
      expect(pattern.id).toBe(e.id);
      expect(new RegExp(pattern.pattern).test(e.text), `${e.id}: ${e.text}`).toBe(true);
      expect(
        pattern.anchors.some((a) => new RegExp(a).test(e.text)),
        `${e.id}: an anchor finds ${e.text}`,
      ).toBe(true);
    });
  });

  it.each(EXAMPLES.map((e) => [`${e.id}#${e.branch}`, e] as const))(
    'hides %s wherever it sits, and only once',
    (_name, { text, secret }) => {
      for (const planted of [
        `failed: ${text} was rejected`,
        `{"error": "bad ${text}"}`,
        `${text}.`,
        `(${text})`,
      ]) {
        const out = redact(planted);
        expect(out, planted).toContain(REDACTED);
        expect(out, planted).not.toContain(secret);
        expect(redact(out)).toBe(out);
      }
      expect(redactLowercased(`failed: ${text.toLowerCase()} x`)).not.toContain(secret.toLowerCase());
    },
  );

  it('anchors have no capturing group and patterns compile', () => {
    for (const p of CREDENTIAL_PATTERNS) {
      for (const a of p.anchors) expect(new RegExp(`${a}|`).exec('')!.length, `${p.id}: ${a}`).toBe(1);
      expect(() => new RegExp(p.pattern, 'd'), p.id).not.toThrow();
    }
  });
});

describe('ordinary trace content is not taken for a credential', () => {
  it.each([
    ['a W3C trace id and span id', 'traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    [
      'a git SHA near the word sourcegraph',
      'sourcegraph indexed commit e83c5163316f89bfbde7d9ab23ca2e25604af290',
    ],
    ['a SHA-256', 'sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 of the bundle'],
    [
      'a UUID after a service name',
      'heroku release 3f2b6c1e-9a4d-4c1b-8e7f-1a2b3c4d5e6f; kucoin order 1a2b3c4d-5e6f-4a1b-8c9d-0e1f2a3b4c5d',
    ],
    ['a request id', 'x-request-id: req_01HZX8Q3ER5TY7UI9OP1AS3DF5'],
    ['model names', 'gpt-4o-2024-08-06, claude-3-5-sonnet-20240620, gemini-1.5-pro-002, o3-mini'],
    ['file paths', '/home/ci/work/src/agents/checkout_handler.ts:42 and C:\\Users\\ci\\app\\main.py'],
    [
      'hex ids after a service name',
      'datadog trace 5f0e8c0b2a6d4e1f9b3c7a5d2e8f1c4b; discord message 112233445566778899',
    ],
    ['an ISO time and a duration', '2026-11-01T10:00:00.000Z took 1234 ms'],
    ['a URL with a user', 'ssh://git@github.com/acme/agent.git and mailto:ops@example.com'],
    ['npm and docker names', 'npm_config_cache=/tmp/npm docker.io/library/node:22-slim'],
    ['prose about keys', 'Rotate the API key in the dashboard; the Authorization header is required.'],
  ])('%s', (_name, text) => {
    expect(redact(text)).toBe(text);
  });
});
