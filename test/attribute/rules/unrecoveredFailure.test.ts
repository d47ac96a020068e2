import { unrecoveredFailure } from '../../../src/attribute/rules/unrecoveredFailure.js';
import { tauBenchRun, whoAndWhenRun } from '../fixtures.js';
import { testRule } from '../ruleTester.js';

const lookup = (id: string, result: string) => ({ name: 'get_reservation_details', args: { id }, result });
/** A CaptainAgent-shaped team: an expert writes code, the terminal runs it. */
const team = (...turns: ([string, string] | [string, string, string])[]) =>
  whoAndWhenRun([
    [
      'assistant',
      'You are given: (1) a task and advises from your manager. # General Task: How many moons?',
      'Planner_Expert',
    ],
    ...turns,
  ]);
const code = '```python\nprint(count_moons())\n```';

testRule(unrecoveredFailure, {
  valid: [
    {
      name: 'a failed call the same agent retried with success (transient)',
      trace: tauBenchRun(
        [
          { calls: [lookup('ABC', 'Error: reservation not found')] },
          { calls: [lookup('ABD', '{"status": "ok"}')] },
        ],
        [],
      ),
    },
    {
      name: 'calls that returned something',
      trace: tauBenchRun([{ calls: [lookup('ABC', '{"status": "ok"}')] }, { say: 'It is confirmed.' }], []),
    },
    {
      name: 'a code run that printed its result',
      trace: team(
        ['assistant', code, 'Data_Expert'],
        ['user', 'exitcode: 0 (execution succeeded)\nCode output: 146', 'Computer_terminal'],
      ),
    },
    {
      name: 'an executor with nothing to run is no call',
      trace: team(
        ['assistant', 'I think the answer is 146.', 'Data_Expert'],
        ['user', 'There is no code from the last 1 message for me to execute.', 'Computer_terminal'],
      ),
    },
  ],
  invalid: [
    {
      name: 'a failed call never put right: the call step',
      // Steps: 1 llm, 2 tool (failed), 3 llm, 4 message from the user, 5 llm.
      trace: tauBenchRun(
        [
          { calls: [lookup('ABC', 'Error: reservation not found')] },
          { say: 'I could not find it.' },
          { user: 'ok' },
          { say: 'Bye.' },
        ],
        [],
      ),
      candidates: [
        {
          step: 2,
          messageId: 'failedCall',
          data: { name: 'get_reservation_details', error: 'Error: reservation not found' },
          strength: 'evidence',
        },
      ],
    },
    {
      name: 'a search that returned nothing, not tried again: weak',
      trace: tauBenchRun(
        [
          { calls: [{ name: 'search_direct_flight', args: { from: 'JFK' }, result: '[]' }] },
          { say: 'No flights.' },
        ],
        [],
      ),
      candidates: [
        { step: 2, messageId: 'emptyCall', data: { name: 'search_direct_flight' }, strength: 'weak' },
      ],
    },
    {
      name: 'a failed retry is no recovery; the first failure is named first',
      trace: tauBenchRun(
        [{ calls: [lookup('ABC', 'Error: timeout')] }, { calls: [lookup('ABC', 'Error: timeout')] }],
        [],
      ),
      candidates: [
        { step: 2, messageId: 'failedCall', data: { error: 'Error: timeout' } },
        { step: 4, messageId: 'failedCall' },
      ],
    },
    {
      name: 'code that failed when run: the step of the expert who wrote it, not the terminal',
      trace: team(
        ['assistant', code, 'Data_Expert'],
        [
          'user',
          'exitcode: 1 (execution failed)\nCode output: Traceback (most recent call last):\n  File "x.py", line 1\nNameError: name \'count_moons\' is not defined',
          'Computer_terminal',
        ],
        ['assistant', 'The answer is 146.', 'Verification_Expert'],
      ),
      candidates: [
        {
          step: 2,
          messageId: 'failedRun',
          data: { error: "NameError: name 'count_moons' is not defined" },
          strength: 'evidence',
        },
      ],
    },
    {
      name: 'code that printed nothing: weak; another expert’s later success does not repair it',
      trace: team(
        ['assistant', code, 'Data_Expert'],
        ['user', 'exitcode: 0 (execution succeeded)\nCode output: []\n', 'Computer_terminal'],
        ['assistant', code, 'Verification_Expert'],
        ['user', 'exitcode: 0 (execution succeeded)\nCode output: 146', 'Computer_terminal'],
      ),
      candidates: [{ step: 2, messageId: 'emptyRun', strength: 'weak' }],
    },
    {
      name: 'Magentic-One: the terminal ran code the Assistant wrote, the Orchestrator only forwarded it',
      trace: whoAndWhenRun([
        ['human', 'How many moons?'],
        ['Assistant', code],
        ['Orchestrator (-> ComputerTerminal)', 'Please run the code above.'],
        [
          'ComputerTerminal',
          'The script ran, then exited with an error (POSIX exit code: 1)\nIts output was:\nZeroDivisionError: division by zero',
        ],
      ]),
      candidates: [
        { step: 2, messageId: 'failedRun', data: { error: 'ZeroDivisionError: division by zero' } },
      ],
    },
  ],
});
