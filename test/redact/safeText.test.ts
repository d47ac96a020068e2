import { describe, expect, it } from 'vitest';
import { htmlText, scriptJson } from '../../src/redact/html.js';
import { cutMarkdown, Markdown, safeMd, mdCode, mdLink, mdText } from '../../src/redact/markdown.js';
import {
  commandLineGuard,
  quoted,
  redactAndCut,
  safeWriter,
  terminalOutput,
  terminalText,
} from '../../src/redact/safeText.js';

const KEY = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123';

describe('the one path: redact, then cut, then encode', () => {
  it('redacts before it cuts, so a cut through a key leaves none of it', () => {
    const text = `error: ${KEY} rejected`;
    for (const max of [10, 14, 20, 30]) {
      expect(redactAndCut(text, max)).not.toContain('sk-proj');
      expect(terminalText(text, max)).not.toContain('sk-proj');
      expect(mdText(text, max).source).not.toContain('sk\\-proj');
    }
  });

  it('never splits a surrogate pair when it cuts', () => {
    const cut = redactAndCut('ab🚀cd', 3);
    expect(cut).toBe('ab…');
    expect(redactAndCut('a🚀', 2)).toBe('a…');
  });
});

describe('terminal', () => {
  it('leaves ordinary text, including non-Latin scripts and emoji, as it is', () => {
    const text = 'search_docs failed 3× (steps 2–6): “timeout” — 東京 🚀 C:\\temp';
    expect(terminalText(text)).toBe(text);
  });

  it('shows tab, DEL, C1, ESC and the line separators as escapes', () => {
    expect(terminalText('a\tb\x7fc\x9bd\u2028e\x1b[2J')).toBe('a\\tb\\x7fc\\x9bd\\u{2028}e\\x1b[2J');
  });

  it('lets the writer keep colour codes and the progress line, and shows every other control', () => {
    expect(terminalOutput('\x1b[1mbold\x1b[22m\n')).toBe('\x1b[1mbold\x1b[22m\n');
    expect(terminalOutput('\r\x1b[2Kreading')).toBe('\r\x1b[2Kreading');
    expect(terminalOutput('a\x1b[2Jb\rc\x1b]0;t\x07')).toBe('a\\x1b[2Jb\\rc\\x1b]0;t\\x07');
  });
});

describe('workflow command lines', () => {
  it('neutralises a line that starts with :: or ##[ (after any whitespace), wherever it is', () => {
    const guard = commandLineGuard();
    expect(guard('::add-mask::x\nok ::error::y\n  ::stop-commands::t\r##[set-output name=a;]b\n')).toBe(
      '\\::add-mask::x\nok ::error::y\n  \\::stop-commands::t\r\\##[set-output name=a;]b\n',
    );
  });

  it('knows where a line starts across writes', () => {
    const guard = commandLineGuard();
    expect(guard('agent ')).toBe('agent ');
    expect(guard('::error::mid-line is no command\n')).toBe('::error::mid-line is no command\n');
    expect(guard('  ')).toBe('  ');
    expect(guard('::error::x\n')).toBe('\\::error::x\n');
    // An opener split over two writes: its first half is escaped before the second arrives.
    expect(guard(':')).toBe('\\:');
    expect(guard(':error::x\n')).toBe(':error::x\n');
  });

  it('wraps a stream once: control characters shown, commands neutralised, other properties kept', () => {
    let out = '';
    const stream = safeWriter({ write: (s: string) => (out += s), isTTY: true });
    stream.write('\x1b[31mred\x1b[39m\n::add-mask::\x1b[2J\n');
    expect(out).toBe('\x1b[31mred\x1b[39m\n\\::add-mask::\\x1b[2J\n');
    expect(stream.isTTY).toBe(true);
  });
});

describe('quoted values in messages', () => {
  it('cuts, redacts and quotes a value, so a huge or hostile scalar is shown short and inert', () => {
    const huge = 'x'.repeat(50 * 1024 * 1024);
    expect(quoted(huge).length).toBeLessThan(100);
    expect(quoted(`${KEY}\n\x1b[2J\u202e`)).toBe('"[REDACTED]\\n\\u001b[2J\\u{202e}"');
  });
});

describe('markdown', () => {
  const hostile = [
    '<img src=https://x>',
    '@octocat',
    '</details>',
    '<!-- tracejury:default -->',
    '\x1b[2J',
    '\nGate: passed',
    '| a | b |',
    '`code`',
    '[link](http://x)',
    '**bold** _em_ ~~s~~',
    'https://evil.example/x www.evil.example',
    '#123',
  ].join(' ');

  it('neutralises HTML, mentions, references, links, autolinks, tables, code and emphasis', () => {
    const out = mdText(hostile, 1000).source;
    expect(out).not.toMatch(/<[A-Za-z/!]/);
    expect(out).not.toMatch(/@[A-Za-z0-9]/);
    expect(out).not.toMatch(/#[0-9]/);
    expect(out).not.toMatch(/(^|[^\\])[|`*_~[\]]/);
    expect(out).not.toMatch(/[^\\]:\/\/|www\./);
    expect(out).not.toContain('\n');
    expect(out).not.toContain('\x1b');
    expect(out).toContain('\\x1b\\[2J');
  });

  it('leaves ordinary text readable: file names, ids, money and dashes', () => {
    expect(mdText('traces/run-1.jsonl t-9 $0.42 (+35%) 0.10 < 0.50 a - b').source).toBe(
      'traces/run-1.jsonl t-9 $0.42 (+35%) 0.10 < 0.50 a - b',
    );
  });

  it('keeps a value from opening a block where it starts a line', () => {
    for (const [value, out] of <[string, string][]>[
      ['# heading', '\\#\u200b heading'],
      ['- item', '\\- item'],
      ['---', '\\---'],
      ['1. item', '1\\. item'],
      ['> quote', '&gt; quote'],
      ['    code', '&#32;&#32;&#32;&#32;code'],
      [' - item', ' \\- item'],
      ['-$0.12', '-$0.12'],
    ])
      expect(mdText(value).source).toBe(out);
  });

  it('escapes every interpolated string of safeMd`…`, and only those', () => {
    const line = safeMd`- **${'<b>x</b>'}** ${mdCode('TOOL_LOOP')} ${mdCode('a`b')} ${3} ${NaN} ${Infinity}`;
    expect(line.source).toBe('- **&lt;b>x&lt;/b>** `TOOL_LOOP` a\\`b 3 – –');
  });

  it('cannot be made from a string outside the module', () => {
    expect(() => new Markdown(Symbol('Markdown') as never, '<img>')).toThrow(TypeError);
  });

  it('links only http(s) URLs, with the characters that could end a link encoded', () => {
    expect(mdLink('file', 'https://x/a b(c)').source).toBe('[file](https://x/a%20b%28c%29)');
    expect(mdLink('file', 'javascript:alert(1)').source).toBe('file');
  });

  it('cuts at a line end and says so', () => {
    const text = safeMd`line one\nline two\nline three\n`;
    expect(cutMarkdown(text, 20, safeMd`\n_cut_\n`).source).toBe('line one\n\n_cut_\n');
  });
});

describe('HTML', () => {
  it('makes a value an inert text node or attribute value', () => {
    expect(htmlText(`<script>alert("x")</script> & 'y' ${KEY}`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39; [REDACTED]',
    );
  });

  it('embeds JSON that cannot end its script element and parses back redacted', () => {
    const value = { note: '</script><script>alert(1)</script><!--', key: KEY, line: '\u2028' };
    const out = scriptJson(value);
    expect(out).not.toMatch(/<\/script|<!--|\u2028/i);
    expect(JSON.parse(out)).toEqual({ ...value, key: '[REDACTED]' });
  });
});
