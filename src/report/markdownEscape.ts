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
