import { expectedActions, expectedActionsOf } from '../../../src/attribute/rules/expectedActions.js';
import { describe, expect, it } from 'vitest';
import { makeTrace, tool } from '../../helpers/traceBuilder.js';
import { tauBenchRun } from '../fixtures.js';
import { testRule } from '../ruleTester.js';

const details = {
  name: 'get_reservation_details',
  args: { reservation_id: 'ZX9' },
  result: '{"flights": []}',
};
const cancel = (id: string) => ({
  name: 'cancel_reservation',
  args: { reservation_id: id },
  result: '{"status": "cancelled"}',
});
const expectCancel = [
  { name: 'get_reservation_details', kwargs: { reservation_id: 'ZX9' } },
  { name: 'cancel_reservation', kwargs: { reservation_id: 'ZX9' } },
];

testRule(expectedActions, {
  valid: [
    {
      name: 'the expected write, after reads the task did not list',
      trace: tauBenchRun(
        [
          { calls: [{ ...details, name: 'get_user_details' }] },
          { calls: [details] },
          { calls: [cancel('ZX9')] },
        ],
        expectCancel,
        1,
      ),
    },
    {
      name: 'a recording that names no expected actions',
      trace: makeTrace([tool('cancel_reservation', { args: { reservation_id: 'ZX9' } })]),
    },
    {
      name: 'argument keys in another order are the same call',
      trace: tauBenchRun(
        [{ calls: [{ name: 'book', args: { b: 2, a: 1 }, result: 'ok' }] }],
        [{ name: 'book', kwargs: { a: 1, b: 2 } }],
      ),
    },
  ],
  invalid: [
    {
      name: 'a write with another argument than expected: the call step',
      // Steps: 1 llm, 2 tool (read), 3 llm, 4 tool (write).
      trace: tauBenchRun([{ calls: [details] }, { calls: [cancel('ZX8')] }], expectCancel),
      candidates: [
        {
          step: 4,
          messageId: 'wrongArgs',
          data: { name: 'cancel_reservation', argument: 'reservation_id' },
          strength: 'evidence',
        },
      ],
    },
    {
      name: 'a write the task did not expect',
      trace: tauBenchRun(
        [
          { calls: [details] },
          { calls: [{ name: 'update_reservation_flights', args: { reservation_id: 'ZX9' }, result: '{}' }] },
        ],
        expectCancel,
      ),
      candidates: [{ step: 4, messageId: 'unexpected', data: { name: 'update_reservation_flights' } }],
    },
    {
      name: 'no departure, but the expected write never came: weak, on the agent’s last turn (not the user’s)',
      trace: tauBenchRun(
        [{ calls: [details] }, { say: 'I cannot cancel it.' }, { user: 'fine' }],
        expectCancel,
      ),
      candidates: [{ step: 3, messageId: 'missing', data: { name: 'cancel_reservation' }, strength: 'weak' }],
    },
    {
      name: 'a test’s expected trajectory in metadata, with readTools from config',
      trace: makeTrace([tool('lookup', { args: { q: 'a' } }), tool('refund', { args: { order: 2 } })], {
        metadata: { expectedActions: [{ name: 'refund', args: { order: 1 } }] },
      }),
      settings: { readTools: ['lookup'] },
      candidates: [{ step: 2, messageId: 'wrongArgs', data: { name: 'refund', argument: 'order' } }],
    },
  ],
});

describe('expectedActionsOf', () => {
  it('reads τ-bench kwargs and a native list, args absent meaning any', () => {
    expect(expectedActionsOf(tauBenchRun([], expectCancel))).toEqual([
      { name: 'get_reservation_details', args: { reservation_id: 'ZX9' } },
      { name: 'cancel_reservation', args: { reservation_id: 'ZX9' } },
    ]);
    expect(
      expectedActionsOf(makeTrace([], { metadata: { expected_actions: [{ name: 'x' }, 'junk'] } })),
    ).toEqual([{ name: 'x' }]);
    expect(expectedActionsOf(makeTrace([]))).toBeUndefined();
  });
});
