/**
 * Markdown that cannot carry markup from data. A `Markdown` value is built only here: by the `safeMd`
 * tagged template, whose literal text is the renderer's own and whose every interpolated string is
 * redacted, cut and escaped (safeText.ts's one path); by `mdText` / `mdCode` for a value with its
 * own length; and by `mdLink` for a link whose URL tracejury made. Renderers build `Markdown` and
 * join it; a plain string can only enter through `safeMd`, where it is escaped — there is no way to
 * put report text into markdown raw, and forgetting to escape is not possible.
 *
 * The escape is context-free and minimal, so that ordinary text (`run-1.jsonl`, `$0.42`, `t-9`)
 * reads as it is written: it neutralises what GitHub's markdown can make of a value wherever it
 * sits in a line — HTML, code spans, emphasis, links and images, autolinks, table cells, entities,
 * @mentions and #references — and, at the value's start, what could open a block there (a
 * heading, a list item, a quote, an indented code block). A value is always one line.
 */
import { redact } from './redact.js';
import { redactAndCut, showControls } from './safeText.js';

/** What one interpolated value shows at most unless `mdText` says otherwise. */
export const MD_VALUE_MAX = 300;

const TOKEN: unique symbol = Symbol('Markdown');

/** Markdown whose every piece from data was escaped. Made only by this module's functions. */
export class Markdown {
  readonly source: string;
  constructor(token: typeof TOKEN, source: string) {
    if (token !== TOKEN) throw new TypeError('Markdown is made by safeMd`…`, mdText, mdCode or mdLink');
    this.source = source;
  }
  get length(): number {
    return this.source.length;
  }
}

const made = (source: string) => new Markdown(TOKEN, source);

/** Zero-width space: after `@` and `#` it keeps a mention or a reference from forming. */
const ZWSP = '\u200b';

/** The escape of one line of text; see the module comment for what each step prevents. */
function escapeLine(text: string): string {
  let s = showControls(text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' '))
    .replace(/[\\`*_~[\]|]/g, '\\$&')
    .replace(/&/g, '&amp;')
    .replace(/<(?=[A-Za-z/!?])/g, '&lt;')
    .replace(/[@#]/g, `$&${ZWSP}`)
    .replace(/:\/\//g, '\\://')
    .replace(/\b(www)\./gi, '$1\\.');
  // At the start of a block (a quote's or a list item's text) leading spaces would make code;
  // as entities they are text. A single space is kept (it cannot make code) and what follows it
  // must not open a block, as the first character must not.
  const indent = /^[ \t]*/.exec(s)![0];
  if (indent.length > 1 || indent === '\t')
    return indent.replace(/ /g, '&#32;').replace(/\t/g, '&#9;') + s.slice(indent.length);
  s = s.slice(indent.length);
  // `- x`, `+ x`, `---`, `# x`, `## x`: a list item, a rule or a heading; `-$0.12` is none.
  if (/^(?:[+-][\s-]|#[\s#\u200b]|[#+-]$)/.test(s)) s = `\\${s}`;
  else if (s.startsWith('>')) s = `&gt;${s.slice(1)}`;
  else s = s.replace(/^(\d{1,9})([.)])(?=\s|$)/, '$1\\$2');
  return indent + s;
}

/** A value from a report or trace as markdown text: redacted, cut to `max`, escaped. */
export function mdText(value: string, max = MD_VALUE_MAX): Markdown {
  return made(escapeLine(redactAndCut(value, max)));
}

/** Identifier characters only: what may go inside a code span, where escapes do not apply. */
const CODE_SAFE = /^[A-Za-z0-9_.:-]{1,80}$/;

/**
 * An identifier (a detector id, a metric) as a code span when it is made of identifier characters;
 * anything else is escaped text instead, since a backtick in it would end the span early and the
 * rest would be read as markdown (a code span shows backslash escapes literally).
 */
export function mdCode(value: string): Markdown {
  const safe = redact(value);
  return CODE_SAFE.test(safe) ? made(`\`${safe}\``) : mdText(safe, 80);
}

/** Characters a link destination must not hold raw: they would end it or be read as markup. */
const URL_UNSAFE = /[\s()<>"'`\\[\]\u0000-\u001f\u007f]/g;

/**
 * `[label](url)` for a URL tracejury built (the run's page, a file at the head commit). Only
 * http(s) URLs become links; anything else shows the label alone.
 */
export function mdLink(label: string | Markdown, url: string): Markdown {
  const text = label instanceof Markdown ? label : mdText(label);
  if (!/^https?:\/\//i.test(url)) return text;
  const href = url.replace(
    URL_UNSAFE,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
  return made(`[${text.source}](${href})`);
}

export type MdValue = Markdown | string | number;

function piece(value: MdValue): string {
  if (value instanceof Markdown) return value.source;
  // A number that is not finite is never shown as "NaN" or "Infinity".
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '–';
  return mdText(value).source;
}

/**
 * Markdown from a template: its literal text is taken as written (it is the renderer's own), each
 * interpolated string is redacted, cut to MD_VALUE_MAX and escaped, numbers are written out, and
 * `Markdown` values are inserted as they are.
 *
 *     safeMd`| ${mdCode(s.detector)} | ${s.traceId} | ${formatUsd(s.wasteUsd)} |`
 */
export function safeMd(strings: TemplateStringsArray, ...values: MdValue[]): Markdown {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += piece(values[i]!) + strings[i + 1]!;
  return made(out);
}

/** Pieces of markdown joined (lines by default). */
export function joinMd(pieces: readonly Markdown[], separator: Markdown | '\n' | '' = '\n'): Markdown {
  const sep = separator instanceof Markdown ? separator.source : separator;
  return made(pieces.map((p) => p.source).join(sep));
}

/**
 * At most `limit` characters of markdown: cut at a line end (never inside an escape, a code span or
 * a link), with `note` (which says where the rest is) after the cut.
 */
export function cutMarkdown(text: Markdown, limit: number, note: Markdown): Markdown {
  if (text.length <= limit) return text;
  const room = Math.max(0, limit - note.length);
  const lineEnd = text.source.lastIndexOf('\n', room);
  return made(text.source.slice(0, lineEnd > 0 ? lineEnd + 1 : 0) + note.source);
}
