/**
 * Secrets are redacted before anything built from traces is printed or posted. Traces often carry
 * request headers, tool arguments and environment dumps; a key in a PR comment is a leaked key.
 */
const SECRET_PATTERNS: RegExp[] = [
  /\bsk-ant-[A-Za-z0-9_-]{16,}/g, // Anthropic
  /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, // OpenAI
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{40,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, // Slack
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key id
  /\bAIza[0-9A-Za-z_-]{35}\b/g, // Google API key
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, // JWT
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
];

/** `Authorization: Bearer x`, `"api_key": "x"`, `password=x`: keep the name, hide the value. */
const NAMED_SECRET =
  /\b(authorization|bearer|api[_-]?key|apikey|x-api-key|access[_-]?token|refresh[_-]?token|secret|password|passwd|client[_-]?secret)(["']?\s*[:=]\s*["']?|\s+)(?:bearer\s+)?([^\s"',;}{]{8,})/gi;

export const REDACTED = '[REDACTED]';

export function redact(text: string): string {
  let out = text;
  for (const p of SECRET_PATTERNS) out = out.replace(p, REDACTED);
  out = out.replace(NAMED_SECRET, (_m, name: string, sep: string) => `${name}${sep}${REDACTED}`);
  return out;
}

/** Redacts every string inside a JSON value (for evidence objects). */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map(redactDeep) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v)])) as T;
  }
  return value;
}

/**
 * At most `max` characters of trace text for a message or evidence, then "…". Redacted before it
 * is cut: a cut through a secret leaves a prefix that no pattern recognises any more.
 */
export function clipRedacted(text: string, max: number): string {
  const safe = redact(text);
  return safe.length > max ? `${safe.slice(0, max)}…` : safe;
}
