/**
 * What a step said or returned, as text: an LLM step's output, a tool step's result, a message's
 * content, a retrieval's documents. Rules that look for a value in a run read steps through it.
 */
import type { Step } from '../trace/schema.js';

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(text).join('\n');
  if (typeof value === 'object' && 'content' in value) return text((value as { content: unknown }).content);
  if (typeof value === 'object' && typeof (value as { text?: unknown }).text === 'string')
    return (value as { text: string }).text;
  return JSON.stringify(value) ?? '';
}

export function stepText(s: Step): string {
  switch (s.type) {
    case 'llm':
      return text(s.output);
    case 'tool':
      return text(s.result ?? s.error);
    case 'message':
      return text(s.content);
    case 'retrieval':
      return s.results.map((r) => r.content ?? '').join('\n');
    case 'state':
      return '';
  }
}
