/**
 * What a tool call writes: whether it changes the state the agent works on (a file, the repository,
 * installed packages, an API's records), read from what the call does — its command text and the
 * shape of its arguments — not from one agent's tool names. The loop detectors need it because a
 * write between two runs of the same test makes the second run a new attempt, not a repeat
 * (callStates.ts).
 *
 * In order, the first rule that speaks decides:
 * 1. An editor's command field (`command`, `action`, `operation`): `create`, `str_replace`,
 *    `insert`, `undo_edit`, `write`, `append`, `delete`, … write; `view`, `read`, `open`, `list`,
 *    `search`, … read (an OpenHands-style `str_replace_editor` with `command: "view"` reads).
 * 2. A shell command (a string argument named `command`, `cmd`, `script`, `code` or `input`, a list
 *    of them under `commands`, or the arguments themselves when they are a string): written when one
 *    of its parts (split at `&&`, `||`, `;`, `|` and new lines outside quotes) redirects into a
 *    file (`>`, `>>`, not `/dev/null` or another descriptor), edits in place (`sed -i`,
 *    `perl -pi`), applies a patch (`git apply`, `patch`), changes the tree (`cp`, `mv`, `rm`,
 *    `mkdir`, `touch`, `tee`, `git checkout|reset|stash|commit|…`), installs (`pip install`,
 *    `npm install`, `python setup.py develop`), runs Python whose inline code opens a file for
 *    writing, or is an interface command that edits (`edit 12:14`, `create`, `insert`, `append`,
 *    SWE-agent style). Quoted text and heredoc bodies are data, not commands.
 * 3. The arguments carry new content for a file (`file_text`, `new_str`, `new_string`, `content`
 *    beside a `path`/`file`), or a `patch`/`diff`: a write.
 * 4. The tool's name, by its verb: a name that starts with a reading verb (`get_`, `search`,
 *    `list`, `find`, `read`, `view`, `lookup`, …) reads; one with a changing verb (`create`,
 *    `update`, `cancel`, `book`, `send`, `write_patch`, `apply`, `delete`, …) writes — an API call
 *    that changes state.
 * Anything else reads: running a test or a script is an observation (what it writes on the side,
 * `.pyc` files, caches, is not the agent's work).
 *
 * A write also says whether it took effect when the call failed: a shell command whose write ran
 * before a later part failed (`sed -i … && pytest`) did change the file; an editor call that failed
 * (an edit rejected by a linter, `old_str` not found) changed nothing. A replace-style edit keeps
 * what it replaced with what, so an edit that undoes an earlier one can be told (`str_replace` of
 * B by A after A by B; `sed -i 's/b/a/'` after `sed -i 's/a/b/'`).
 */
import type { ToolStep } from '../../../trace/schema.js';

/** A replace-style edit: in `target`, `from` became `to`. */
export interface Replacement {
  target: string;
  from: string;
  to: string;
}

export interface WriteFacts {
  /** The call changes state when it runs. */
  writes: boolean;
  /** The change happened even though the call reported a failure (a later part of it failed). */
  effectEvenIfFailed: boolean;
  /** `str_replace_editor`'s `undo_edit` and the like: back to the state before the last edit. */
  undo: boolean;
  /** The edit, when it is a replacement whose inverse can be recognised. */
  replacement?: Replacement;
  /** Which rule decided, for evidence and tests: "editor command str_replace", "shell: sed -i", … */
  reason: string;
}

const READS = (reason: string): WriteFacts => ({
  writes: false,
  effectEvenIfFailed: false,
  undo: false,
  reason,
});

/** Editor commands (rule 1), compared lowercased. */
const EDITOR_WRITES = new Set([
  'create',
  'str_replace',
  'replace',
  'insert',
  'undo_edit',
  'write',
  'overwrite',
  'append',
  'edit',
  'delete',
  'remove',
  'rename',
  'move',
  'patch',
  'apply_patch',
]);
const EDITOR_READS = new Set(['view', 'read', 'open', 'show', 'list', 'ls', 'cat', 'search', 'find', 'grep']);
const EDITOR_COMMAND_KEYS = ['command', 'action', 'operation', 'op'] as const;

/** Argument names that hold a shell command (rule 2). */
const SHELL_KEYS = ['command', 'cmd', 'script', 'code', 'input', 'commands'] as const;
/** Argument names that carry a file's new content (rule 3), and those that name the file. */
const CONTENT_KEYS = ['file_text', 'new_str', 'new_string', 'content', 'contents', 'new_content', 'text'];
const PATH_KEYS = ['path', 'file', 'file_path', 'filepath', 'filename', 'target_file', 'relative_path'];
const PATCH_KEYS = ['patch', 'diff', 'edits'];

/** Verbs of tool names (rule 4). */
const READ_VERBS = new Set([
  'get',
  'list',
  'search',
  'find',
  'read',
  'view',
  'open',
  'show',
  'fetch',
  'lookup',
  'look',
  'query',
  'check',
  'count',
  'calculate',
  'compute',
  'think',
  'browse',
  'describe',
  'inspect',
  'explore',
  'scroll',
  'goto',
  'grep',
  'cat',
  'ls',
  'retrieve',
  'verify',
  'validate',
  'download',
  'print',
  'display',
  'summarize',
  'analyze',
  'filter',
]);
const WRITE_VERBS = new Set([
  'create',
  'write',
  'edit',
  'update',
  'modify',
  'patch',
  'apply',
  'insert',
  'replace',
  'append',
  'delete',
  'remove',
  'rename',
  'move',
  'set',
  'put',
  'post',
  'add',
  'cancel',
  'book',
  'reserve',
  'send',
  'transfer',
  'pay',
  'reset',
  'install',
  'commit',
  'push',
  'merge',
  'save',
  'upload',
  'schedule',
  'reschedule',
  'assign',
  'change',
  'exchange',
  'invite',
  'share',
  'store',
  'register',
  'submit',
  'approve',
  'refund',
  'return',
  'checkout',
  'purchase',
  'buy',
  'confirm',
]);

/** A name's words: `str_replace_editor` → str, replace, editor; `lookupOrder` → lookup, order. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function byName(name: string): WriteFacts {
  const words = wordsOf(name);
  if (words.length === 0) return READS('no name');
  if (READ_VERBS.has(words[0]!)) return READS(`name ${name}: reading verb ${words[0]}`);
  const verb = words.find((w) => WRITE_VERBS.has(w));
  return verb
    ? { writes: true, effectEvenIfFailed: false, undo: false, reason: `name ${name}: verb ${verb}` }
    : READS(`name ${name}: no changing verb`);
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * The replacement a write's arguments spell out (old and new text, in either editor's key names),
 * in the file its path key names: spread into a WriteFacts, nothing when either text is missing.
 */
function replacementIn(args: Record<string, unknown>): { replacement?: Replacement } {
  const from = str(args.old_str) ?? str(args.old_string);
  const to = str(args.new_str) ?? str(args.new_string);
  if (from === undefined || to === undefined) return {};
  const target = PATH_KEYS.map((k) => str(args[k])).find((v) => v !== undefined) ?? '';
  return { replacement: { target, from, to } };
}

/** Rule 1: an editor command field with a known value. */
function byEditorCommand(args: Record<string, unknown>): WriteFacts | undefined {
  for (const key of EDITOR_COMMAND_KEYS) {
    const value = str(args[key])?.trim().toLowerCase();
    // A command field holding a shell command ("ls -la") is rule 2's, not an editor command.
    if (value === undefined || /\s/.test(value)) continue;
    if (EDITOR_READS.has(value)) return READS(`editor ${key} ${value}`);
    if (!EDITOR_WRITES.has(value)) continue;
    return {
      writes: true,
      effectEvenIfFailed: false,
      undo: value === 'undo_edit',
      ...replacementIn(args),
      reason: `editor ${key} ${value}`,
    };
  }
  return undefined;
}

/** Rule 3: new content for a named file, or a patch. */
function byContentShape(args: Record<string, unknown>): WriteFacts | undefined {
  const patch = PATCH_KEYS.find((k) => args[k] !== undefined && args[k] !== null && args[k] !== '');
  if (patch) return { writes: true, effectEvenIfFailed: false, undo: false, reason: `argument ${patch}` };
  const hasPath = PATH_KEYS.some((k) => typeof args[k] === 'string');
  const content = CONTENT_KEYS.find((k) => typeof args[k] === 'string');
  if (!hasPath || !content) return undefined;
  return {
    writes: true,
    effectEvenIfFailed: false,
    undo: false,
    ...replacementIn(args),
    reason: `argument ${content} for a file`,
  };
}

// ---- Shell commands (rule 2) ----

/** Longest command text read: a 200 kB heredoc is judged by its command lines, not its body. */
const MAX_COMMAND_CHARS = 20_000;

/** The command with heredoc bodies taken out (kept apart: Python in them may write files). */
function splitHeredocs(text: string): { command: string; bodies: string[] } {
  const lines = text.split('\n');
  const out: string[] = [];
  const bodies: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    out.push(line);
    const opened = [...line.matchAll(/<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1/g)].map((m) => m[2]!);
    for (const delimiter of opened) {
      const body: string[] = [];
      while (i + 1 < lines.length && lines[i + 1]!.trim() !== delimiter) body.push(lines[++i]!);
      if (i + 1 < lines.length) i++; // the delimiter line
      bodies.push(body.join('\n'));
    }
  }
  return { command: out.join('\n'), bodies };
}

/** Quoted strings blanked (their content is data: `echo "a > b"` redirects nothing). */
const unquoted = (text: string): string => text.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, "''");

/** The text with quoted content hidden, length kept: separators inside quotes are not separators. */
const hideQuoted = (text: string): string =>
  text.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, (q) => `${q[0]}${'_'.repeat(q.length - 2)}${q[q.length - 1]}`);

/** The command's parts, in order, with the operator that follows each (quoted text is not split). */
function partsOf(command: string): { text: string; then: string }[] {
  const parts: { text: string; then: string }[] = [];
  const re = /&&|\|\||[;|\n]/g;
  let last = 0;
  for (const m of hideQuoted(command).matchAll(re)) {
    parts.push({ text: command.slice(last, m.index).trim(), then: m[0] });
    last = m.index + m[0].length;
  }
  parts.push({ text: command.slice(last).trim(), then: '' });
  return parts.filter((p) => p.text !== '');
}

/** A redirection into a file: `> f`, `>> f`, `1> f`, not `2>&1`, `>&2` or `> /dev/null`. */
const REDIRECT = /(?:^|[^<>&\d-])\d?>>?\s*(?!&|\/dev\/null\b)[^\s&|;<>]/;

const TREE_PROGRAMS = new Set([
  'cp',
  'mv',
  'rm',
  'rmdir',
  'mkdir',
  'touch',
  'ln',
  'tee',
  'truncate',
  'patch',
  'dd',
]);
const GIT_WRITES = new Set([
  'apply',
  'am',
  'checkout',
  'reset',
  'restore',
  'stash',
  'commit',
  'cherry-pick',
  'revert',
  'merge',
  'rebase',
  'rm',
  'mv',
  'clean',
  'pull',
  'switch',
  'add',
]);
/** SWE-agent-style interface commands that edit the open file or make one. */
const INTERFACE_WRITES = new Set(['edit', 'create', 'insert', 'append']);
const INSTALLERS =
  /^(?:pip3?|python3?\s+-m\s+pip|uv\s+pip|npm|yarn|pnpm|conda|apt(?:-get)?)\s+(?:install|uninstall|add|remove)\b/;
const SETUP = /^python3?\s+setup\.py\s+(?:develop|install|build_ext|build)\b/;
/** Python that opens a file for writing or changes the tree. */
const PYTHON_WRITES =
  /\bopen\([^)]*,\s*(?:mode\s*=\s*)?['"][wax]b?\+?['"]|\.write_(?:text|bytes)\(|\bshutil\.(?:copy|move|rmtree)|\bos\.(?:remove|rename|replace|unlink|makedirs|mkdir)\(|\.unlink\(/;

/** The part without the words that only set it up: `VAR=1`, `sudo`, `env`, `timeout 60`, a `(`. */
function programOf(part: string): string {
  let p = part.replace(/^\(+\s*/, '');
  for (;;) {
    const next = p
      .replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, '')
      .replace(/^(?:sudo|env|time|nohup|exec)\s+/, '')
      .replace(/^timeout\s+\S+\s+/, '');
    if (next === p) return p;
    p = next;
  }
}

/** `s/a/b/` of a sed in-place edit, when its script is one simple substitution. */
function sedReplacement(part: string): Replacement | undefined {
  const m = /^sed\s+(?:-\S+\s+)*'s(.)((?:(?!\1).)*)\1((?:(?!\1).)*)\1[gI]*'\s+(\S+)\s*$/.exec(part);
  return m ? { target: m[4]!, from: m[2]!, to: m[3]! } : undefined;
}

interface PartWrite {
  reason: string;
  replacement?: Replacement;
}

function partWrites(raw: string, bodies: readonly string[]): PartWrite | undefined {
  const part = programOf(raw);
  const bare = unquoted(part);
  const [program = '', sub = ''] = bare.split(/\s+/);
  if (REDIRECT.test(bare)) return { reason: 'shell: redirect into a file' };
  if (program === 'sed' && /\s(?:-[a-zA-Z]*i|--in-place)/.test(` ${bare}`)) {
    const replacement = sedReplacement(part);
    return { reason: 'shell: sed -i', ...(replacement ? { replacement } : {}) };
  }
  if ((program === 'perl' || program === 'ruby') && /\s-[a-zA-Z]*i/.test(` ${bare}`))
    return { reason: `shell: ${program} -i` };
  if (TREE_PROGRAMS.has(program)) return { reason: `shell: ${program}` };
  if (program === 'git' && GIT_WRITES.has(sub)) return { reason: `shell: git ${sub}` };
  if (INSTALLERS.test(bare) || SETUP.test(bare)) return { reason: 'shell: install' };
  if (INTERFACE_WRITES.has(program)) return { reason: `interface command ${program}` };
  if (/^python3?\b/.test(program)) {
    const inline = /\s-c\s/.test(` ${bare}`) ? part : '';
    if (PYTHON_WRITES.test(inline) || (/<</.test(part) && bodies.some((b) => PYTHON_WRITES.test(b))))
      return { reason: 'shell: python writing a file' };
  }
  return undefined;
}

/** Rule 2: what a shell command writes. */
export function shellWrites(text: string): WriteFacts {
  const { command, bodies } = splitHeredocs(
    text.length > MAX_COMMAND_CHARS ? text.slice(0, MAX_COMMAND_CHARS) : text,
  );
  const parts = partsOf(command);
  let found: (PartWrite & { index: number }) | undefined;
  let earlyEffect = false;
  parts.forEach((p, index) => {
    const w = partWrites(p.text, bodies);
    if (!w) return;
    found ??= { ...w, index };
    // A write followed by `&&`, `;` or a new line ran before whatever failed after it.
    if (index < parts.length - 1 && p.then !== '||' && p.then !== '|') earlyEffect = true;
  });
  if (!found) return READS('shell: no write');
  // One replacement is an edit that can be undone; a command of several writes is not one edit.
  const only = parts.filter((p) => partWrites(p.text, bodies)).length === 1;
  const hit: PartWrite & { index: number } = found;
  return {
    writes: true,
    effectEvenIfFailed: earlyEffect,
    undo: false,
    ...(only && hit.replacement ? { replacement: hit.replacement } : {}),
    reason: hit.reason,
  };
}

function shellText(args: unknown): string | undefined {
  if (typeof args === 'string') return args;
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return undefined;
  const o = args as Record<string, unknown>;
  for (const k of SHELL_KEYS) {
    const v = o[k];
    if (typeof v === 'string' && v.trim() !== '') return v;
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.join('\n');
  }
  return undefined;
}

/** What the tool call writes, by the module's rules. */
export function writeOf(step: Pick<ToolStep, 'name' | 'args'>): WriteFacts {
  const args = step.args;
  const object =
    args !== null && typeof args === 'object' && !Array.isArray(args)
      ? (args as Record<string, unknown>)
      : undefined;
  if (object) {
    const editor = byEditorCommand(object);
    if (editor) return editor;
  }
  const shell = shellText(args);
  if (shell !== undefined) {
    const w = shellWrites(shell);
    // A shell command that writes nothing reads, whatever the tool's name says (`run_command`).
    return w;
  }
  if (object) {
    const shaped = byContentShape(object);
    if (shaped) return shaped;
  }
  return byName(step.name);
}
