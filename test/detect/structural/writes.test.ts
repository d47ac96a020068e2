/**
 * What a tool call writes (writes.ts): by its command text and the shape of its arguments, for every
 * agent design — a bash-only agent's commands, interface commands, function-call editors, API calls.
 */
import { describe, expect, it } from 'vitest';
import { shellWrites, writeOf } from '../../../src/detect/detectors/structural/writes.js';

const bash = (command: string) => writeOf({ name: 'bash', args: { command } });

describe('writeOf: shell commands', () => {
  it.each([
    ['sed -i \'s/split(" ")/split()/\' parser.py', 'shell: sed -i'],
    ["cd /testbed && sed -i.bak -e 's/a/b/' x.py", 'shell: sed -i'],
    ["cat <<'EOF' > reproduce.py\nprint(1 > 0)\nEOF", 'shell: redirect into a file'],
    ['echo "x = 1" >> settings.py', 'shell: redirect into a file'],
    ['git apply fix.patch', 'shell: git apply'],
    ['git checkout -- src/parser.py', 'shell: git checkout'],
    ['git stash', 'shell: git stash'],
    ['patch -p1 < fix.diff', 'shell: patch'],
    ['rm -rf build && mkdir build', 'shell: rm'],
    ['pip install -e .', 'shell: install'],
    ['python setup.py develop', 'shell: install'],
    ["perl -pi -e 's/a/b/' x.pl", 'shell: perl -i'],
    ["python - <<'EOF'\nopen('x.py', 'w').write('y = 2')\nEOF", 'shell: python writing a file'],
    ["python -c \"from pathlib import Path; Path('x').write_text('1')\"", 'shell: python writing a file'],
    ['timeout 60 tee notes.txt', 'shell: tee'],
  ])('%s writes (%s)', (command, reason) => {
    expect(bash(command)).toMatchObject({ writes: true, reason });
  });

  it.each([
    'ls -la',
    'python reproduce.py',
    'cd /testbed && python -m pytest tests/test_io.py -x 2>&1 | tail -20',
    'grep -rn "def parse" src/ 2>/dev/null',
    "sed -n '40,60p' src/parser.py",
    'git diff',
    'git status && git log -1',
    'echo "a > b" | cat',
    "python -c 'print(3 > 2)'",
    'find . -name "*.py" | xargs grep -l parse',
    "python - <<'EOF'\nprint(open('x.py').read())\nEOF",
  ])('%s reads', (command) => {
    expect(bash(command).writes).toBe(false);
  });

  it('a write before a later part of the command took effect even if the command failed', () => {
    expect(shellWrites("sed -i 's/a/b/' x.py && python -m pytest")).toMatchObject({
      writes: true,
      effectEvenIfFailed: true,
    });
    expect(shellWrites("python -m pytest && sed -i 's/a/b/' x.py")).toMatchObject({
      writes: true,
      effectEvenIfFailed: false,
    });
    expect(shellWrites("sed -i 's/a/b/' x.py")).toMatchObject({ effectEvenIfFailed: false });
  });

  it('keeps the replacement of a one-substitution sed, so its inverse can be told', () => {
    expect(shellWrites("sed -i 's/count + 1/count/' src/util.py").replacement).toEqual({
      target: 'src/util.py',
      from: 'count + 1',
      to: 'count',
    });
    expect(shellWrites("sed -i 's/a/b/' x.py && sed -i 's/c/d/' y.py").replacement).toBeUndefined();
  });

  it('reads the command whether the arguments are a string or a command list', () => {
    expect(writeOf({ name: 'terminal', args: 'touch marker' }).writes).toBe(true);
    expect(writeOf({ name: 'run', args: { commands: ['cd /repo', 'git apply x.diff'] } }).writes).toBe(true);
  });
});

describe('writeOf: interface commands (SWE-agent style)', () => {
  it.each([
    ['edit 12:14\n    return []\nend_of_edit', true],
    ['create reproduce.py', true],
    ['open src/parser.py 40', false],
    ['search_file "def parse" src/parser.py', false],
    ['search_dir parse', false],
    ['find_file parser.py', false],
    ['goto 120', false],
    ['scroll_down', false],
    ['submit', false],
  ])('%s → writes %s', (command, writes) => {
    expect(bash(command).writes).toBe(writes);
  });

  it('a tool named after the command is read by its verb', () => {
    expect(writeOf({ name: 'edit', args: { line_range: '12:14', replacement_text: 'x' } }).writes).toBe(true);
    expect(writeOf({ name: 'search_file', args: { search_term: 'parse' } }).writes).toBe(false);
    expect(writeOf({ name: 'open', args: { path: 'x.py' } }).writes).toBe(false);
  });
});

describe('writeOf: function-call editors (OpenHands style)', () => {
  it('decides by the editor command, whatever the tool is named', () => {
    const editor = (args: Record<string, unknown>) => writeOf({ name: 'str_replace_editor', args });
    expect(editor({ command: 'view', path: '/repo/x.py' }).writes).toBe(false);
    expect(editor({ command: 'create', path: '/repo/r.py', file_text: 'print(1)' }).writes).toBe(true);
    expect(editor({ command: 'insert', path: '/repo/x.py', insert_line: 3, new_str: 'y' }).writes).toBe(true);
    expect(editor({ command: 'undo_edit', path: '/repo/x.py' })).toMatchObject({ writes: true, undo: true });
    expect(editor({ command: 'str_replace', path: '/repo/x.py', old_str: 'a', new_str: 'b' })).toMatchObject({
      writes: true,
      replacement: { target: '/repo/x.py', from: 'a', to: 'b' },
    });
  });

  it('takes a command field holding a shell command as a shell command', () => {
    expect(writeOf({ name: 'execute_bash', args: { command: 'python reproduce.py' } }).writes).toBe(false);
    expect(writeOf({ name: 'execute_bash', args: { command: 'git apply /tmp/p.diff' } }).writes).toBe(true);
  });

  it('reads new content for a named file, or a patch, as a write', () => {
    expect(writeOf({ name: 'fs', args: { path: 'a.txt', content: 'hello' } }).writes).toBe(true);
    expect(writeOf({ name: 'write_patch', args: { patch: '--- a/x.py\n+++ b/x.py' } }).writes).toBe(true);
    expect(writeOf({ name: 'fs', args: { path: 'a.txt' } }).writes).toBe(false);
  });
});

describe('writeOf: API calls', () => {
  it.each([
    ['get_reservation_details', false],
    ['search_direct_flight', false],
    ['lookupOrder', false],
    ['list_all_airports', false],
    ['think', false],
    ['cancel_reservation', true],
    ['update_reservation_flights', true],
    ['book_reservation', true],
    ['send_email', true],
    ['add_user_to_channel', true],
    ['createCalendarEvent', true],
    ['transfer_to_human_agents', true],
  ])('%s → writes %s', (name, writes) => {
    expect(writeOf({ name, args: { id: 'R1' } }).writes).toBe(writes);
  });
});
