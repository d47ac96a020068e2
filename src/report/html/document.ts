/**
 * One self-contained HTML file, written a piece at a time: the viewer's CSS and JavaScript inline
 * (report-ui/, built by `npm run build` into viewer.generated.ts), the page data and each embedded
 * trace as JSON in `<script type="application/json">` blocks (scriptJson: redacted, and `</script>`
 * or `<!--` cannot occur in them), and a Content-Security-Policy that lets nothing load: no fetch,
 * no image, no font, no frame. Only the viewer's own script and style run, named by their SHA-256,
 * so neither an injected `<script>` nor an inline event handler (`<img onerror>`) could run even if
 * markup ever reached the page. It opens from file:// and from a downloaded artifact, offline.
 */
import { createHash } from 'node:crypto';
import { htmlText, scriptJson } from '../../redact/html.js';
import type { TraceJson } from './collectTraces.js';
import { PAGE_DATA_ID, traceBlockId } from './pageData.js';
import { VIEWER_CSS, VIEWER_JS } from './viewer.generated.js';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The policy: nothing from anywhere, except the viewer's script and style and data: images. */
export function contentSecurityPolicy(js = VIEWER_JS, css = VIEWER_CSS): string {
  return [
    "default-src 'none'",
    `script-src ${sha256(js)}`,
    `style-src ${sha256(css)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * The document: `data` is the page data (the viewer's contract, pageData.ts), `traces` the trace
 * JSON each `tj-trace-N` block holds, in the order the data's `embedded` list numbers them.
 */
export function* htmlDocument(title: string, data: unknown, traces: readonly TraceJson[]): Generator<string> {
  yield '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n';
  yield `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy()}">\n`;
  yield '<meta name="referrer" content="no-referrer">\n';
  yield '<meta name="viewport" content="width=device-width, initial-scale=1">\n';
  yield `<title>${htmlText(title)}</title>\n<style>${VIEWER_CSS}</style>\n</head>\n<body>\n`;
  yield '<noscript>This report needs JavaScript to show; the same data is in the JSON report.</noscript>\n';
  yield '<div id="app"></div>\n';
  yield `<script type="application/json" id="${PAGE_DATA_ID}">${scriptJson(data)}</script>\n`;
  for (const [block, trace] of traces.entries())
    yield `<script type="application/json" id="${traceBlockId(block)}">${trace.json}</script>\n`;
  yield `<script>${VIEWER_JS}</script>\n</body>\n</html>\n`;
}
