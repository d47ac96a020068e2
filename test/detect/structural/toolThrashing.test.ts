import { describe, expect, it } from 'vitest';
import { toolThrashing } from '../../../src/detect/detectors/structural/toolThrashing.js';
import { llm, makeTrace, tool } from '../../helpers/traceBuilder.js';
import { runDetector, testDetector } from '../tester.js';

const t = (name: string, args?: unknown) => tool(name, args === undefined ? {} : { args });

testDetector(toolThrashing, {
  valid: [
    {
      name: 'just under: A,B,A is 3 alternating calls',
      trace: makeTrace([t('search'), t('read'), t('search')]),
    },
    {
      name: 'a third tool breaks the alternation',
      trace: makeTrace([t('search'), t('read'), t('search'), t('write'), t('search'), t('read')]),
    },
    {
      name: 'repeats are not alternation',
      trace: makeTrace([t('a'), t('a'), t('b'), t('b'), t('a'), t('a')]),
    },
    {
      name: 'rotating through three tools is not thrashing between two',
      trace: makeTrace([t('a'), t('b'), t('c'), t('a'), t('b'), t('c')]),
    },
    {
      name: 'raised minimum: 5 alternating calls do not fire at min_alternations 6',
      config: { min_alternations: 6 },
      trace: makeTrace([t('a'), t('b'), t('a'), t('b'), t('a')]),
    },
    {
      name: 'progress over different items: new arguments and a new result (or an action done) each time',
      trace: makeTrace([
        tool('get_reservation_details', { args: { id: 'R1' }, result: { id: 'R1', cabin: 'economy' } }),
        tool('cancel_reservation', { args: { id: 'R1' }, result: 'None' }),
        tool('get_reservation_details', { args: { id: 'R2' }, result: { id: 'R2', cabin: 'business' } }),
        tool('cancel_reservation', { args: { id: 'R2' }, result: 'None' }),
      ]),
    },
  ],
  invalid: [
    {
      name: 'just over: A,B,A,B with some arguments repeated, LLM steps between',
      trace: makeTrace([
        llm(),
        t('search', { q: 1 }),
        llm(),
        t('read', { id: 1 }),
        llm(),
        t('search', { q: 2 }),
        llm(),
        t('read', { id: 1 }),
      ]),
      signals: [
        {
          steps: [2, 4, 6, 8],
          severity: 'high',
          message: 'alternated between search and read for 4 consecutive tool calls (steps 2–8)',
          confidence: 0.76,
        },
      ],
    },
    {
      name: 'new arguments on every call: reported in the gray zone (may be progress over different items)',
      trace: makeTrace([
        t('get_reservation_details', { id: 'R1' }),
        t('search_direct_flight', { date: '05-14' }),
        t('get_reservation_details', { id: 'R2' }),
        t('search_direct_flight', { date: '05-15' }),
      ]),
      signals: [
        {
          steps: [1, 2, 3, 4],
          message: 'with new arguments each time (may be progress over different items)',
          confidence: 0.55,
        },
      ],
    },
    {
      name: 'new arguments each time, but searches that found nothing: the gray zone, for tier 2',
      trace: makeTrace([
        tool('search_direct_flight', { args: { date: '05-15' }, result: [] }),
        tool('search_onestop_flight', { args: { date: '05-15' }, result: [] }),
        tool('search_direct_flight', { args: { date: '05-17' }, result: [] }),
        tool('search_onestop_flight', { args: { date: '05-17' }, result: [{ flight: 'HAT082' }] }),
      ]),
      signals: [{ steps: [1, 2, 3, 4], confidence: 0.55 }],
    },
    {
      name: 'each tool repeating its own arguments is clearly stuck',
      trace: makeTrace([t('get', { id: 1 }), t('set', { v: 1 }), t('get', { id: 1 }), t('set', { v: 1 })]),
      signals: [{ steps: [1, 2, 3, 4], message: 'repeating the same arguments', confidence: 0.92 }],
    },
    {
      name: 'twice the minimum length',
      trace: makeTrace(Array.from({ length: 8 }, (_, i) => t(i % 2 ? 'b' : 'a', { i: i % 3 }))),
      signals: [
        { steps: [1, 2, 3, 4, 5, 6, 7, 8], message: 'for 8 consecutive tool calls', confidence: 0.88 },
      ],
    },
    {
      name: 'two alternating pairs in a row are two signals',
      trace: makeTrace([t('a'), t('b'), t('a'), t('b'), t('c'), t('b'), t('c'), t('b')]),
      signals: [
        { steps: [1, 2, 3, 4], message: 'between a and b' },
        { steps: [4, 5, 6, 7, 8], message: 'between b and c for 5' },
      ],
    },
    {
      name: 'lowered minimum: A,B,A fires at min_alternations 3',
      config: { min_alternations: 3 },
      trace: makeTrace([t('a', 1), t('b', 1), t('a', 2)]),
      signals: [{ steps: [1, 2, 3] }],
    },
  ],
});

describe('TOOL_THRASHING evidence', () => {
  it('names the two tools and the run length', () => {
    const [s] = runDetector(toolThrashing, makeTrace([t('a'), t('b'), t('a'), t('b'), t('a')]));
    expect(s?.evidence).toMatchObject({ tools: ['a', 'b'], calls: 5, minAlternations: 4 });
  });
});
