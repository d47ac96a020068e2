// Renders docs/pr-comment.png, the picture of the Action's PR comment in the README.
//   npm run build && node scripts/render-comment-png.mjs
// Not run in CI: it needs Chromium (Debian: `apt-get install -y chromium`; CHROMIUM=path to use
// another binary). Deterministic input: two analyses of copies of examples/traces, each from its
// own directory so file names match. Base lacks one needless fallback (blog_draft_3001), head lacks
// one overkill call (quick_math_5001): the diff has a new high finding, a resolved one and a waste
// rise. The comment body is the Action's own (renderComment: the diff, then the head report),
// turned into HTML by a small renderer for the markdown the diff writes (headings, paragraphs,
// tables, lists, code spans, bold, italics, blockquotes, <details>, fences). GitHub draws the
// Mermaid fence as a bar chart; here it stays a code block, with a note saying so.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'build/cli/bin.js');
const out = path.join(root, 'docs/pr-comment.png');
const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
const WIDTH = 960; // the comment's width, about a PR comment's on a wide screen
const WINDOW = WIDTH; // the body (padding included) is exactly as wide as the window
const SCALE = 2; // device pixels per CSS pixel: sharp text when the README scales the picture down

if (!existsSync(cli)) fail('build/cli/bin.js is missing: run `npm run build` first');
if (!existsSync(chromium)) fail(`${chromium} is missing: apt-get install -y chromium, or set CHROMIUM`);

function fail(message) {
  console.error(`render-comment-png: ${message}`);
  process.exit(1);
}

function run(command, args, options = {}) {
  const r = spawnSync(command, args, {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    ...options,
  });
  if (r.error) fail(`${command}: ${r.error.message}`);
  return r;
}

const tmp = mkdtempSync(path.join(tmpdir(), 'tj-comment-'));
const llmCalls = readFileSync(path.join(root, 'examples/traces/llm-calls.jsonl'), 'utf8');
const without = (traceId) =>
  llmCalls
    .split('\n')
    .filter((l) => !l.includes(`"traceId": "${traceId}"`))
    .join('\n');

for (const [side, dropped] of [
  ['base', 'blog_draft_3001'],
  ['head', 'quick_math_5001'],
]) {
  const dir = path.join(tmp, side);
  cpSync(path.join(root, 'examples'), path.join(dir, 'examples'), { recursive: true });
  rmSync(path.join(dir, 'examples/workflows'), { recursive: true, force: true });
  writeFileSync(path.join(dir, 'examples/traces/llm-calls.jsonl'), without(dropped));
  const r = run(
    process.execPath,
    [
      cli,
      'analyze',
      'examples/traces',
      '--config',
      'examples/tracejury.yml',
      '--state-dir',
      mkdtempSync(path.join(tmp, 'state-')),
      '--format',
      'json',
      '--out',
      path.join(tmp, `${side}.json`),
    ],
    { cwd: dir },
  );
  if (r.status !== 0) fail(`analyze ${side} exited ${r.status}: ${r.stderr}`);
}

// The body the Action posts: its own renderer, over the diff of the two reports.
const { renderComment } = await import(path.join(root, 'build/action/commentBody.js'));
const { diffReports } = await import(path.join(root, 'build/diff/diffReports.js'));
const { commentMarker } = await import(path.join(root, 'build/action/comment.js'));
const [base, head] = ['base', 'head'].map((side) =>
  JSON.parse(readFileSync(path.join(tmp, `${side}.json`), 'utf8')),
);
const comment = renderComment(
  {
    head,
    diff: diffReports(base, head),
    baselineSource: 'the report of run #41 on main (3f2a9c1)',
    runUrl: 'https://github.com/acme/agent/actions/runs/1234',
  },
  commentMarker('default'),
);
writeFileSync(path.join(tmp, 'comment.md'), comment);

// ---- markdown → HTML, for the subset the diff writes ----

const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function inline(text) {
  const parts = text.split(/(`[^`]*`)/);
  return parts
    .map((part, i) => {
      if (i % 2 === 1) return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      let s = part
        // Entities the escaper wrote stay entities; any other & < > is text.
        .replace(/&(?!#?\w+;)/g, '&amp;')
        .replace(/<(?!\/?(details|summary|sub)>)/g, '&lt;')
        .replace(/(?<!<\/?(details|summary|sub))>/g, '&gt;');
      const held = [];
      s = s.replace(/\\([\\`*_{}[\]()#+\-.!|<>~@])/g, (_, c) => {
        held.push(c);
        return `\u0000${held.length - 1}\u0000`;
      });
      s = s
        .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>')
        .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
        .replace(/(^|\W)_(.+?)_(?=\W|$)/g, '$1<em>$2</em>');
      return s.replace(/\u0000(\d+)\u0000/g, (_, n) => escapeHtml(held[Number(n)]));
    })
    .join('');
}

const cells = (row) =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());

function render(markdown) {
  const lines = markdown.replace(/\n$/, '').split('\n');
  const html = [];
  for (let i = 0; i < lines.length;) {
    const line = lines[i];
    if (line.trim() === '') {
      i++;
    } else if (/^<!--.*-->$/.test(line)) {
      html.push(line);
      i++;
    } else if (/^<\/?details( open)?>|^<summary>/.test(line)) {
      html.push(line.replace(/<summary>(.*)<\/summary>/, (_, s) => `<summary>${inline(s)}</summary>`));
      i++;
    } else if (line === '---') {
      html.push('<hr>');
      i++;
    } else if (line.startsWith('```')) {
      const lang = line.slice(3).trim();
      const body = [];
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
      i++;
      if (lang === 'mermaid')
        html.push(
          '<p class="note">GitHub draws this Mermaid block as a bar chart of waste by detector, base then head.</p>',
        );
      html.push(`<pre><code>${escapeHtml(body.join('\n'))}</code></pre>`);
    } else if (/^#{1,6} /.test(line)) {
      const level = line.indexOf(' ');
      html.push(`<h${level}>${inline(line.slice(level + 1))}</h${level}>`);
      i++;
    } else if (line.startsWith('|')) {
      const head = cells(line);
      const align = cells(lines[i + 1]).map((c) => (c.endsWith(':') ? ' align="right"' : ''));
      const rows = [];
      for (i += 2; i < lines.length && lines[i].startsWith('|'); i++) rows.push(cells(lines[i]));
      html.push(
        '<table><thead><tr>' +
          head.map((c, k) => `<th${align[k]}>${inline(c)}</th>`).join('') +
          '</tr></thead><tbody>' +
          rows
            .map((r) => '<tr>' + r.map((c, k) => `<td${align[k]}>${inline(c)}</td>`).join('') + '</tr>')
            .join('') +
          '</tbody></table>',
      );
    } else if (line.startsWith('- ')) {
      const items = [];
      for (; i < lines.length && lines[i].startsWith('- '); i++)
        items.push(`<li>${inline(lines[i].slice(2))}</li>`);
      html.push(`<ul>${items.join('')}</ul>`);
    } else if (line.startsWith('> ')) {
      const quote = [];
      for (; i < lines.length && lines[i].startsWith('> '); i++) quote.push(inline(lines[i].slice(2)));
      html.push(`<blockquote><p>${quote.join(' ')}</p></blockquote>`);
    } else {
      const para = [];
      for (
        ;
        i < lines.length &&
        lines[i].trim() !== '' &&
        !/^(#|\||- |> |```|<\/?details|<summary|---$)/.test(lines[i]);
        i++
      )
        para.push(inline(lines[i]));
      html.push(`<p>${para.join(' ')}</p>`);
    }
  }
  return html.join('\n');
}

// GitHub's light theme, as a PR comment: avatar, header bar, bordered body.
const css = `
* { box-sizing: border-box; }
body { margin: 0; padding: 16px; background: #fff; color: #1f2328; width: ${WIDTH}px;
  font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif, "Noto Color Emoji"; }
.comment { display: flex; gap: 12px; }
.avatar { flex: none; width: 40px; height: 40px; border-radius: 50%; background: #8250df; color: #fff;
  font-weight: 600; display: flex; align-items: center; justify-content: center; }
.box { flex: 1; min-width: 0; border: 1px solid #d1d9e0; border-radius: 6px; }
.bar { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; border-radius: 6px 6px 0 0; padding: 8px 16px;
  color: #59636e; }
.bar b { color: #1f2328; }
.bot { border: 1px solid #d1d9e0; border-radius: 2em; padding: 0 7px; font-size: 12px; margin-left: 4px; }
.body { padding: 16px; }
h3 { font-size: 1.25em; margin: 0 0 16px; font-weight: 600; }
h4 { font-size: 1em; margin: 24px 0 16px; font-weight: 600; }
p, ul, table, pre, blockquote { margin: 0 0 16px; }
ul { padding-left: 2em; } li + li { margin-top: 4px; }
code { font: 85% ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
  background: rgba(129, 139, 152, 0.12); border-radius: 6px; padding: 0.2em 0.4em; }
pre { background: #f6f8fa; border-radius: 6px; padding: 16px; overflow: hidden; line-height: 1.45; }
pre code { background: none; padding: 0; font-size: 85%; }
table { border-collapse: collapse; display: block; width: max-content; max-width: 100%; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
th { font-weight: 600; } tbody tr:nth-child(2n) { background: #f6f8fa; }
blockquote { color: #59636e; border-left: 0.25em solid #d1d9e0; padding: 0 1em; }
a { color: #0969da; text-decoration: none; } hr { border: 0; border-top: 1px solid #d1d9e0; margin: 16px 0; } sub { color: #59636e; }
.note { color: #59636e; font-style: italic; font-size: 12px; margin-bottom: 4px; }
.body > :last-child { margin-bottom: 0; }
`;

const page = `<!doctype html>
<html><head><meta charset="utf-8"><title>tracejury PR comment</title><style>${css}</style></head>
<body><div class="comment"><div class="avatar">tj</div><div class="box">
<div class="bar"><b>github-actions</b><span class="bot">bot</span> commented</div>
<div class="body">
${render(comment)}
</div></div></div>
<script>document.body.dataset.height = String(Math.ceil(document.documentElement.getBoundingClientRect().height));</script>
</body></html>
`;
const htmlFile = path.join(tmp, 'comment.html');
writeFileSync(htmlFile, page);

const flags = (userDataDir) => [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--user-data-dir=${mkdtempSync(path.join(tmp, userDataDir))}`,
  '--hide-scrollbars',
  `--force-device-scale-factor=${SCALE}`,
];

// First pass: the page writes its own height into the DOM, so the screenshot's window is exactly
// as tall as the comment (nothing cut off, no blank tail).
const measure = run(chromium, [
  ...flags('measure-'),
  `--window-size=${WINDOW},1000`,
  '--dump-dom',
  `file://${htmlFile}`,
]);
const measured = /data-height="(\d+)"/.exec(measure.stdout ?? '');
if (!measured) fail(`chromium --dump-dom gave no height (exit ${measure.status}): ${measure.stderr}`);
const height = Number(measured[1]);
const shot = run(chromium, [
  ...flags('shot-'),
  `--window-size=${WINDOW},${height}`,
  `--screenshot=${out}`,
  `file://${htmlFile}`,
]);
if (shot.status !== 0 || !existsSync(out)) fail(`chromium exited ${shot.status}: ${shot.stderr}`);
console.log(
  `wrote ${path.relative(root, out)} (${WINDOW}×${height} CSS px at ${SCALE}×); HTML and markdown in ${tmp}`,
);
