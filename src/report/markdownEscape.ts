/**
 * Escapes text from traces for GitHub-flavoured markdown: no formatting, links, HTML, tables
 * broken by pipes, or @mentions / #references that would ping people from a PR comment.
 */
export function escapeMarkdown(text: string, maxLength = 300): string {
  const clipped = text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
  return clipped
    .replace(/[\r\n]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_{}[\]()#+\-.!|~])/g, '\\$1')
    .replace(/@/g, '&#64;');
}

/** Identifier characters only: what may go inside a code span, where escapes do not apply. */
const CODE_SAFE = /^[A-Za-z0-9_.:-]{1,80}$/;

/**
 * An identifier (a detector id, a metric) as a code span when it is made of identifier characters;
 * anything else is escaped as text instead, since a backtick in it would end the span early and
 * the rest would be read as markdown (a code span shows backslash escapes literally).
 */
export function inlineCode(text: string): string {
  return CODE_SAFE.test(text) ? `\`${text}\`` : escapeMarkdown(text, 80);
}
