// Renders docs/pr-comment.png, the picture of the Action's PR comment in the README, as GitHub shows
// it to a reviewer: the markdown through GFM (marked, with GitHub's comment line breaks), Mermaid
// fences drawn by Mermaid, GitHub's markdown CSS (github-markdown-css), in headless Chromium
// (playwright-core driving the system's Chromium; never a downloaded browser, no network).
//
//   npm run build && node scripts/render-comment-png.mjs [--open] [--markdown FILE] [--out FILE]
//
// --open expands every <details> (to look at the collapsed part); --markdown renders that file
// instead of the examples' comment. Not run in CI: it needs Chromium (Debian: `apt-get install -y
// chromium`; CHROMIUM=path to use another binary).
//
// Deterministic input: the examples' diff (examples-diff.mjs: a new high finding, a resolved one, a
// waste rise). The body is the Action's own (renderComment), with an HTML report artifact linked as
// the Action links one, and the trace files linked at a head commit. Emoji need a colour emoji font
// (Debian: fonts-noto-color-emoji), as GitHub draws them.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Marked } from 'marked';
import { chromium } from 'playwright-core';
import { examplesReports } from './examples-diff.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { values: args } = parseArgs({
  options: {
    open: { type: 'boolean', default: false },
    markdown: { type: 'string' },
    out: { type: 'string', default: path.join(root, 'docs/pr-comment.png') },
  },
});
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const WIDTH = 900; // a PR comment's body on a wide screen, avatar and margins included
const SCALE = 2; // device pixels per CSS pixel: sharp text when the README scales the picture down

function fail(message) {
  console.error(`render-comment-png: ${message}`);
  process.exit(1);
}
if (!existsSync(executablePath))
  fail(`${executablePath} is missing: apt-get install -y chromium, or set CHROMIUM`);

const tmp = mkdtempSync(path.join(tmpdir(), 'tj-comment-'));

/** The Action's comment over the examples' diff (examples-diff.mjs), as run() renders it. */
async function examplesComment() {
  if (!existsSync(path.join(root, 'build/analyze.js'))) fail('build/ is missing: run `npm run build` first');
  const { analyze } = await import(path.join(root, 'build/analyze.js'));
  const { renderComment } = await import(path.join(root, 'build/action/commentBody.js'));
  const { diffReports } = await import(path.join(root, 'build/diff/diffReports.js'));
  const { commentMarker } = await import(path.join(root, 'build/action/comment.js'));
  const { base, head } = await examplesReports(analyze);
  const run = 'https://github.com/acme/agent/actions/runs/1234';
  return renderComment(
    {
      head,
      diff: diffReports(base, head),
      baselineSource: 'the report of run #41 on main (3f2a9c1)',
      runUrl: run,
      fileUrl: (file, line) => `https://github.com/acme/agent/blob/9c1e2f7/${file}${line ? `#L${line}` : ''}`,
      artifacts: {
        html: { name: 'tracejury-report-default.html', url: `${run}/artifacts/5678`, zip: false, files: 1 },
      },
    },
    commentMarker('default'),
  );
}

const markdown = args.markdown ? readFileSync(args.markdown, 'utf8') : await examplesComment();
writeFileSync(path.join(tmp, 'comment.md'), markdown);

// GFM as GitHub renders a comment: tables, strikethrough, autolinks, and a newline is a line break.
const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const marked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    code({ text, lang }) {
      // GitHub draws a mermaid fence as the chart, in place of the code.
      if (lang === 'mermaid')
        return `<div class="mermaid-box"><pre class="mermaid">${escapeHtml(text)}</pre></div>`;
      return false;
    },
  },
});
let body = marked.parse(markdown);
if (args.open) body = body.replace(/<details>/g, '<details open>');

const css = readFileSync(require.resolve('github-markdown-css/github-markdown-light.css'), 'utf8');
const mermaidJs = readFileSync(require.resolve('mermaid/dist/mermaid.min.js'), 'utf8');
// GitHub's comment chrome: avatar, header bar, bordered body.
const chrome = `
body { margin: 0; padding: 16px; background: #fff; width: ${WIDTH}px; box-sizing: border-box; }
.comment { display: flex; gap: 12px; font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
.avatar { flex: none; width: 40px; height: 40px; border-radius: 50%; background: #8250df; color: #fff;
  font-weight: 600; display: flex; align-items: center; justify-content: center; }
.box { flex: 1; min-width: 0; border: 1px solid #d1d9e0; border-radius: 6px; }
.bar { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; border-radius: 6px 6px 0 0; padding: 8px 16px; color: #59636e; }
.bar b { color: #1f2328; }
.bot { border: 1px solid #d1d9e0; border-radius: 2em; padding: 0 7px; font-size: 12px; margin-left: 4px; }
.markdown-body { padding: 16px; font-size: 14px; }
.mermaid-box { margin-bottom: 16px; }
.mermaid-box pre.mermaid { background: none; padding: 0; }
`;
const page = `<!doctype html>
<html><head><meta charset="utf-8"><title>tracejury PR comment</title>
<style>${css}</style><style>${chrome}</style></head>
<body><div class="comment"><div class="avatar">tj</div><div class="box">
<div class="bar"><b>github-actions</b><span class="bot">bot</span> commented</div>
<div class="markdown-body">${body}</div></div></div>
<script>${mermaidJs.replace(/<\/script/gi, '<\\/script')}</script>
</body></html>
`;
writeFileSync(path.join(tmp, 'comment.html'), page);

const browser = await chromium.launch({
  executablePath,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-gpu',
    '--no-first-run',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const context = await browser.newContext({
    viewport: { width: WIDTH, height: 800 },
    deviceScaleFactor: SCALE,
  });
  // Nothing leaves the page: the comment, its CSS and Mermaid are all inline.
  await context.route('**/*', (route) => route.abort());
  const tab = await context.newPage();
  await tab.setContent(page, { waitUntil: 'load' });
  const drawn = await tab.evaluate(async () => {
    const m = globalThis.mermaid;
    m.initialize({ startOnLoad: false, theme: 'default', securityLevel: 'strict' });
    const charts = globalThis.document.querySelectorAll('pre.mermaid');
    if (charts.length > 0) await m.run({ nodes: [...charts] });
    return [...charts].map((c) => (c.querySelector('svg') ? 'svg' : c.textContent.slice(0, 200)));
  });
  for (const d of drawn) if (d !== 'svg') fail(`Mermaid did not draw a chart: ${d}`);
  await tab.locator('.comment').screenshot({ path: args.out });
  console.log(
    `wrote ${path.relative(process.cwd(), args.out)} (${drawn.length} chart(s) drawn); markdown and HTML in ${tmp}`,
  );
} finally {
  await browser.close();
}
