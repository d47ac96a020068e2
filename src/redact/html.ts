/**
 * HTML encoders on safeText.ts's one path: a value as a text node or a quoted attribute value,
 * and data embedded in a `<script type="application/json">` block. Both redact first; neither
 * lets a value end the element it sits in.
 */
import { escapeJsonText, jsonEscape } from './jsonText.js';
import { redactDeep } from './redact.js';
import { redactAndCut, showControls } from './safeText.js';

const HTML_SPECIAL = /[&<>"']/g;
const ENTITY: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * A value for an HTML text node or a double- or single-quoted attribute: redacted, cut, control
 * characters shown, and `& < > " '` as entities.
 */
export function htmlText(value: string, max = Infinity): string {
  return showControls(redactAndCut(value, max)).replace(HTML_SPECIAL, (c) => ENTITY[c]!);
}

/**
 * A JSON value (redacted throughout) as the content of a `<script type="application/json">`
 * element: `<`, `>` and `&` are written as \u escapes, so neither `</script>` nor `<!--` can appear
 * and end or change the script; so are DEL, C1, U+2028/2029 and the bidi controls (jsonText.ts), so
 * the page holds no raw control character and `JSON.parse` of the element's text gives the
 * redacted value back whatever the data.
 */
export function scriptJson(value: unknown): string {
  return escapeJsonText(JSON.stringify(redactDeep(value)) ?? 'null').replace(/[<>&]/g, jsonEscape);
}
