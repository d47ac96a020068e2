/**
 * Secrets are redacted before anything built from traces is printed or posted. Traces often carry
 * request headers, tool arguments and environment dumps; a key in a PR comment is a leaked key.
 *
 * Redaction runs on every signal of a run (tens of thousands on a large input), and nearly all of
 * that text holds no secret, so `redact` first asks one cheap question (does the text hold any of
 * the few literals a secret needs?) and returns the text untouched when it does not. Every pattern
 * below must keep a literal that ANCHORS finds; the positive tests go through `redact`, so a
 * pattern that lost its anchor fails them.
 */
const SECRET_PATTERNS: RegExp[] = [
  /\bsk-ant-[A-Za-z0-9_-]{16,}/g, // Anthropic
  /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, // OpenAI
  /\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}/g, // Stripe secret and restricted keys
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{40,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g, // GitLab personal access token
  /\bhf_[A-Za-z0-9]{30,}/g, // Hugging Face
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, // Slack
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key id
  /\bAIza[0-9A-Za-z_-]{35}\b/g, // Google API key
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, // JWT
  // A key cut off before its END line (a truncated log) is still a key: hide the rest of the text.
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
];

/**
 * `scheme://user:password@host`: the password goes, the user and host stay (they say which
 * service failed). Greedy up to the last `@` before the path, as passwords often hold a raw `@`.
 */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*:)[^\s/?#]+@/gi;

/**
 * Names whose value is a secret. A name may end a longer identifier (`DB_PASSWORD`,
 * `AWS_SECRET_ACCESS_KEY`, `dbPassword`, `x-api-key`), but must end it: `max_tokens` and
 * `token_count` are not names. Plain `key` is not one either (`cache key`, `sort_key`).
 */
const NAMES =
  '(?:authorization|bearer|passw(?:or)?d|secret|token|(?:api|access|secret|private|signing|encryption|master|session)[_-]?key)';
const IDENT = `(?<![A-Za-z0-9_-])([A-Za-z0-9_-]*?${NAMES})`;
const SCHEME = '(?:(?:bearer|basic|token)\\s+)?';
/** Characters that end an unquoted value: it is one word of a header, a query or a JSON value. */
const BARE = '[^\\s"\'\\\\,;}{]';
/**
 * `password=hunter2`, `"api_key": "x y"`, `Authorization: Basic …`: with an explicit `=` or `:`
 * any non-empty value is a secret. A quoted value runs to its closing quote (spaces and all).
 * Groups: 1 name, 2 separator, 3 opening quote of the value.
 */
const EXPLICIT = `${IDENT}(\\\\?["']?\\s*[:=]\\s*)(?:(\\\\?["'])${SCHEME}[^"'\\\\\\n]+|${SCHEME}${BARE}+)`;
/**
 * `Bearer abc123…`, `password hunter22`: with only whitespace between, prose is the risk ("the
 * password field is required", "token consumption"), so the value must look like a credential:
 * 8+ characters with a digit, or 24+ characters. Groups: 4 name, 5 whitespace.
 */
const SPACED = `${IDENT}(\\s+)${SCHEME}(?:(?=${BARE}*\\d)${BARE}{8,}|${BARE}{24,})`;
const NAMED_SECRET = new RegExp(`${EXPLICIT}|${SPACED}`, 'gi');

/**
 * A superset test: every secret the patterns above find contains one of these. A name counts only
 * where a separator follows it, so "tokens" and "keyboard" in ordinary messages do not send the
 * text down the slow path.
 */
const ANCHORS =
  /sk[-_]|rk_|gh[pousr]_|github_pat_|glpat-|hf_|xox[abprs]-|AKIA|AIza|eyJ|-----BEGIN|:\/\/|(?:authorization|bearer|passw(?:or)?d|secret|token|key)[\\"'\s:=]/i;

/** The shortest text any pattern can match: `token=x`, `a://:x@`. */
const MIN_SECRET_TEXT = 7;

export const REDACTED = '[REDACTED]';

/** Idempotent: what it leaves is `[REDACTED]`, which no pattern takes for a secret but itself. */
export function redact(text: string): string {
  if (text.length < MIN_SECRET_TEXT || !ANCHORS.test(text)) return text;
  let out = text;
  for (const p of SECRET_PATTERNS) out = out.replace(p, REDACTED);
  out = out.replace(URL_CREDENTIALS, `$1${REDACTED}@`);
  return out.replace(
    NAMED_SECRET,
    (_m, name?: string, sep?: string, quote?: string, spacedName?: string, space?: string) =>
      name !== undefined ? `${name}${sep}${quote ?? ''}${REDACTED}` : `${spacedName}${space}${REDACTED}`,
  );
}

/** Object keys whose string value is a secret whatever it looks like (`{ "password": "hunter2" }`). */
const SECRET_KEY = new RegExp(`^[A-Za-z0-9_-]*?${NAMES}$`, 'i');

/**
 * Redacts every string inside a JSON value (for evidence objects), keys included, and the string
 * values of keys named like credentials. Returns the value itself, not a copy, when nothing in it changed: almost
 * all evidence holds no secret, and copying it for every signal of a large run would cost memory.
 */
export function redactDeep<T>(value: T): T {
  return redactValue(value) as T;
}

function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redact(value);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const was: unknown = value[i];
      const now = redactValue(was);
      if (now !== was) (copy ??= value.slice())[i] = now;
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const was = record[key];
    const now = typeof was === 'string' && was !== '' && SECRET_KEY.test(key) ? REDACTED : redactValue(was);
    // A key is text too (a detector id, a model name, a header a trace recorded): redacted as values are.
    const safeKey = redact(key);
    if (safeKey === key && now === was) continue;
    copy ??= { ...record };
    if (safeKey !== key) delete copy[key];
    // Defined, not assigned: a key named `__proto__` stays a key and never becomes the prototype.
    Object.defineProperty(copy, safeKey, {
      value: now,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy ?? value;
}
