import { describe, expect, it } from 'vitest';
import { retryStorm } from '../../../src/detect/detectors/structural/retryStorm.js';
import { llm, makeTrace, tool } from '../../helpers/traceBuilder.js';
import { runDetector, testDetector } from '../tester.js';

const fail = (name: string, args?: unknown, error = 'timeout') =>
  tool(name, { status: 'error', error, ...(args === undefined ? {} : { args }) });

testDetector(retryStorm, {
  valid: [
    {
      name: 'a test failing again after each edit made with another tool: new attempts, not retries',
      trace: makeTrace([
        fail('bash', { command: 'python repro.py' }, 'AssertionError: 2 != 3'),
        tool('str_replace_editor', {
          args: { command: 'str_replace', path: 'x.py', old_str: 'a', new_str: 'b' },
          result: 'edited',
        }),
        fail('bash', { command: 'python repro.py' }, 'AssertionError: 2 != 3'),
        tool('str_replace_editor', {
          args: { command: 'str_replace', path: 'x.py', old_str: 'b', new_str: 'c' },
          result: 'edited',
        }),
        fail('bash', { command: 'python repro.py' }, 'AssertionError: 2 != 3'),
      ]),
    },
    {
      name: 'just under: 2 failures in a row',
      trace: makeTrace([fail('fetch'), llm(), fail('fetch'), llm()]),
    },
    {
      name: 'a success of the same tool resets the streak',
      trace: makeTrace([fail('fetch'), fail('fetch'), tool('fetch'), fail('fetch'), fail('fetch')]),
    },
    {
      name: 'three failures of three different tools are not a retry storm',
      trace: makeTrace([fail('a'), fail('b'), fail('c')]),
    },
    {
      name: 'raised threshold: 3 failures do not fire at threshold 4',
      config: { threshold: 4 },
      trace: makeTrace([fail('fetch'), fail('fetch'), fail('fetch')]),
    },
    {
      name: 'a single-tool agent: three different commands failing differently retry nothing',
      trace: makeTrace([
        fail('bash', { command: 'pip list | grep mysql' }, 'Error: returncode 1'),
        fail('bash', { command: 'python3 -c "import MySQLdb"' }, 'ModuleNotFoundError: MySQLdb'),
        fail(
          'bash',
          { command: 'find tests -name "*mysql*" -newer setup.py' },
          'find: setup.py: No such file',
        ),
      ]),
    },
  ],
  invalid: [
    {
      name: 'a test failing again with only reads (or a rejected edit) between: retries',
      trace: makeTrace([
        fail('bash', { command: 'python repro.py' }, 'AssertionError: 2 != 3'),
        tool('str_replace_editor', { args: { command: 'view', path: 'x.py' }, result: 'def f(): ...' }),
        fail('bash', { command: 'python repro.py' }, 'AssertionError: 2 != 3'),
        fail(
          'str_replace_editor',
          { command: 'str_replace', path: 'x.py', old_str: 'zz', new_str: 'b' },
          'old_str not found',
        ),
        fail('bash', { command: 'python repro.py' }, 'AssertionError: 2 != 3'),
      ]),
      signals: [{ steps: [1, 3, 5], message: /bash failed 3× in a row/ }],
    },
    {
      name: 'just over: 3 failures with LLM steps between, never recovered',
      trace: makeTrace([
        llm(),
        fail('fetch', { u: 1 }),
        llm(),
        fail('fetch', { u: 2 }),
        llm(),
        fail('fetch', { u: 3 }, 'HTTP 503'),
      ]),
      signals: [
        {
          steps: [2, 4, 6],
          severity: 'high',
          message:
            /^fetch failed 3× in a row with no successful call in between \(steps 2–6\), no later call of it succeeded \(the run has no output and no error status: whether it recovered is not known\); last error: HTTP 503$/,
          confidence: 0.86,
        },
      ],
    },
    {
      name: 'a success of another tool does not reset the streak',
      trace: makeTrace([fail('fetch', 1), tool('parse'), fail('fetch', 2), fail('fetch', 3)]),
      signals: [{ steps: [1, 3, 4] }],
    },
    {
      name: 'identical arguments, then recovery: still a storm, with nothing said of how the run ended',
      trace: makeTrace([
        fail('fetch', { u: 1 }),
        fail('fetch', { u: 1 }),
        fail('fetch', { u: 1 }),
        tool('fetch'),
      ]),
      signals: [
        { steps: [1, 2, 3], message: /retried with identical arguments; last error/, confidence: 0.92 },
      ],
    },
    {
      name: 'two storms separated by a success are two signals',
      trace: makeTrace([
        fail('fetch', 1),
        fail('fetch', 2),
        fail('fetch', 3),
        tool('fetch'),
        fail('fetch', 4),
        fail('fetch', 5),
        fail('fetch', 6),
        fail('fetch', 7),
      ]),
      signals: [
        { steps: [1, 2, 3], confidence: 0.86 },
        { steps: [5, 6, 7, 8], message: 'failed 4×', confidence: 0.92 },
      ],
    },
    {
      name: 'storms of two tools, ordered by first step',
      trace: makeTrace([fail('b', 1), fail('a', 1), fail('b', 2), fail('a', 2), fail('b', 3), fail('a', 3)]),
      signals: [
        { steps: [1, 3, 5], message: 'b failed' },
        { steps: [2, 4, 6], message: 'a failed' },
      ],
    },
    {
      name: 'a single-tool agent retrying near the same command: a storm',
      trace: makeTrace([
        fail('bash', { command: 'pytest astropy/units/tests/test_quantity.py' }, 'exit 2: 3 failed'),
        fail(
          'bash',
          { command: 'pytest -W ignore astropy/units/tests/test_quantity.py' },
          'exit 2: collection error',
        ),
        fail(
          'bash',
          { command: 'pytest -c /dev/null astropy/units/tests/test_quantity.py' },
          'exit 1: 3 failed',
        ),
      ]),
      signals: [{ steps: [1, 2, 3], message: 'bash failed 3× in a row' }],
    },
    {
      name: 'a failure unlike the one before starts a new streak',
      trace: makeTrace([
        fail('bash', { command: 'make test' }, 'exit 2'),
        fail('bash', { command: 'make test' }, 'exit 2'),
        fail('bash', { command: 'curl https://example.org/api/v2/status' }, 'Could not resolve host'),
        fail('bash', { command: 'curl https://example.org/api/v2/status' }, 'Could not resolve host'),
        fail('bash', { command: 'curl https://example.org/api/v2/status' }, 'Could not resolve host'),
      ]),
      signals: [
        {
          steps: [3, 4, 5],
          message: /failed 3× in a row .*retried with identical arguments, no later call of it succeeded \(/,
        },
      ],
    },
    {
      name: 'lowered threshold: 2 failures fire at threshold 2',
      config: { threshold: 2 },
      trace: makeTrace([fail('fetch', 1), fail('fetch', 2)]),
      signals: [{ steps: [1, 2] }],
    },
  ],
});

describe('RETRY_STORM evidence', () => {
  it('records the tool, the count and whether it recovered', () => {
    const [s] = runDetector(
      retryStorm,
      makeTrace([fail('fetch'), fail('fetch'), fail('fetch'), tool('fetch')]),
    );
    expect(s?.evidence).toMatchObject({
      tool: 'fetch',
      failures: 3,
      threshold: 3,
      recoveredLater: true,
      lastError: 'timeout',
    });
  });

  it('redacts the last error before cutting it to 120 characters, so no prefix of a secret is left', () => {
    // The token starts at character 110: cut first, `ghp_aB3dE5` would survive into the message.
    const error = `${'e'.repeat(109)} ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5z and more`;
    const [s] = runDetector(
      retryStorm,
      makeTrace([fail('fetch', 1, error), fail('fetch', 2, error), fail('fetch', 3, error)]),
    );
    expect(s?.message).not.toContain('ghp_');
    expect(s?.message).toMatch(/; last error: e{109} \[REDACTED\]…$/);
  });

  it('marks a cut error with "…"', () => {
    const error = 'x'.repeat(300);
    const [s] = runDetector(
      retryStorm,
      makeTrace([fail('fetch', 1, error), fail('fetch', 2, error), fail('fetch', 3, error)]),
    );
    expect(s?.message).toMatch(/; last error: x{120}…$/);
  });
});
