/**
 * The state each tool call ran against (callStates.ts): writes that took effect move the run on;
 * failed writes, the same write again, an edit undone and redone bring it back where it was.
 */
import { describe, expect, it } from 'vitest';
import { sameState, statesOf } from '../../../src/detect/detectors/structural/callStates.js';
import type { ToolStep } from '../../../src/trace/schema.js';
import { makeTrace, tool } from '../../helpers/traceBuilder.js';

function states(...steps: Parameters<typeof makeTrace>[0]) {
  const calls = makeTrace(steps).steps.map((step, i) => ({ step: step as ToolStep, no: i + 1 }));
  return statesOf(calls);
}
const bash = (command: string, status: 'ok' | 'error' = 'ok') =>
  tool(
    'bash',
    status === 'ok' ? { args: { command }, result: 'ok' } : { args: { command }, status, error: 'Error' },
  );
const replace = (from: string, to: string, status: 'ok' | 'error' = 'ok') =>
  tool('str_replace_editor', {
    args: { command: 'str_replace', path: '/repo/x.py', old_str: from, new_str: to },
    status,
    ...(status === 'error' ? { error: 'No replacement was performed' } : { result: 'edited' }),
  });

describe('statesOf', () => {
  it('a test re-run after an edit ran against another state; with only reads between, the same one', () => {
    const s = states(
      bash('pytest'),
      bash('cat x.py'),
      bash('pytest'),
      bash("sed -i 's/a/b/' x.py"),
      bash('pytest'),
    );
    expect([...s.before]).toEqual([0, 0, 0, 0, 1]);
    expect(s.effect).toEqual(['none', 'none', 'none', 'new', 'none']);
    expect(sameState(s, 0, 2)).toBe(true);
    expect(sameState(s, 2, 4)).toBe(false);
  });

  it('a failed edit changes nothing; a failed command whose write ran first does', () => {
    const s = states(
      replace('a', 'b', 'error'),
      bash('pytest'),
      bash("sed -i 's/a/b/' x.py && pytest", 'error'),
      bash('pytest'),
    );
    expect(s.effect).toEqual(['failed', 'none', 'new', 'none']);
    expect([...s.before]).toEqual([0, 0, 0, 1]);
  });

  it('the same write again leaves the state it made; an edit undone and redone returns to known states', () => {
    const s = states(
      replace('a', 'b'),
      replace('a', 'b'),
      bash('pytest'),
      replace('b', 'a'),
      bash('pytest'),
      replace('a', 'b'),
      bash('pytest'),
    );
    expect([...s.after]).toEqual([1, 1, 1, 0, 0, 1, 1]);
    expect(s.effect).toEqual(['new', 'seen', 'none', 'seen', 'none', 'seen', 'none']);
    // The third test ran against the state the first one did.
    expect(sameState(s, 2, 6)).toBe(true);
    expect(sameState(s, 2, 4)).toBe(false);
  });

  it("an editor's undo_edit goes back to the state before the last edit", () => {
    const s = states(
      replace('a', 'b'),
      replace('c', 'd'),
      tool('str_replace_editor', { args: { command: 'undo_edit', path: '/repo/x.py' }, result: 'undone' }),
    );
    expect([...s.after]).toEqual([1, 2, 1]);
  });

  it('a round of writes made again, in the same order, changes nothing the first round did not', () => {
    const send = (to: string) =>
      tool('send_direct_message', { args: { recipient: to, body: 'Congrats!' }, result: 'None' });
    const s = states(send('Alice'), send('Bob'), send('Eve'), send('Alice'), send('Bob'), send('Eve'));
    expect(sameState(s, 0, 3)).toBe(true);
    expect(sameState(s, 2, 5)).toBe(true);
    // Another edit between two runs of a build is no round made again.
    const b = states(
      bash('pip install -e .'),
      bash("sed -i 's/a/b/' setup.py"),
      bash('pip install -e .'),
      bash("sed -i 's/c/d/' setup.py"),
      bash('pip install -e .'),
    );
    expect(sameState(b, 2, 4)).toBe(false);
  });

  it('different edits each make a new state, and API calls that change records count as writes', () => {
    const s = states(
      tool('get_reservation_details', { args: { id: 'R1' }, result: { status: 'active' } }),
      tool('cancel_reservation', { args: { id: 'R1' }, result: { status: 'cancelled' } }),
      tool('get_reservation_details', { args: { id: 'R1' }, result: { status: 'cancelled' } }),
    );
    expect([...s.before]).toEqual([0, 0, 1]);
    expect(s.writeReason[1]).toMatch(/verb cancel/);
  });
});
