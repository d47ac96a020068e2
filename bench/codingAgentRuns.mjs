// Generated runs of coding agents of four designs, for bench/datasets.mjs to show how the detectors
// hold on each design (the figures that matter are the held-out ones on real recordings; these
// show the designs the shared samples do not have). Seeded: every run of the bench writes the same
// bytes. Native JSONL, one run a line, each with its outcome (`resolved` or not).
//
// Designs, in the shapes their harnesses record (tool names, argument shapes, result wording; no
// dataset text):
//   bash-only        one `bash` command a turn, `<returncode>`/`<output>` results, a non-zero code an
//                    error, format errors fed back as user messages (mini-swe-agent style);
//   interface        `open`, `goto`, `scroll_down`, `search_dir`, `search_file`, `find_file`,
//                    `edit`, `create`, `submit` as tools, anything else through `bash` (SWE-agent);
//   search-patch     search APIs named in the assistant's prose, answered by the harness with their
//                    results and a fixed prompt every round, then `write_patch` calls (Agentless /
//                    AutoCodeRover style);
//   two-tools        `execute_bash` and `str_replace_editor` function calls, up to 50 (OpenHands).
//
// A resolved-like run explores, reproduces, edits and re-runs (the same failure may come back after
// an edit), pages through files, greps for things that are not there, re-reads a file after
// editing it, reinstalls after an edit, gets an odd format error, and passes. An unresolved-like run
// does the same and does not pass; 45 % of them also carry a real pathology: the same command with
// the same output run again and again with nothing in between, the same edit rejected three or
// more times, an edit undone and redone with the tests printing what they printed before, or a
// streak of format rejections.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { rng } from './traces.mjs';

export const DESIGNS = ['bash-only', 'interface', 'search-patch', 'two-tools'];

const pick = (r, xs) => xs[Math.floor(r() * xs.length)];
const int = (r, lo, hi) => lo + Math.floor(r() * (hi - lo + 1));

const MODULES = [
  'lexer',
  'parser',
  'fields',
  'units',
  'table',
  'query',
  'render',
  'config',
  'dates',
  'cache',
];
const FUNCS = ['tokenize', 'parse', 'render', 'to_html', 'convert', 'validate', 'merge', 'resolve', 'format'];
/** Words that tell pages and attempts apart (numbers alone do not: they are masked when replies are compared). */
const WORDS = ['first', 'second', 'third', 'fourth', 'fifth'];
const ERRORS = ['AssertionError', 'TypeError', 'ValueError', 'KeyError', 'IndexError', 'AttributeError'];

/** One abstract run: what the agent does, in order, independent of how its design records it. */
function plan(r, resolved) {
  const mod = pick(r, MODULES);
  const fn = pick(r, FUNCS);
  const file = `src/${mod}.py`;
  const err = pick(r, ERRORS);
  const acts = [];
  const read = (what, target, text) => acts.push({ kind: 'read', what, target, text });
  read('list', '.', `setup.py\nsrc\ntests\nREADME.md`);
  read('grep', fn, `${file}:${int(r, 10, 200)}:def ${fn}(value):`);
  if (r() < 0.5) read('grep', `${fn}_legacy`, ''); // looked for, not there
  if (r() < 0.4) read('grep', `${fn}_compat`, '');
  read('view', file, `def ${fn}(value):\n    return value.split(" ")`);
  if (r() < 0.4)
    for (let p = 1; p <= int(r, 2, 3); p++)
      read(
        'page',
        file,
        `lines ${p * 100}-${p * 100 + 99} of ${file}: def ${pick(r, FUNCS)}_${WORDS[p]}(value)`,
      );
  acts.push({
    kind: 'create',
    target: 'repro.py',
    text: `from src.${mod} import ${fn}\nprint(${fn}('a  b'))`,
  });
  const failure = `${err}: ${fn}('a  b') gave ['a', '', 'b']`;
  acts.push({ kind: 'run', cmd: 'python repro.py', ok: false, text: failure });
  const edits = int(r, 1, 4);
  for (let e = 0; e < edits; e++) {
    const last = e === edits - 1;
    if (r() < 0.15) acts.push({ kind: 'edit', target: file, from: `v${e}`, to: `v${e}!`, rejected: true });
    acts.push({ kind: 'edit', target: file, from: `v${e}`, to: `v${e + 1}` });
    if (r() < 0.2)
      acts.push({ kind: 'run', cmd: 'pip install -e .', ok: true, text: 'Successfully installed' });
    if (r() < 0.3) read('view', file, `def ${fn}(value):\n    return value.split() # ${WORDS[e]} attempt`);
    const passes = last && resolved;
    // After an edit the same failure may come back: a new attempt, not a loop.
    acts.push({
      kind: 'run',
      cmd: 'python repro.py',
      ok: passes,
      text: passes ? "['a', 'b']" : r() < 0.5 ? failure : `${err}: still ${e}`,
    });
  }
  if (r() < 0.15) acts.push({ kind: 'rejection' });
  const testCmd = `python -m pytest tests/test_${mod}.py -q`;
  acts.push({
    kind: 'run',
    cmd: testCmd,
    ok: resolved,
    text: resolved ? `${int(r, 5, 40)} passed` : `1 failed: test_${fn}`,
  });
  const fault = !resolved && r() < 0.45 ? pathology(r, acts, { file, testCmd, fn }) : undefined;
  acts.push({ kind: 'submit' });
  return { acts, mod, fn, file, fault };
}

/** A real failure of the loop kind, appended to an unresolved run. */
function pathology(r, acts, { file, testCmd, fn }) {
  const which = pick(r, ['same-command', 'same-edit-rejected', 'undo-redo', 'rejections']);
  if (which === 'same-command') {
    for (let i = 0; i < int(r, 3, 5); i++)
      acts.push({ kind: 'run', cmd: testCmd, ok: false, text: `1 failed: test_${fn}` });
  } else if (which === 'same-edit-rejected') {
    for (let i = 0; i < int(r, 3, 4); i++)
      acts.push({ kind: 'edit', target: file, from: 'zz', to: 'yy', rejected: true });
  } else if (which === 'undo-redo') {
    for (let i = 0; i < 2; i++) {
      acts.push({ kind: 'edit', target: file, from: 'split(" ")', to: 'split()' });
      acts.push({ kind: 'run', cmd: testCmd, ok: false, text: `1 failed: test_empty` });
      acts.push({ kind: 'edit', target: file, from: 'split()', to: 'split(" ")' });
      acts.push({ kind: 'run', cmd: testCmd, ok: false, text: `1 failed: test_spaces` });
    }
  } else {
    for (let i = 0; i < int(r, 5, 6); i++) acts.push({ kind: 'rejection' });
  }
  return which;
}

const usage = (r) => ({ inputTokens: int(r, 4000, 40000), outputTokens: int(r, 50, 400) });
const turn = (r, name, args) => ({
  type: 'llm',
  model: 'gpt-4o',
  output: { role: 'assistant', content: 'THOUGHT: next step.', toolCalls: [{ name, arguments: args }] },
  usage: usage(r),
});
const toolStep = (name, args, text, ok = true) =>
  ok
    ? { type: 'tool', name, args, status: 'ok', result: text }
    : { type: 'tool', name, args, status: 'error', error: text };
const prose = (r, text) => ({ type: 'llm', model: 'gpt-4o', output: text, usage: usage(r) });
const harness = (content) => ({ type: 'message', from: 'user', content });

const FORMAT_ERROR = (n) =>
  `Please always provide EXACTLY ONE action in triple backticks, found ${n} actions. Please format your action as shown in the example.`;

/** A call of `name` with `args`: the turn that issued it and its result. */
const call = (r, steps, name, args, text, ok = true) =>
  steps.push(turn(r, name, args), toolStep(name, args, text, ok));

/** A `sed -n` window of a file: the lines a page read shows. */
const sedWindow = (a) =>
  `sed -n '${(a.what === 'page' ? a.text.split(' ')[1] : '1-60').replace('-', ',')}p' ${a.target}`;

function bashOnly(r, { acts }) {
  const steps = [];
  const wrap = (code, text) => `<returncode>${code}</returncode>\n<output>\n${text}\n</output>`;
  const sh = (cmd, ok, text) =>
    call(
      r,
      steps,
      'bash',
      { command: cmd },
      ok ? wrap(0, text) : `Error: returncode 1\n${wrap(1, text)}`,
      ok,
    );
  for (const a of acts) {
    if (a.kind === 'read' && a.what === 'grep') sh(`grep -rn "def ${a.target}" src/`, a.text !== '', a.text);
    else if (a.kind === 'read' && a.what === 'list') sh('ls', true, a.text);
    else if (a.kind === 'read') sh(sedWindow(a), true, a.text);
    else if (a.kind === 'create') sh(`cat <<'EOF' > ${a.target}\n${a.text}\nEOF`, true, '');
    else if (a.kind === 'edit' && a.rejected)
      sh(
        `sed -i 's/${a.from}/${a.to}/' ${a.target}x`,
        false,
        `sed: can't read ${a.target}x: No such file or directory`,
      );
    else if (a.kind === 'edit') sh(`sed -i 's/${a.from}/${a.to}/' ${a.target}`, true, '');
    else if (a.kind === 'run') sh(a.cmd, a.ok, a.text);
    else if (a.kind === 'rejection')
      steps.push(
        prose(r, 'THOUGHT: two things.\n```bash\nls\n```\n```bash\npwd\n```'),
        harness(FORMAT_ERROR(2)),
      );
    else
      sh('echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached', true, 'diff --git');
  }
  return steps;
}

const LINT_REJECTED =
  'Your proposed edit has introduced new syntax error(s).\nERRORS:\n- E999 IndentationError: unexpected indent\nYour changes have NOT been applied.';

function interfaceCommands(r, { acts, file }) {
  const steps = [];
  const c = (name, args, text, ok = true) => call(r, steps, name, args, text, ok);
  let line = 1;
  for (const a of acts) {
    if (a.kind === 'read' && a.what === 'grep')
      c(
        'search_dir',
        { search_term: a.target },
        a.text ? `Found 1 matches:\n${a.text}` : `No matches found for "${a.target}"`,
      );
    else if (a.kind === 'read' && a.what === 'list')
      c('find_file', { file_name: file.split('/')[1] }, `Found 1 matches:\n/repo/${file}`);
    else if (a.kind === 'read' && a.what === 'page')
      c('scroll_down', {}, `[File: /repo/${file}]\n${(line += 100)}: ${a.text}`);
    else if (a.kind === 'read') c('open', { path: a.target }, `[File: /repo/${a.target}]\n1: ${a.text}`);
    else if (a.kind === 'create')
      c('create', { filename: a.target }, `[File: /repo/${a.target} (1 lines total)]`);
    else if (a.kind === 'edit' && a.rejected)
      c('edit', { line_range: '12:12', replacement_text: `  ${a.to}` }, LINT_REJECTED, false);
    else if (a.kind === 'edit')
      c('edit', { line_range: '12:12', replacement_text: `    return ${a.to}` }, 'File updated.');
    else if (a.kind === 'run') c('bash', { command: a.cmd }, a.text, a.ok);
    else if (a.kind === 'rejection')
      steps.push(
        prose(r, 'I will open the file and edit it.'),
        harness(
          'Your output was not formatted correctly. You must always include one discussion and one command.',
        ),
      );
    else c('submit', {}, 'diff --git a/src b/src');
  }
  return steps;
}

const ROUND_PROMPT =
  'Based on your analysis, answer below questions:\n- do we need more context: construct search API calls to get more context of the project.\n- where are bug locations: buggy files and methods.';

function searchThenPatch(r, { acts, fn, file }) {
  const steps = [];
  let round = 0;
  for (const a of acts) {
    if (a.kind === 'read' || a.kind === 'create') {
      const api =
        a.kind === 'create'
          ? `search_method("${fn}")`
          : a.what === 'grep'
            ? `search_code("${a.target}")`
            : `search_class("${a.target}")`;
      round++;
      steps.push(
        prose(r, `Let me look further: ${api}`),
        harness(`Result of ${api} (round ${round}):\n${a.text || 'Not found.'}`),
      );
      steps.push(prose(r, `Analysis of round ${round}: the bug is near ${file}.`), harness(ROUND_PROMPT));
    } else if (a.kind === 'edit') {
      const body = `--- a/${file}\n+++ b/${file}\n-${a.from}${a.rejected ? 'x' : ''}\n+${a.to}`;
      const result = a.rejected
        ? 'Error: the patch could not be applied: context does not match'
        : 'Patch applied.';
      call(r, steps, 'write_patch', { patch: body }, result, !a.rejected);
    } else if (a.kind === 'run') call(r, steps, 'run_tests', { command: a.cmd }, a.text, a.ok);
    else if (a.kind === 'rejection')
      steps.push(
        prose(r, 'I am not sure which API to call here.'),
        harness('Could not parse your answer into search API calls: "which API". Use the API names given.'),
      );
  }
  return steps;
}

function twoTools(r, { acts }) {
  const steps = [];
  const exit = (code) =>
    `\n[The command completed with exit code ${code}.]\n[Current working directory: /workspace/repo]`;
  const bash = (cmd, ok, text) =>
    call(r, steps, 'execute_bash', { command: cmd }, `${text}${exit(ok ? 0 : 1)}`);
  const editor = (args, text, ok = true) => call(r, steps, 'str_replace_editor', args, text, ok);
  const at = (t) => `/workspace/repo/${t}`;
  const replace = (a) => ({ command: 'str_replace', path: at(a.target), old_str: a.from, new_str: a.to });
  for (const a of acts) {
    if (a.kind === 'read' && a.what === 'grep') bash(`grep -rn "def ${a.target}" src`, a.text !== '', a.text);
    else if (a.kind === 'read' && a.what === 'list')
      editor({ command: 'view', path: at('') }, `Files:\n${a.text}`);
    else if (a.kind === 'read' && a.what === 'page')
      editor(
        { command: 'view', path: at(a.target), view_range: a.text.split(' ')[1].split('-').map(Number) },
        a.text,
      );
    else if (a.kind === 'read') editor({ command: 'view', path: at(a.target) }, a.text);
    else if (a.kind === 'create')
      editor(
        { command: 'create', path: at(a.target), file_text: a.text },
        `File created successfully at: ${at(a.target)}`,
      );
    else if (a.kind === 'edit' && a.rejected)
      editor(
        replace(a),
        `ERROR:\nNo replacement was performed, old_str \`${a.from}\` did not appear verbatim in ${at(a.target)}.`,
        false,
      );
    else if (a.kind === 'edit')
      editor(replace(a), `The file ${at(a.target)} has been edited.\n    12\t    ${a.to}`);
    else if (a.kind === 'run') bash(a.cmd, a.ok, a.text);
    else if (a.kind === 'rejection')
      steps.push(
        prose(r, 'I have made the change.'),
        harness(
          'Please continue working on the task on whatever approach you think is suitable. If you think you have solved the task, please finish the interaction.',
        ),
      );
    else call(r, steps, 'finish', { message: 'Done' }, 'Finished.');
  }
  return steps.slice(0, 100); // up to 50 calls
}

const RENDER = {
  'bash-only': bashOnly,
  interface: interfaceCommands,
  'search-patch': searchThenPatch,
  'two-tools': twoTools,
};

/** `n` runs of one design (half resolved-like, alternating), as native traces. */
export function codingAgentRuns(design, n = 200, seed = 28) {
  const r = rng(seed + DESIGNS.indexOf(design) * 7919);
  const runs = [];
  for (let i = 0; i < n; i++) {
    const resolved = i % 4 < 2; // both halves (line parity) get resolved and unresolved runs
    const p = plan(r, resolved);
    runs.push({
      id: `${design}-${String(i).padStart(3, '0')}`,
      agentId: design,
      status: 'ok',
      output: 'Submitted.',
      outcome: { success: resolved, source: 'generated' },
      ...(p.fault ? { metadata: { fault: p.fault } } : {}),
      steps: RENDER[design](r, p),
    });
  }
  return runs;
}

/** Writes each design's runs to `dir/<design>.jsonl`; returns the files. */
export function writeCodingAgentRuns(dir, n = 200) {
  mkdirSync(dir, { recursive: true });
  return DESIGNS.map((design) => {
    const file = path.join(dir, `${design}.jsonl`);
    writeFileSync(
      file,
      `${codingAgentRuns(design, n)
        .map((t) => JSON.stringify(t))
        .join('\n')}\n`,
    );
    return { design, file };
  });
}
