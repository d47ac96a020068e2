/**
 * Secrets are redacted before anything built from traces is printed or posted. Traces often carry
 * request headers, tool arguments and environment dumps; a key in a PR comment is a leaked key.
 *
 * Three kinds of secret are recognised: a credential by its own shape (secretForms.ts: a
 * provider's prefix and body, a webhook URL), a value a name announces (`password=…`,
 * `"api_key": "…"`, `Authorization: Bearer …`, `OPENAI_KEY=…`, `Cookie: …`), and the password of
 * a URL (`https://user:pw@host`). A bare high-entropy string with neither a known prefix nor a
 * name before it is not recognised.
 *
 * Redaction runs on every signal of a run (tens of thousands on a large input), and nearly all of
 * that text holds no secret, so `redact` first asks one cheap question (does the text hold any of
 * the fragments a secret needs: a form's anchor, `://`, a name followed by a separator?) and
 * returns the text untouched when it does not. The positive tests go through `redact`, so a form
 * whose anchor does not cover it fails them.
 */
import { SECRET_FORMS } from './secretForms.js';

/** Every credential form in one pass (an alternation of the forms' patterns). */
const FORMS = new RegExp(SECRET_FORMS.map((f) => `(?:${f.pattern})`).join('|'), 'g');

/**
 * `scheme://user:password@host`: the password goes, the user and host stay (they say which
 * service failed). Greedy up to the last `@` before the path, as passwords often hold a raw `@`.
 */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*:)[^\s/?#]+@/gi;

/**
 * Names whose value is a secret. A name may end a longer identifier (`DB_PASSWORD`,
 * `AWS_SECRET_ACCESS_KEY`, `dbPassword`, `x-api-key`, `private_key_id`, `AccountKey`), but must end
 * it: `max_tokens` and `token_count` are not names. Plain `key` is not one either (`cache key`,
 * `sort_key`); an upper-case environment name ending in `_KEY` is (ENV_SECRET below).
 */
const NAMES =
  '(?:authorization|bearer|passw(?:or)?d|passphrase|secret|token|credentials?|cookies?|' +
  '(?:api|access|secret|private|signing|encryption|master|session|account|shared[_-]?access)[_-]?key|' +
  'private[_-]?key[_-]?id)';
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
 * An environment-style assignment whose upper-case name ends in a word that means a credential:
 * `OPENAI_KEY=…`, `SERVICE_API_KEYS: …`, `GOOGLE_CREDENTIALS=…`, `SENTRY_DSN=…`. Upper case only,
 * so `sort_key=name` in ordinary text is left alone.
 */
const ENV_SECRET =
  /(?<![A-Za-z0-9_])([A-Z][A-Z0-9_]*_(?:KEYS?|CREDENTIALS?|PAT|AUTH|DSN|CONN(?:ECTION)?_STRING))(\\?["']?\s*[:=]\s*)(\\?["']?)[^\s"'\\`,;]+/g;

/** A cookie header's whole value (every cookie in it): `Cookie: session=…; csrftoken=…`. */
const COOKIE_HEADER = /\b((?:set-)?cookie\s*:\s*)[^\r\n"'\\]+/gi;

/**
 * Regex alternatives grouped by their first character, `s(?:k-|ig=)|g(?:h[pousr]_|…)|…`: V8 then
 * tries one group per position instead of every alternative, which keeps a prefilter of fifty
 * forms about as fast as one of ten.
 */
function byFirstCharacter(alternatives: readonly string[]): string {
  const groups = new Map<string, string[]>();
  for (const a of alternatives) {
    const first = a.startsWith('\\') ? a.slice(0, 2) : a[0]!;
    const rest = groups.get(first) ?? [];
    rest.push(a.slice(first.length));
    groups.set(first, rest);
  }
  return [...groups].map(([first, rests]) => `${first}(?:${rests.join('|')})`).join('|');
}

/**
 * Superset tests, one per stage: text with none of a stage's fragments holds nothing that stage
 * would redact, and is not scanned by it. The forms' anchors (and the environment names' suffixes)
 * are matched as written; the names in any case, and only where a separator follows them, so
 * "tokens" and "keyboard" in ordinary messages do not send the text down the slow path. Apart
 * because they fail apart: most text that names a token (a system prompt) holds no key form.
 */
const FORM_ANCHORS = new RegExp(
  byFirstCharacter([...SECRET_FORMS.map((f) => f.anchor), '_(?:KEYS?|CREDENTIALS?|PAT|AUTH|DSN|STRING)\\b']),
);
const NAME_ANCHORS =
  /:\/\/|(?:authorization|bearer|passw(?:or)?d|passphrase|secret|token|credentials?|cookies?|key|key[_-]?id)[\\"'\s:=]/i;

/** The shortest text any pattern can match: `token=x`, `a://:x@`. */
const MIN_SECRET_TEXT = 7;

export const REDACTED = '[REDACTED]';

/** Idempotent: what it leaves is `[REDACTED]`, which no pattern takes for a secret but itself. */
export function redact(text: string): string {
  if (text.length < MIN_SECRET_TEXT) return text;
  const forms = FORM_ANCHORS.test(text);
  const names = NAME_ANCHORS.test(text);
  if (!forms && !names) return text;
  let out = forms ? text.replace(FORMS, REDACTED).replace(ENV_SECRET, `$1$2$3${REDACTED}`) : text;
  if (names) out = redactNames(out);
  return out;
}

/** The forms and environment names in any case: for text a scanner lower-cased. */
const FORMS_ANY_CASE = new RegExp(FORMS.source, 'gi');
const ENV_SECRET_ANY_CASE = new RegExp(ENV_SECRET.source, 'gi');
const FORM_ANCHORS_ANY_CASE = new RegExp(FORM_ANCHORS.source, 'i');

/**
 * `redact` for text whose case was changed (the prompt-injection scan lower-cases what it reads,
 * and its excerpts come from that text): provider prefixes and environment names are matched in
 * any case. It may hide a little more than `redact` would (`sort_key=x`); it never hides less.
 */
export function redactLowercased(text: string): string {
  if (text.length < MIN_SECRET_TEXT) return text;
  const forms = FORM_ANCHORS_ANY_CASE.test(text);
  const names = NAME_ANCHORS.test(text);
  let out = forms
    ? text.replace(FORMS_ANY_CASE, REDACTED).replace(ENV_SECRET_ANY_CASE, `$1$2$3${REDACTED}`)
    : text;
  if (names) out = redactNames(out);
  return out;
}

/** URL passwords, cookie headers and the values names announce (case never mattered for these). */
function redactNames(text: string): string {
  return text
    .replace(URL_CREDENTIALS, `$1${REDACTED}@`)
    .replace(COOKIE_HEADER, `$1${REDACTED}`)
    .replace(
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
