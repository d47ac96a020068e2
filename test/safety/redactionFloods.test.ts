/**
 * No credential pattern can be made to backtrack: every pattern redaction runs (each branch taken
 * from gitleaks' set and each of tracejury's own forms, and the named values) completes on 1 MiB
 * of what is most likely to make it try hard — its anchor and its example cut short by one
 * character, repeated glued, and its example's last character repeated after it (for a named
 * value: the name and separator repeated, and so on).
 * A pattern that were quadratic would take minutes here; linear ones take milliseconds.
 */
import { describe, expect, it } from 'vitest';
import { CREDENTIAL_PATTERNS } from '../../src/redact/credentialScan.js';
import { GITLEAKS_PATTERNS } from '../../src/redact/gitleaksRules.generated.js';
import { redact, redactDeep, redactLowercased } from '../../src/redact/redact.js';
import { FORM_EXAMPLES, NAMED_EXAMPLES } from '../helpers/credentials.js';
import { gitleaksExamples } from '../helpers/gitleaksExamples.js';

const MIB = 1 << 20;
const fill = (unit: string) => unit.repeat(Math.ceil(MIB / Math.max(1, unit.length))).slice(0, MIB);

const GITLEAKS = gitleaksExamples();
const examples = CREDENTIAL_PATTERNS.map((p) => {
  const i = GITLEAKS_PATTERNS.indexOf(p);
  return { pattern: p, example: i >= 0 ? GITLEAKS[i]!.text : FORM_EXAMPLES[p.id]! };
});

describe('1 MiB floods of every credential pattern complete', () => {
  it.each(examples.map((e) => [`${e.pattern.id}`, e] as const))('%s', (_id, { pattern, example }) => {
    const anchorText = pattern.anchors.map((a) => new RegExp(a).exec(example)?.[0]).find(Boolean) ?? example;
    const cut = example.slice(0, -1);
    // The anchor and the near-miss glued, repeated: each start of the pattern runs into the next.
    for (const flood of [fill(`${anchorText}${cut}`), example + fill(example.slice(-1))])
      expect(redact(flood).length).toBeGreaterThan(0);
  });

  it.each(NAMED_EXAMPLES.map((e) => [e.name, e] as const))('named value: %s', (_name, { text, secret }) => {
    const head = text.slice(0, text.indexOf(secret));
    for (const flood of [fill(head), fill(text.slice(0, -1)), head + fill(secret.slice(-1))])
      expect(redact(flood).length).toBeGreaterThan(0);
  });

  it('the any-case scan (prompt-injection excerpts) on every near-miss at once, lower-cased', () => {
    const all = examples.map((e) => e.example.slice(0, -1).toLowerCase()).join(' ');
    expect(redactLowercased(fill(`${all} `)).length).toBeGreaterThan(0);
  });

  it('a structured flood: a 1 MiB array of key lines after a BEGIN line, and 100,000 header pairs', () => {
    const pem = [
      '-----BEGIN RSA PRIVATE KEY-----',
      ...Array.from({ length: 20_000 }, () => 'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm'),
    ];
    expect(redactDeep(pem).every((l) => l === '[REDACTED]')).toBe(true);
    const headers = Array.from({ length: 100_000 }, (_, i) => ['Authorization', `Bearer t${i}`]);
    expect(redactDeep(headers)[99_999]).toEqual(['Authorization', '[REDACTED]']);
  });
});
