/**
 * The text of one untrusted field of a trace, as the injection scan reads it: a string as it is,
 * a structured value (a tool result, an input object) as its strings joined in document order,
 * without the parts the operator wrote (system / developer messages and keys), cut to the field
 * limit as a string is (head ¾, tail ¼), and only when the prefilter passes it.
 */
import { capText, prefilter } from './scanner.js';

/**
 * The strings of a JSON-like value, in document order, joined by newlines. Past `budget`
 * characters the text is cut as `capText` cuts a string (head ¾, tail ¼): a payload placed after
 * 100 KB of padding inside a structured tool result is scanned as it would be in a plain string.
 */
function collectStrings(
  value: unknown,
  budget: number,
  skip: (key: string, v: unknown) => boolean,
): { text: string; truncated: boolean } {
  if (typeof value === 'string') return { text: value, truncated: false };
  const parts: string[] = [];
  let total = 0;
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (typeof v === 'string') {
      parts.push(v);
      total += v.length + 1;
    } else if (depth < 32 && Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1 });
    } else if (depth < 32 && v !== null && typeof v === 'object') {
      if (isTrustedMessage(v)) continue;
      const entries = Object.entries(v as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i]!;
        if (!skip(k, child)) stack.push({ v: child, depth: depth + 1 });
      }
    }
  }
  if (total - 1 <= budget) return { text: parts.join('\n'), truncated: false };
  return {
    text: `${headOf(parts, Math.floor(budget * 0.75))}\n${tailOf(parts, budget - Math.floor(budget * 0.75))}`,
    truncated: true,
  };
}

/** The first `n` characters of the parts joined by newlines. */
function headOf(parts: readonly string[], n: number): string {
  const out: string[] = [];
  let left = n;
  for (let i = 0; i < parts.length && left > 0; i++) {
    const p = parts[i]!.length > left ? parts[i]!.slice(0, left) : parts[i]!;
    out.push(p);
    left -= p.length + 1;
  }
  return out.join('\n');
}

/** The last `n` characters of the parts joined by newlines. */
function tailOf(parts: readonly string[], n: number): string {
  const out: string[] = [];
  let left = n;
  for (let i = parts.length - 1; i >= 0 && left > 0; i--) {
    const p = parts[i]!.length > left ? parts[i]!.slice(parts[i]!.length - left) : parts[i]!;
    out.push(p);
    left -= p.length + 1;
  }
  return out.reverse().join('\n');
}

const TRUSTED_ROLES = new Set(['system', 'developer']);
/** A chat message object written by the operator (system / developer) rather than a user. */
function isTrustedMessage(v: object): boolean {
  const role = (v as { role?: unknown }).role;
  return typeof role === 'string' && TRUSTED_ROLES.has(role.toLowerCase());
}

/** Keys of a trace input that hold operator configuration, not user text. */
const SYSTEM_KEYS =
  /^(?:system|system_?prompt|systemprompt|developer|developer_?message|instructions|preamble)$/i;
const noSkip = () => false;

/** A field the prefilter passed: its collected text, capped. */
export interface Field {
  /** The collected text (the key under which an LLM input message counts as scanned). */
  text: string;
  /** The collected text cut to `max_field_chars` (what is scanned). */
  capped: string;
  truncated: boolean;
  /** The prefilter passed it: some pattern of the catalogue may match. */
  passes: boolean;
}

/**
 * The text of one field when the prefilter passes it, else undefined. A string field (the common
 * case) goes to the prefilter as it is, with no object created for it.
 */
export function passingField(value: unknown, skipKeys: boolean, maxChars: number): Field | undefined {
  if (typeof value === 'string' && value.length <= maxChars) {
    if (value.length === 0 || !prefilter().mayMatch(value)) return undefined;
    return { text: value, capped: value, truncated: false, passes: true };
  }
  const f = fieldOf(value, skipKeys, maxChars);
  // A field the prefilter rejects has no match, now or when replayed later: it changes nothing
  // (no signal, no group), so it is skipped before it is hashed into `scanned`.
  return f?.passes ? f : undefined;
}

/**
 * The text of one field whether or not the prefilter passes it (undefined when it holds no text),
 * and whether it does: the reading of requests to the reader (readerRequests.ts) reads every field
 * of data, as no keyword selects a request.
 */
export function fieldOf(value: unknown, skipKeys: boolean, maxChars: number): Field | undefined {
  let text: string;
  let cut = false;
  if (typeof value === 'string') {
    text = value;
  } else {
    const collected = collectStrings(value, maxChars, skipKeys ? skipSystemKey : noSkip);
    text = collected.text;
    cut = collected.truncated;
  }
  if (text.length === 0) return undefined;
  const capped = text.length <= maxChars ? { text, truncated: false } : capText(text, maxChars);
  return {
    text,
    capped: capped.text,
    truncated: capped.truncated || cut,
    passes: prefilter().mayMatch(capped.text),
  };
}

const skipSystemKey = (k: string) => SYSTEM_KEYS.test(k);
