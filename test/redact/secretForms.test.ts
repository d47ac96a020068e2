import { describe, expect, it } from 'vitest';
import { redact, REDACTED } from '../../src/redact/redact.js';
import { SECRET_FORMS } from '../../src/redact/secretForms.js';
import { FORM_EXAMPLES, NAMED_EXAMPLES } from '../helpers/credentials.js';

describe("tracejury's own credential forms", () => {
  it('has a realistic example of every form, which one of its anchors finds', () => {
    for (const form of SECRET_FORMS) {
      const example = FORM_EXAMPLES[form.id];
      expect(example, `an example of ${form.id} in test/helpers/credentials.ts`).toBeDefined();
      expect(
        form.anchors.some((a) => new RegExp(a).test(example!)),
        `${form.id}: an anchor finds the example`,
      ).toBe(true);
    }
    expect(Object.keys(FORM_EXAMPLES).sort()).toEqual(SECRET_FORMS.map((f) => f.id).sort());
  });

  it.each(Object.entries(FORM_EXAMPLES))('hides a %s wherever it sits in a line', (_name, example) => {
    for (const text of [
      `request failed: ${example} was rejected`,
      `{"error": "bad credential ${example}"}`,
      `${example}`,
      `(${example})`,
    ]) {
      const out = redact(text);
      expect(out).toContain(REDACTED);
      for (let i = 0; i + 12 <= example.length; i += 6) {
        const piece = example.slice(i, i + 12);
        if (/^[A-Za-z0-9_-]{12}$/.test(piece) && !/^[a-z]+$/.test(piece))
          expect(out, `${text} → ${out}`).not.toContain(piece);
      }
    }
  });

  it.each(NAMED_EXAMPLES)('hides the value a name announces: $name', ({ text, secret }) => {
    const out = redact(text);
    expect(out).toContain(REDACTED);
    expect(out).not.toContain(secret);
  });

  it('leaves ordinary text alone', () => {
    for (const text of [
      'sort_key=name and cache key 7f3a',
      'max_tokens=512, token_count: 90, the token budget was exceeded',
      'trace 4bf92f3577b34da6a3ce929d0e0e4736 span 00f067aa0ba902b7',
      'task-1234 failed on disk-usage-check; SKU-123 out of stock',
      'a key-value store; the keyboard; session 7 of 9',
      'AccountName=acct;EndpointSuffix=core.windows.net',
      'https://api.example.com/v1/search?q=paris&limit=10',
      'the password field is required',
      'Set GITHUB_TOKEN in the workflow',
      'bypass the cache; the compass points north; oauth is enabled',
      'git clone https://git@github.com/acme/agent.git',
      'mysql -u root -p -h db.internal',
    ])
      expect(redact(text)).toBe(text);
  });
});
