import { describe, expect, it } from 'vitest';
import { escapeMarkdown } from '../../src/report/markdownEscape.js';
import { redact } from '../../src/report/redact.js';

describe('redact', () => {
  it.each([
    ['OpenAI key', 'using sk-proj-abcdefghijklmnopqrstuvwxyz0123 now', 'using [REDACTED] now'],
    ['Anthropic key', 'key sk-ant-api03-abcdefghijklmnopqrstuv', 'key [REDACTED]'],
    ['GitHub token', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', '[REDACTED]'],
    ['AWS key id', 'AKIAIOSFODNN7EXAMPLE', '[REDACTED]'],
    ['bearer header', 'Authorization: Bearer abc.def.ghi-123456', 'Authorization: [REDACTED]'],
    ['json api_key', '{"api_key": "s3cr3t-value-123"}', '{"api_key": "[REDACTED]"}'],
    ['password=', 'login password=hunter22hunter', 'login password=[REDACTED]'],
  ])('hides a %s', (_name, input, want) => {
    expect(redact(input)).toBe(want);
  });

  it('leaves ordinary text alone', () => {
    const text = 'search_docs called 4× in 5 tool calls (steps 3–9); the password reset page was useful';
    expect(redact(text)).toBe(text);
  });
});

describe('escapeMarkdown', () => {
  it('neutralises formatting, HTML, links, tables and mentions from trace content', () => {
    const out = escapeMarkdown('**bold** <img src=x onerror=alert(1)> [a](http://x) | @octocat');
    expect(out).not.toMatch(/<img/);
    expect(out).not.toContain('**');
    expect(out).not.toContain('@octocat');
    expect(out).toContain('\\|');
    expect(out).toContain('\\[a\\]');
  });

  it('clips long text and folds newlines', () => {
    const out = escapeMarkdown('line one\nline two ' + 'x'.repeat(500), 50);
    expect(out).not.toContain('\n');
    expect(out.endsWith('…')).toBe(true);
  });
});
