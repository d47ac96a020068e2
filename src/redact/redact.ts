/**
 * Secrets are redacted before anything built from traces is printed or posted. Traces often carry
 * request headers, tool arguments and environment dumps; a key in a PR comment is a leaked key.
 *
 * Three kinds of secret are recognised: a credential by its own shape (credentialScan.ts: the
 * rules of gitleaks' default set and tracejury's own forms), a value a name announces
 * (`password=…`, `"api_key": "…"`, `Authorization: <any scheme> …`, `OPENAI_KEY=…`, `Cookie: …`,
 * `mysql -p…`, `curl -u user:…`), and the credentials of a URL (`https://user:pw@host`,
 * `https://<token>@host`). A bare high-entropy string with neither a known shape nor a name
 * before it is not recognised.
 *
 * Redaction runs on every signal of a run (tens of thousands on a large input), and nearly all of
 * that text holds no secret, so `redact` first asks two cheap questions (does the text hold any
 * credential's anchor? any name followed by a separator, or `://`?) and returns the text untouched
 * when it does not. The positive tests go through `redact`, so a form whose anchor does not cover
 * it fails them.
 */
import { CREDENTIAL_PATTERNS, createCredentialScanner } from './credentialScan.js';

/**
 * `scheme://user:password@host`: the password goes, the user and host stay (they say which
 * service failed). Greedy up to the last `@` before the path, as passwords often hold a raw `@`.
 */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*:)[^\s/?#]+@/gi;

/**
 * `https://<token>@host/`: a token as the URL's user (GitHub's `https://ghp_…@github.com/`, a
 * personal token in a clone URL). A user of sixteen characters or more with a digit is taken for
 * a token; `git@`, `deploy@` and e-mail-like users stay.
 */
const URL_USER_TOKEN = /\b([a-z][a-z0-9+.-]*:\/\/)(?=[^\s:/?#@]*\d)[^\s:/?#@]{16,}@/gi;

/**
 * Names whose value is a secret. A name may end a longer identifier (`DB_PASSWORD`,
 * `AWS_SECRET_ACCESS_KEY`, `dbPassword`, `x-api-key`, `private_key_id`, `AccountKey`,
 * `Ocp-Apim-Subscription-Key`), but must end it: `max_tokens` and `token_count` are not names.
 * Plain `key` is not one either (`cache key`, `sort_key`); an upper-case environment name ending in
 * `_KEY` is (ENV_SECRET below). The short names `pass`, `pwd`, `pw` and `auth` are names only
 * alone or after `_` or `-` (`db_pass`, `x-auth`), never inside a word (`bypass`, `oauth`).
 */
const NAMES =
  '(?:authorization|bearer|passw(?:or)?d|passphrase|secret|token|credentials?|cookies?|' +
  '(?:api|access|secret|private|signing|encryption|master|session|account|subscription|shared[_-]?access)[_-]?key|' +
  'private[_-]?key[_-]?id)';
const SHORT_NAMES = '(?:pass|pwd|pw|auth)';
const IDENT = `(?<![A-Za-z0-9_-])([A-Za-z0-9_-]*?${NAMES}|(?:[A-Za-z0-9_-]*[_-])?${SHORT_NAMES})`;
const SCHEME = '(?:(?:bearer|basic|token)\\s+)?';
/** Characters that end an unquoted value: it is one word of a header, a query or a JSON value. */
const BARE = '[^\\s"\'\\\\,;}{]';
/**
 * `password=hunter2`, `"api_key": "x y"`, `Authorization: Basic …`, `"password": ["a", "b"]`:
 * with an explicit `=` or `:` any non-empty value is a secret. A quoted value runs to its closing
 * quote (spaces and all); an array or object, to its closing bracket on the same line.
 * Groups: 1 name, 2 separator, 3 opening quote of the value.
 */
const EXPLICIT = `${IDENT}(\\\\?["']?\\s*[:=]\\s*)(?:(\\\\?["'])${SCHEME}[^"'\\\\\\n]+|\\[[^\\]\\n]{0,4000}\\]|\\{[^}\\n]{0,4000}\\}|${SCHEME}${BARE}+)`;
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
 * An authorization header's whole value, whatever its scheme (`Bot …`, `SSWS …`, `Digest
 * username="…", response="…"`, `ApiKey …`, `OAuth …`): the scheme word alone says nothing, the
 * rest of the line is the credential, a scheme's `name="value"` parameters included; a quote
 * otherwise ends it (the header quoted in JSON). `Bearer`, `Basic` and `Token` carry one word,
 * which NAMED_SECRET hides (what follows it on the line stays); a value already `[REDACTED]` is
 * left as it is, so redacting twice is redacting once. Written so that no character can
 * be taken two ways (a quote is taken only right after `=`): linear on any text. A quoted value is NAMED_SECRET's.
 */
const AUTHORIZATION_HEADER =
  /\b((?:proxy-)?authorization\s*:\s*)(?![\s"']|\\["']|(?:bearer|basic|token)\s|\[REDACTED\])(?:[^\r\n"'\\=]|=(?:"[^"\r\n]*")?)+/gi;

/** `mysql -pSECRET`, `mysqldump -u root -p'SECRET'`: the password glued to `-p`. */
const MYSQL_PASSWORD =
  /\b(mysql(?:dump|admin|sh|import)?\b[^\n]{0,200}?\s-p)(?:'[^'\n]*'|"[^"\n]*"|[^\s'"-][^\s'"]*)/gi;

/** `curl -u user:SECRET`, `curl --user=user:SECRET`: the password after the user. */
const CURL_USER = /\b(curl\b[^\n]{0,200}?\s(?:-u|--user)(?:\s+|=)['"]?[^\s:'"]*:)(?:[^\s'"]+)/gi;

/**
 * The environment names' suffixes, as written: with the credential patterns' anchors, what the
 * first prefilter looks for. The names (second prefilter) in any case, and only where a
 * separator follows them, so "tokens" and "keyboard" in ordinary messages do not send the text
 * down the slow path. Apart because they fail apart: most text that names a token (a system
 * prompt) holds no credential of known shape.
 */
const ENV_ANCHOR = '_(?:KEYS?|CREDENTIALS?|PAT|AUTH|DSN|STRING)\\b';
const NAME_ANCHORS =
  /:\/\/|mysql|curl|(?:authorization|bearer|pass(?:w(?:or)?d)?|passphrase|secret|token|credentials?|cookies?|key|key[_-]?id|pwd|pw|auth)[\\"'\s:=]/i;

const SCANNER = createCredentialScanner(CREDENTIAL_PATTERNS, { extraAnchors: [ENV_ANCHOR] });

/** The shortest text any pattern can match: `token=x`, `a://:x@`. */
const MIN_SECRET_TEXT = 7;

export const REDACTED = '[REDACTED]';

/** Idempotent: what it leaves is `[REDACTED]`, which no pattern takes for a secret but itself. */
export function redact(text: string): string {
  if (text.length < MIN_SECRET_TEXT) return text;
  const forms = SCANNER.mayHold(text);
  const names = NAME_ANCHORS.test(text);
  if (!forms && !names) return text;
  let out = forms ? SCANNER.replace(text, REDACTED).replace(ENV_SECRET, `$1$2$3${REDACTED}`) : text;
  if (names) out = redactNames(out);
  return out;
}

/** The credential patterns and environment names in any case: for text a scanner lower-cased. */
let anyCaseScanner: ReturnType<typeof createCredentialScanner> | undefined;
const ENV_SECRET_ANY_CASE = new RegExp(ENV_SECRET.source, 'gi');

/**
 * `redact` for text whose case was changed (the prompt-injection scan lower-cases what it reads,
 * and its excerpts come from that text): credential shapes and environment names are matched in
 * any case. It may hide a little more than `redact` would (`sort_key=x`); it never hides less.
 */
export function redactLowercased(text: string): string {
  if (text.length < MIN_SECRET_TEXT) return text;
  anyCaseScanner ??= createCredentialScanner(CREDENTIAL_PATTERNS, {
    extraAnchors: [ENV_ANCHOR],
    anyCase: true,
  });
  const forms = anyCaseScanner.mayHold(text);
  const names = NAME_ANCHORS.test(text);
  let out = forms
    ? anyCaseScanner.replace(text, REDACTED).replace(ENV_SECRET_ANY_CASE, `$1$2$3${REDACTED}`)
    : text;
  if (names) out = redactNames(out);
  return out;
}

/** URL credentials, headers, command-line passwords and the values names announce (any case). */
function redactNames(text: string): string {
  return text
    .replace(URL_CREDENTIALS, `$1${REDACTED}@`)
    .replace(URL_USER_TOKEN, `$1${REDACTED}@`)
    .replace(COOKIE_HEADER, `$1${REDACTED}`)
    .replace(AUTHORIZATION_HEADER, `$1${REDACTED}`)
    .replace(MYSQL_PASSWORD, `$1${REDACTED}`)
    .replace(CURL_USER, `$1${REDACTED}`)
    .replace(
      NAMED_SECRET,
      (_m, name?: string, sep?: string, quote?: string, spacedName?: string, space?: string) =>
        name !== undefined ? `${name}${sep}${quote ?? ''}${REDACTED}` : `${spacedName}${space}${REDACTED}`,
    );
}

/** Object keys (and header names) whose value is a secret whatever it looks like (`{ "password": "hunter2" }`). */
const SECRET_KEY = new RegExp(`^(?:[A-Za-z0-9_-]*?${NAMES}|(?:[A-Za-z0-9_-]*[_-])?${SHORT_NAMES})$`, 'i');

/**
 * Redacts every string inside a JSON value (a trace, evidence, a verdict), keys included, and
 * hides the whole value of a key named like a credential — a string, a number, or every string and
 * number of an array or object under it (`password: ["…"]`, `client_secret: { value: "…" }`). Also
 * what the name of a credential announces in structure rather than text: a `[name, value]` pair
 * (`["Authorization", "Bearer …"]`), a `{ name, value }` header (HAR's), and the lines of a private
 * key split across the elements of an array.
 *
 * Returns the value itself, not a copy, when nothing in it changed: almost all evidence holds no
 * secret, and copying it for every signal of a large run would cost memory.
 */
export function redactDeep<T>(value: T): T {
  return redactValue(value) as T;
}

/** A value under a credential's name: every string and number in it hidden, the shape kept. */
function hideAll(value: unknown): unknown {
  if (typeof value === 'string') return value === '' ? value : REDACTED;
  if (typeof value === 'number') return REDACTED;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(hideAll);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    define(copy, redact(key), hideAll((value as Record<string, unknown>)[key]));
  return copy;
}

/** Defined, not assigned: a key named `__proto__` stays a key and never becomes the prototype. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

const isSecretName = (name: unknown): boolean => typeof name === 'string' && SECRET_KEY.test(name);

/**
 * A header's name in a `[name, value]` pair: the long names only (`Authorization`, `x-api-key`,
 * `Cookie`), since a two-element list whose first word is `auth` or `pass` is as likely a list
 * of tool names as a header.
 */
const HEADER_NAME = new RegExp(`^[A-Za-z0-9_-]*?${NAMES}$`, 'i');

const PRIVATE_KEY_START = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/;
const PRIVATE_KEY_END = /-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/;

function redactArray(value: readonly unknown[]): unknown {
  // `["Authorization", "Bearer …"]`: a header as a pair.
  const [name, headerValue] = value;
  const headerPair =
    value.length === 2 &&
    typeof name === 'string' &&
    HEADER_NAME.test(name) &&
    headerValue !== '' &&
    typeof headerValue !== 'object';
  if (headerPair) return [redact(name), hideAll(headerValue)];
  let copy: unknown[] | undefined;
  let inKey = false;
  for (let i = 0; i < value.length; i++) {
    const was: unknown = value[i];
    let now: unknown;
    if (inKey && typeof was === 'string') {
      // A key's lines, one an element: hidden through the END line.
      inKey = !PRIVATE_KEY_END.test(was);
      now = REDACTED;
    } else {
      now = redactValue(was);
      if (typeof was === 'string' && PRIVATE_KEY_START.test(was) && !PRIVATE_KEY_END.test(was)) inKey = true;
    }
    if (now !== was) (copy ??= value.slice())[i] = now;
  }
  return copy ?? value;
}

function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redact(value);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return redactArray(value);
  const record = value as Record<string, unknown>;
  // `{ "name": "Authorization", "value": "Bearer …" }`: a header as HAR and many clients record it.
  const headerName = record.name ?? record.key;
  const namedValue = isSecretName(headerName) && 'value' in record;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const was = record[key];
    const hidden = (namedValue && key === 'value') || (isSecretName(key) && was !== '' && was !== null);
    const now = hidden && typeof was !== 'boolean' ? hideAll(was) : redactValue(was);
    // A key is text too (a detector id, a model name, a header a trace recorded): redacted as values are.
    const safeKey = redact(key);
    if (safeKey === key && now === was) continue;
    copy ??= { ...record };
    if (safeKey !== key) delete copy[key];
    define(copy, safeKey, now);
  }
  return copy ?? value;
}
