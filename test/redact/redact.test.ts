import { describe, expect, it } from 'vitest';
import { redact, redactDeep, REDACTED } from '../../src/redact/redact.js';
import { redactAndCut } from '../../src/redact/safeText.js';

describe('redact', () => {
  it.each([
    ['OpenAI key', 'using sk-proj-abcdefghijklmnopqrstuvwxyz0123 now', 'using [REDACTED] now'],
    ['Anthropic key', 'key sk-ant-api03-abcdefghijklmnopqrstuv', 'key [REDACTED]'],
    ['GitHub token', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', '[REDACTED]'],
    ['AWS key id', 'AKIAZ7QK3M5N2P2R4T6W', '[REDACTED]'],
    ['bearer header', 'Authorization: Bearer abc.def.ghi-123456', 'Authorization: [REDACTED]'],
    ['json api_key', '{"api_key": "s3cr3t-value-123"}', '{"api_key": "[REDACTED]"}'],
    ['password=', 'login password=hunter22hunter', 'login password=[REDACTED]'],
  ])('hides a %s', (_name, input, want) => {
    expect(redact(input)).toBe(want);
  });

  it.each([
    [
      'uppercase env name',
      'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'AWS_SECRET_ACCESS_KEY=[REDACTED]',
    ],
    [
      'lowercase env name, spaced',
      'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG',
      'aws_secret_access_key = [REDACTED]',
    ],
    ['prefixed password', 'export DB_PASSWORD=s3cret!', 'export DB_PASSWORD=[REDACTED]'],
    ['camelCase password', 'dbPassword=s3cret!', 'dbPassword=[REDACTED]'],
    ['secret_key', 'secret_key: a1b2c3', 'secret_key: [REDACTED]'],
    ['private_key, quoted with spaces', "private_key: 'ab cd ef'", "private_key: '[REDACTED]'"],
    ['x-api-key header', 'x-api-key: abc123', 'x-api-key: [REDACTED]'],
    ['basic auth header', 'Authorization: Basic dXNlcjpwYXNzd29yZA==', 'Authorization: [REDACTED]'],
    [
      'URL credentials',
      'GET https://user:supersecretpw@api.example.com/v1',
      'GET https://user:[REDACTED]@api.example.com/v1',
    ],
    [
      'URL credentials with @ in the password',
      'postgres://app:p@ss@db:5432/x',
      'postgres://app:[REDACTED]@db:5432/x',
    ],
    ['token=', 'token=abcdef1234567890abcdef', 'token=[REDACTED]'],
    ['Stripe live key', 'stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'stripe [REDACTED]'],
    ['Stripe restricted key', 'rk_live_4eC39HqLyjWDarjtT1zdp7dc', '[REDACTED]'],
    ['Stripe test key', 'sk_test_4eC39HqLyjWDarjtT1zdp7dc', '[REDACTED]'],
    ['GitLab token', 'glpat-aB3dE5fG7hI9jK1lM3nO', '[REDACTED]'],
    ['Hugging Face token', 'hf_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3x', '[REDACTED]'],
    ['short password with =', 'password=hunter2', 'password=[REDACTED]'],
    ['short password with :', '"password": "pw"', '"password": "[REDACTED]"'],
    ['JSON inside a JSON string', '{\\"password\\":\\"hunter2\\"}', '{\\"password\\":\\"[REDACTED]\\"}'],
    ['spaced password that looks like one', 'password hunter22', 'password [REDACTED]'],
    [
      'private key cut before its END line',
      'key: -----BEGIN RSA PRIVATE KEY-----\nMIIEow',
      'key: [REDACTED]',
    ],
  ])('hides %s', (_name, input, want) => {
    expect(redact(input)).toBe(want);
  });

  it.each([
    'the password field is required',
    'the password reset page was useful',
    'token count: 1,234',
    'token consumption rose after step 4',
    'secret sauce',
    'max_tokens=512',
    'prompt grew 4.1× from 1,204 tokens (step 2) to 4,950 tokens (step 14)',
    'gpt-4o-mini',
    'claude-3-5-sonnet-20240620',
    '/home/ci/work/src/agents/checkout_handler.ts',
    'request 3f2b6c1e-9a4d-4c1b-8e7f-1a2b3c4d5e6f',
    '2026-11-01T10:00:00.000Z',
    'keyboard shortcuts; the cache key was stale',
    'GET https://api.example.com:8443/v1/orders?id=7 returned 503',
    'search_docs called 4× in 5 tool calls (steps 3–9)',
  ])('leaves ordinary text alone: %s', (text) => {
    expect(redact(text)).toBe(text);
  });

  it("keeps what gitleaks' own rule allows: AWS's documentation key, the example every tutorial shows", () => {
    expect(redact('aws_access_key_id AKIAIOSFODNN7EXAMPLE')).toBe('aws_access_key_id AKIAIOSFODNN7EXAMPLE');
    expect(redact('key id AKIAZ7QK3M5N2P2R4T6W')).toBe('key id [REDACTED]');
  });

  it('is idempotent: redacting twice is redacting once', () => {
    const mixed = [
      'Authorization: Bearer sk-proj-abcdefghijklmnopqrstuvwxyz0123 and https://u:pw@h/x',
      '{"api_key": "s3cr3t value", "token": "ghp_abcdefghijklmnopqrstuvwxyz0123456789"}',
      'DB_PASSWORD=hunter2; Authorization: Basic dXNl; postgres://app:p@ss@db/x',
    ];
    for (const text of mixed) {
      const once = redact(text);
      expect(once).toContain(REDACTED);
      expect(redact(once)).toBe(once);
    }
  });
});

describe('redactDeep', () => {
  it('redacts strings at any depth and the values of keys named like credentials', () => {
    const out = redactDeep({
      lastError: 'auth failed for ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      args: [{ url: 'https://u:pw12345@h/x', password: 'hunter2', apiKey: 'abc', tokens: 'many' }],
    });
    expect(out).toEqual({
      lastError: 'auth failed for [REDACTED]',
      args: [{ url: 'https://u:[REDACTED]@h/x', password: REDACTED, apiKey: REDACTED, tokens: 'many' }],
    });
  });

  it('returns the very same object when nothing needs hiding, and does not touch its input', () => {
    const clean = {
      tool: 'search_docs',
      failures: 3,
      nested: { steps: [1, 2], prompt: 'Validate user login' },
    };
    expect(redactDeep(clean)).toBe(clean);
    const dirty = { tool: 'x', nested: { clean: { a: 1 }, error: 'token=abc123' } };
    const out = redactDeep(dirty);
    expect(out.nested.error).toBe('token=[REDACTED]');
    expect(out.nested.clean).toBe(dirty.nested.clean);
    expect(dirty.nested.error).toBe('token=abc123');
  });
});

describe('redactAndCut', () => {
  it('never leaves the prefix of a secret that straddles the cut', () => {
    const text = 'x'.repeat(100) + ' ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5z';
    expect(redactAndCut(text, 120)).toBe(`${'x'.repeat(100)} [REDACTED]`);
    expect(redactAndCut(text, 51)).toBe(`${'x'.repeat(50)}…`);
  });
});
