/**
 * Runs of coding agents of four designs, written for these tests in the shapes those designs record
 * (tool names, argument shapes and result wording as their harnesses have them; no dataset text):
 *
 * - bashOnly: one `bash` command a turn, results in `<returncode>`/`<output>` tags, a non-zero
 *   return code an error (mini-swe-agent style);
 * - interface: interface commands as tools (`open`, `goto`, `scroll_down`, `search_dir`,
 *   `search_file`, `find_file`, `edit`, `create`, `submit`), anything else through `bash`
 *   (SWE-agent style);
 * - searchThenPatch: search APIs named in prose in the assistant's text (`search_class("Parser")`),
 *   the harness answering with their results and a fixed prompt every round, then a `write_patch`
 *   thread (Agentless / AutoCodeRover style);
 * - twoTools: two function-call tools, `execute_bash` and `str_replace_editor` (`view`, `create`,
 *   `str_replace`, `insert`, `undo_edit`), OpenHands CodeAct style.
 *
 * Each design has good runs (edit-then-rerun cycles, two-tool work, searching until found: no
 * finding) and real loops (the same command and output with nothing in between, the same edit
 * rejected three times, edits undone and redone with the same outputs).
 */
import type { TraceInput } from '../../src/trace/schema.js';

type StepInput = NonNullable<TraceInput['steps']>[number];

const usage = { inputTokens: 3_000, outputTokens: 120 };

/** An assistant turn that calls `name` with `args`, and the tool's answer. */
function call(name: string, args: Record<string, unknown>, result: string, failed = false): StepInput[] {
  return [
    {
      type: 'llm',
      model: 'gpt-4o',
      output: { role: 'assistant', content: 'THOUGHT: next step.', toolCalls: [{ name, arguments: args }] },
      usage,
    },
    failed
      ? { type: 'tool', name, args, status: 'error', error: result }
      : { type: 'tool', name, args, status: 'ok', result },
  ];
}

const trace = (id: string, steps: StepInput[][], fields: Partial<TraceInput> = {}): TraceInput => ({
  id,
  agentId: id.split('/')[0]!,
  status: 'ok',
  output: 'Submitted the fix.',
  steps: steps.flat(),
  ...fields,
});

// ---- (a) bash-only, one command a turn ----

const out = (code: number, text: string) => `<returncode>${code}</returncode>\n<output>\n${text}\n</output>`;
const sh = (command: string, code: number, text: string) =>
  call(
    'bash',
    { command },
    code === 0 ? out(0, text) : `Error: returncode ${code}\n${out(code, text)}`,
    code !== 0,
  );

export const bashOnly = {
  /** Explore, reproduce, fix, re-run after each edit (the same failure twice), pass, test, submit. */
  editThenRerun: trace('bash-only/good', [
    sh('ls -la', 0, 'setup.py\nsrc\ntests'),
    sh('grep -rn "def tokenize" src/', 0, 'src/lexer.py:12:def tokenize(text):'),
    sh("sed -n '1,40p' src/lexer.py", 0, 'def tokenize(text):\n    return text.split(" ")'),
    sh("cat <<'EOF' > repro.py\nfrom src.lexer import tokenize\nprint(tokenize('a  b'))\nEOF", 0, ''),
    sh('python repro.py', 1, "AssertionError: ['a', '', 'b'] has an empty token"),
    sh('sed -i \'s/split(" ")/split(" ") if text else []/\' src/lexer.py', 0, ''),
    sh('python repro.py', 1, "AssertionError: ['a', '', 'b'] has an empty token"),
    sh('sed -i \'s/split(" ") if text else \\[\\]/split()/\' src/lexer.py', 0, ''),
    sh('python repro.py', 1, "AssertionError: ['a', '', 'b'] has an empty token"),
    sh("sed -i 's/return text.split()/return [t for t in text.split() if t]/' src/lexer.py", 0, ''),
    sh('python repro.py', 0, "['a', 'b']"),
    sh('python -m pytest tests/test_lexer.py -q', 0, '12 passed in 0.31s'),
    sh('git diff', 0, 'diff --git a/src/lexer.py b/src/lexer.py'),
  ]),
  /** The same command, the same output, nothing in between: a loop. */
  sameCommandSameOutput: trace('bash-only/loop', [
    sh('ls', 0, 'setup.py src tests'),
    sh(
      'python -m pytest tests/test_lexer.py -q',
      1,
      'FAILED tests/test_lexer.py::test_split - AssertionError',
    ),
    sh(
      'python -m pytest tests/test_lexer.py -q',
      1,
      'FAILED tests/test_lexer.py::test_split - AssertionError',
    ),
    sh(
      'python -m pytest tests/test_lexer.py -q',
      1,
      'FAILED tests/test_lexer.py::test_split - AssertionError',
    ),
  ]),
  /** The same edit rejected three times (the file does not exist). */
  sameEditRejected: trace('bash-only/rejected-edit', [
    sh('ls src', 0, 'lexer.py parser.py'),
    sh("sed -i 's/a/b/' src/lexr.py", 2, "sed: can't read src/lexr.py: No such file or directory"),
    sh("sed -i 's/a/b/' src/lexr.py", 2, "sed: can't read src/lexr.py: No such file or directory"),
    sh("sed -i 's/a/b/' src/lexr.py", 2, "sed: can't read src/lexr.py: No such file or directory"),
  ]),
};

// ---- (b) interface commands, else bash ----

const window = (file: string, first: number, lines: string[]) =>
  `[File: ${file} (220 lines total)]\n${lines.map((l, i) => `${first + i}:${l}`).join('\n')}`;
const LINT_REJECTED =
  'Your proposed edit has introduced new syntax error(s). Please read this error message carefully and then retry editing the file.\n\nERRORS:\n- E999 IndentationError: unexpected indent\n\nYour changes have NOT been applied. Please fix your edit command and try again.';

export const interfaceCommands = {
  /** Find, open, page through, edit, run, edit again, run, submit. */
  editThenRerun: trace('interface/good', [
    call(
      'find_file',
      { file_name: 'lexer.py' },
      'Found 1 matches for "lexer.py" in /repo:\n/repo/src/lexer.py',
    ),
    call('open', { path: 'src/lexer.py' }, window('src/lexer.py', 1, ['import re', 'def tokenize(text):'])),
    call(
      'scroll_down',
      {},
      window('src/lexer.py', 101, ['def join(tokens):', '    return " ".join(tokens)']),
    ),
    call('scroll_down', {}, window('src/lexer.py', 201, ['def strip(text):', '    return text.strip()'])),
    call(
      'search_file',
      { search_term: 'split' },
      'Found 2 matches for "split" in /repo/src/lexer.py:\nLine 12: return text.split(" ")',
    ),
    call(
      'edit',
      { line_range: '12:12', replacement_text: '    return text.split()' },
      'File updated. Please review the changes.',
    ),
    call('bash', { command: 'python repro.py' }, "['a', '', 'b']"),
    call(
      'edit',
      { line_range: '12:12', replacement_text: '    return [t for t in text.split() if t]' },
      'File updated.',
    ),
    call('bash', { command: 'python repro.py' }, "['a', 'b']"),
    call('submit', {}, 'diff --git a/src/lexer.py b/src/lexer.py'),
  ]),
  /** Paging through a file with the same command: what changes is the window (tier 2 clears it). */
  pagingThrough: trace('interface/paging', [
    call('open', { path: 'src/lexer.py' }, window('src/lexer.py', 1, ['import re', 'def tokenize(text):'])),
    call('scroll_down', {}, window('src/lexer.py', 101, ['def join(tokens):'])),
    call('scroll_down', {}, window('src/lexer.py', 201, ['def strip(text):'])),
    call('scroll_down', {}, window('src/lexer.py', 301, ['def untokenize(tokens):'])),
    call('edit', { line_range: '302:302', replacement_text: '    return " ".join(tokens)' }, 'File updated.'),
  ]),
  /** The same edit, rejected by the linter, sent three times. */
  sameEditRejected: trace('interface/rejected-edit', [
    call('open', { path: 'src/lexer.py' }, window('src/lexer.py', 1, ['import re', 'def tokenize(text):'])),
    call('edit', { line_range: '12:12', replacement_text: '      return text.split()' }, LINT_REJECTED, true),
    call('edit', { line_range: '12:12', replacement_text: '      return text.split()' }, LINT_REJECTED, true),
    call('edit', { line_range: '12:12', replacement_text: '      return text.split()' }, LINT_REJECTED, true),
  ]),
};

// ---- (c) search APIs named in prose, then a write_patch thread ----

/** An assistant turn in prose, with no tool call. */
const prose = (text: string): StepInput => ({ type: 'llm', model: 'gpt-4o', output: text, usage });
const harness = (content: string): StepInput => ({ type: 'message', from: 'user', content });
const ROUND_PROMPT =
  'Based on your analysis, answer below questions:\n- do we need more context: construct search API calls to get more context of the project. (leave it empty if you do not need more context)\n- where are bug locations: buggy files and methods. (leave it empty if you do not have enough information)';

export const searchThenPatch = {
  /** Four rounds of searching, each answered with results and the fixed round prompt, then patches. */
  goodRun: trace('search-patch/good', [
    [
      prose('search_class("Lexer")'),
      harness('Result of search_class("Lexer"):\nFound class Lexer in src/lexer.py.'),
    ],
    [prose('The class Lexer holds the tokenizer. Let me look at its methods.'), harness(ROUND_PROMPT)],
    [
      prose('search_method_in_class("tokenize", "Lexer")'),
      harness('Result of search_method_in_class:\ndef tokenize(self, text): return text.split(" ")'),
    ],
    [prose('tokenize splits on single spaces, producing empty tokens.'), harness(ROUND_PROMPT)],
    [
      prose('search_code("split(\\" \\")")'),
      harness('Result of search_code:\nsrc/lexer.py:12 and src/cli.py:40'),
    ],
    [prose('Both call sites split on a single space.'), harness(ROUND_PROMPT)],
    [
      prose('search_method("join_tokens")'),
      harness('Result of search_method:\ndef join_tokens(tokens) in src/cli.py'),
    ],
    [prose('Bug location: src/lexer.py, Lexer.tokenize.'), harness(ROUND_PROMPT)],
    call(
      'write_patch',
      {
        patch:
          '--- a/src/lexer.py\n+++ b/src/lexer.py\n-        return text.split(" ")\n+        return text.split()',
      },
      'Error: the patch could not be applied: context does not match',
      true,
    ),
    call(
      'write_patch',
      {
        patch:
          '--- a/src/lexer.py\n+++ b/src/lexer.py\n-    return text.split(" ")\n+    return text.split()',
      },
      'Patch applied: 1 file changed.',
    ),
  ]),
  /** The same patch, refused the same way, three times. */
  samePatchRejected: trace('search-patch/rejected-patch', [
    [
      prose('search_class("Lexer")'),
      harness('Result of search_class("Lexer"):\nFound class Lexer in src/lexer.py.'),
    ],
    ...Array.from({ length: 3 }, () =>
      call(
        'write_patch',
        {
          patch: '--- a/src/lexer.py\n+++ b/src/lexer.py\n-  return text.split(" ")\n+  return text.split()',
        },
        'Error: the patch could not be applied: context does not match',
        true,
      ),
    ),
  ]),
  /** Answers the harness could not parse, refused for the same reason each time. */
  unparsedAnswers: trace('search-patch/unparsed', [
    [
      prose('I think we should look at the lexer.'),
      harness(
        'Could not parse your answer into search API calls: "look at the lexer". Use the API names given.',
      ),
    ],
    [
      prose('Look at tokenize, please.'),
      harness(
        'Could not parse your answer into search API calls: "tokenize, please". Use the API names given.',
      ),
    ],
    [
      prose('The lexer, then.'),
      harness('Could not parse your answer into search API calls: "The lexer". Use the API names given.'),
    ],
  ]),
};

// ---- (d) two function-call tools: execute_bash and str_replace_editor ----

const exit = (code: number) =>
  `\n[The command completed with exit code ${code}.]\n[Current working directory: /workspace/repo]`;
const run = (command: string, code: number, text: string) =>
  call('execute_bash', { command }, `${text}${exit(code)}`);
const editor = (args: Record<string, unknown>, result: string, failed = false) =>
  call('str_replace_editor', args, result, failed);
const view = (path: string, text: string) => editor({ command: 'view', path }, text);
const replace = (old_str: string, new_str: string) =>
  editor(
    { command: 'str_replace', path: '/workspace/repo/src/lexer.py', old_str, new_str },
    `The file /workspace/repo/src/lexer.py has been edited. Here's the result of running \`cat -n\` on a snippet:\n    12\t    ${new_str}`,
  );
const NOT_FOUND = (s: string) =>
  `ERROR:\nNo replacement was performed, old_str \`${s}\` did not appear verbatim in /workspace/repo/src/lexer.py.`;

export const twoTools = {
  /** View, reproduce, edit, rerun, edit, rerun, view again, test: always alternating, always moving. */
  editThenRerun: trace('two-tools/good', [
    view('/workspace/repo', 'Here are the files: src/ tests/ setup.py'),
    run('grep -rn "def tokenize" src', 0, 'src/lexer.py:11:def tokenize(text):'),
    view('/workspace/repo/src/lexer.py', '    11\tdef tokenize(text):\n    12\t    return text.split(" ")'),
    run('python -c "from src.lexer import tokenize; print(tokenize(\'a  b\'))"', 0, "['a', '', 'b']"),
    replace('return text.split(" ")', 'return text.split(" ") or []'),
    run('python -c "from src.lexer import tokenize; print(tokenize(\'a  b\'))"', 0, "['a', '', 'b']"),
    replace('return text.split(" ") or []', 'return text.split()'),
    run('python -c "from src.lexer import tokenize; print(tokenize(\'a  b\'))"', 0, "['a', 'b']"),
    view('/workspace/repo/src/lexer.py', '    11\tdef tokenize(text):\n    12\t    return text.split()'),
    run('python -m pytest tests/test_lexer.py -q', 1, '1 failed, 11 passed: test_empty_string'),
    replace('return text.split()', 'return text.split() if text else []'),
    run('python -m pytest tests/test_lexer.py -q', 0, '12 passed in 0.29s'),
    editor(
      {
        command: 'create',
        path: '/workspace/repo/tests/test_spaces.py',
        file_text: 'def test_spaces(): ...',
      },
      'File created successfully',
    ),
    run('python -m pytest tests -q', 0, '13 passed in 0.41s'),
  ]),
  /** The same str_replace, refused three times: old_str is not in the file. */
  sameEditRejected: trace('two-tools/rejected-edit', [
    view('/workspace/repo/src/lexer.py', '    12\t    return text.split(" ")'),
    ...Array.from({ length: 3 }, () =>
      editor(
        {
          command: 'str_replace',
          path: '/workspace/repo/src/lexer.py',
          old_str: 'return text.split( " ")',
          new_str: 'return text.split()',
        },
        NOT_FOUND('return text.split( " ")'),
        true,
      ),
    ),
  ]),
  /** An edit undone and redone, the test printing the same two outputs: thrashing. */
  undoRedo: trace('two-tools/undo-redo', [
    replace('return text.split(" ")', 'return text.split()'),
    run('python -m pytest tests -q', 1, '1 failed: test_empty_string'),
    replace('return text.split()', 'return text.split(" ")'),
    run('python -m pytest tests -q', 1, '1 failed: test_double_space'),
    replace('return text.split(" ")', 'return text.split()'),
    run('python -m pytest tests -q', 1, '1 failed: test_empty_string'),
    replace('return text.split()', 'return text.split(" ")'),
    run('python -m pytest tests -q', 1, '1 failed: test_double_space'),
  ]),
};
