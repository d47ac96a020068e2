import { describe, expect, it } from 'vitest';
import {
  callFacts,
  findRepeats,
  nearIdentical,
  newResults,
  outcomeOf,
  repeatLoops,
  retries,
  textSimilarity,
} from '../../../src/detect/detectors/structural/repetition.js';
import { statesOf } from '../../../src/detect/detectors/structural/callStates.js';
import type { ToolStep } from '../../../src/trace/schema.js';
import { makeTrace, tool } from '../../helpers/traceBuilder.js';

/** The tool steps of a trace built from the given steps, as tool calls. */
function calls(...steps: Parameters<typeof makeTrace>[0]) {
  return makeTrace(steps).steps.map((step, i) => ({ step: step as ToolStep, no: i + 1 }));
}
const facts = (...steps: Parameters<typeof makeTrace>[0]) => calls(...steps).map((c, i) => callFacts(c, i));

describe('outcomeOf', () => {
  it('tells an empty lookup from a call that returned no value, and both from a value', () => {
    const [empty, none, silent, value, err, unrecorded] = calls(
      tool('search', { result: [] }),
      tool('add_user', { result: 'None' }),
      tool('bash', { result: '<returncode>0</returncode>\n<output>\n</output>' }),
      tool('bash', { result: '<returncode>0</returncode><output>3 passed</output>' }),
      tool('bash', { status: 'error', error: 'Error: returncode 1' }),
      tool('search'),
    ).map((c) => outcomeOf(c.step).kind);
    expect([empty, none, silent, value, err, unrecorded]).toEqual([
      'empty',
      'void',
      'void',
      'value',
      'error',
      'unrecorded',
    ]);
  });

  it('masks memory addresses and collapses whitespace, so reruns of one failure compare equal', () => {
    const [a, b] = calls(
      tool('bash', { result: 'obj: <function f at 0x7165f92a0700>\n  done' }),
      tool('bash', { result: 'obj: <function f at 0x7ca15aed34c0> done' }),
    ).map((c) => outcomeOf(c.step).text);
    expect(a).toBe(b);
  });
});

describe('nearIdentical', () => {
  it('takes a small change in free text as the same request, a different id as another', () => {
    const [py, py3, user1, user2] = facts(
      tool('bash', { args: { command: 'python reproduce.py' } }),
      tool('bash', { args: { command: 'python3 reproduce.py' } }),
      tool('add_user', { args: { channel: 'general', user: 'Alice' } }),
      tool('add_user', { args: { channel: 'general', user: 'Bob' } }),
    );
    expect(nearIdentical(py!, py3!)).toBe(true);
    expect(nearIdentical(user1!, user2!)).toBe(false);
  });

  it('never for unrecorded arguments, other tools or other argument fields', () => {
    const [a, b, c, d] = facts(
      tool('bash'),
      tool('bash'),
      tool('sh', { args: { command: 'python reproduce.py' } }),
      tool('bash', { args: { command: 'python reproduce.py', timeout: 5 } }),
    );
    expect(nearIdentical(a!, b!)).toBe(false);
    expect(nearIdentical(c!, d!)).toBe(false);
  });

  it('compares long texts by their start, so a huge heredoc costs a bounded amount', () => {
    const long = 'x'.repeat(300_000);
    expect(textSimilarity(`${long}a`, `${long}b`)).toBe(1);
  });
});

describe('findRepeats and repeatLoops', () => {
  it('finds the round of calls made again and the requests made three times', () => {
    const f = facts(
      tool('get', { args: { id: 1 }, result: 'a' }),
      tool('get', { args: { id: 2 }, result: 'b' }),
      tool('get', { args: { id: 1 }, result: 'a' }),
      tool('get', { args: { id: 2 }, result: 'b' }),
      tool('get', { args: { id: 1 }, result: 'a' }),
    );
    const repeats = findRepeats(f, 5);
    expect(repeats.map((r) => r?.of)).toEqual([undefined, undefined, 0, 1, 2]);
    const [loop] = repeatLoops(repeats, f, 3, 5);
    expect(loop).toEqual({ repeats: [2, 3, 4], core: [2, 4], calls: [0, 1, 2, 3, 4], fresh: [] });
  });

  it('no loop from a repeat that is further back than the window', () => {
    const f = facts(
      tool('get', { args: { id: 1 } }),
      tool('a'),
      tool('b'),
      tool('c'),
      tool('d'),
      tool('get', { args: { id: 1 } }),
    );
    expect(findRepeats(f, 5)[5]).toBeUndefined();
  });
});

describe("findRepeats with the run's states", () => {
  it('a re-run after a write is no repeat; after a failed write or a read, it is', () => {
    const steps = calls(
      tool('bash', { args: { command: 'pytest' }, result: '1 failed' }),
      tool('bash', { args: { command: "sed -i 's/a/b/' x.py" }, result: '' }),
      tool('bash', { args: { command: 'pytest' }, result: '1 failed' }),
      tool('bash', { args: { command: "sed -i 's/c/d/' q.py" }, status: 'error', error: 'no such file' }),
      tool('bash', { args: { command: 'pytest' }, result: '1 failed' }),
    );
    const f = steps.map((c, i) => callFacts(c, i));
    const repeats = findRepeats(f, 5, statesOf(steps));
    expect(repeats[2]).toBeUndefined();
    expect(repeats[4]).toMatchObject({ of: 2, exact: true, same: true });
    // Without the states, the edit is not seen.
    expect(findRepeats(f, 5)[2]).toMatchObject({ of: 0, same: true });
  });

  it('a write repeats only the identical write', () => {
    const steps = calls(
      tool('bash', { args: { command: "cat > a.py <<'EOF'\nx = 1\nEOF" }, result: '' }),
      tool('bash', { args: { command: "cat > a.py <<'EOF'\n  x = 1\nEOF" }, result: '' }),
      tool('bash', { args: { command: "cat > a.py <<'EOF'\n  x = 1\nEOF" }, result: '' }),
    );
    const repeats = findRepeats(
      steps.map((c, i) => callFacts(c, i)),
      5,
      statesOf(steps),
    );
    expect(repeats[1]).toBeUndefined();
    expect(repeats[2]).toMatchObject({ of: 1, exact: true });
  });
});

describe('outcomeOf: the envelope is not the outcome', () => {
  it('compares tool messages by their content, not their ids', () => {
    const wrap = (id: string) => ({ role: 'tool', tool_call_id: id, content: 'Order A-17: shipped' });
    const [a, b] = calls(
      tool('lookupOrder', { result: wrap('c1') }),
      tool('lookupOrder', { result: wrap('c2') }),
    ).map((c) => outcomeOf(c.step));
    expect(a).toEqual({ kind: 'value', text: 'Order A-17: shipped' });
    expect(b).toEqual(a);
  });

  it('takes an envelope that says the call failed as an error', () => {
    const [o] = calls(
      tool('x', { result: { type: 'tool_result', tool_use_id: 't', content: 'denied', is_error: true } }),
    );
    expect(outcomeOf(o!.step)).toEqual({ kind: 'error', text: 'denied' });
  });
});

describe('newResults', () => {
  it('counts later calls that brought back a value not seen before, leaving out calls with no value', () => {
    expect(
      newResults(
        calls(
          tool('s', { result: 'a' }),
          tool('s', { result: [] }),
          tool('s', { result: 'None' }),
          tool('s', { result: 'a' }),
          tool('s', { result: 'b' }),
        ),
      ),
    ).toEqual({ fresh: 1, of: 3 });
  });

  it('counts a new error as new, and the same result in another state as a new attempt', () => {
    const steps = calls(
      tool('bash', { status: 'error', error: 'AssertionError: 2 != 3' }),
      tool('bash', { status: 'error', error: 'AssertionError: 2 != 3' }),
      tool('bash', { status: 'error', error: 'AssertionError: 2 != 4' }),
      tool('bash', { status: 'error', error: 'AssertionError: 2 != 3' }),
    );
    expect(newResults(steps)).toEqual({ fresh: 1, of: 3 });
    expect(newResults(steps, [0, 0, 0, 1])).toEqual({ fresh: 2, of: 3 });
  });
});

describe('retries', () => {
  it('a different command with a different error is not a retry; the same error is', () => {
    const [grep, test, grep2] = facts(
      tool('bash', { args: { command: 'pip list | grep mysql' }, status: 'error', error: 'returncode 1' }),
      tool('bash', {
        args: { command: 'python -c "import MySQLdb"' },
        status: 'error',
        error: 'ModuleNotFoundError: MySQLdb',
      }),
      tool('bash', {
        args: { command: 'pip freeze | grep -i mysql' },
        status: 'error',
        error: 'returncode 1',
      }),
    );
    expect(retries(grep!, test!)).toBe(false);
    expect(retries(grep!, grep2!)).toBe(true);
  });

  it('the same operation on another entity, or with a near command, is a retry', () => {
    const [a, b, c, d] = facts(
      tool('pay', { args: { booking: 'B1', card: 'c1' }, status: 'error', error: 'card declined' }),
      tool('pay', { args: { booking: 'B1', card: 'c2' }, status: 'error', error: 'insufficient funds' }),
      tool('bash', { args: { command: 'pytest tests/test_q.py' }, status: 'error', error: 'exit 2' }),
      tool('bash', {
        args: { command: 'pytest -W ignore tests/test_q.py' },
        status: 'error',
        error: 'exit 1',
      }),
    );
    expect(retries(a!, b!)).toBe(true);
    expect(retries(c!, d!)).toBe(true);
  });
});

describe('callFacts on hostile arguments', () => {
  it('keeps a __proto__ argument as a key when normalising whitespace, so it still tells requests apart', () => {
    const [a, b] = facts(
      tool('t', { args: JSON.parse('{"__proto__": {"x": "a  b"}, "q": "one"}') }),
      tool('t', { args: JSON.parse('{"__proto__": {"x": "a b"}, "q": "two"}') }),
    );
    expect(a!.key).toContain('__proto__');
    expect(a!.key).not.toBe(b!.key);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
