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
      name: 'new arguments on every call: progress over different items',
      trace: makeTrace([
        t('get_reservation_details', { id: 'R1' }),
        t('search_direct_flight', { date: '05-14' }),
        t('get_reservation_details', { id: 'R2' }),
        t('search_direct_flight', { date: '05-15' }),
      ]),
    },
    {
      name: 'new searches that found nothing are still new searches',
      trace: makeTrace([
        tool('search_direct_flight', { args: { date: '05-15' }, result: [] }),
        tool('search_onestop_flight', { args: { date: '05-15' }, result: [] }),
        tool('search_direct_flight', { args: { date: '05-17' }, result: [] }),
        tool('search_onestop_flight', { args: { date: '05-17' }, result: [{ flight: 'HAT082' }] }),
      ]),
    },
    {
      name: 'edit, run, edit, run: each edit new, so each run is a new attempt even with the same output',
      trace: makeTrace([
        tool('edit_file', { args: { path: 'a.py', content: 'v1' }, result: 'saved' }),
        tool('run_tests', { args: { path: 'tests' }, result: '1 failed' }),
        tool('edit_file', { args: { path: 'a.py', content: 'v2' }, result: 'saved' }),
        tool('run_tests', { args: { path: 'tests' }, result: '1 failed' }),
        tool('edit_file', { args: { path: 'a.py', content: 'v3' }, result: 'saved' }),
        tool('run_tests', { args: { path: 'tests' }, result: '0 failed' }),
      ]),
    },
    {
      name: 'the same request asked again that came back different is progress',
      trace: makeTrace([
        tool('job_status', { args: { id: 'J1' }, result: 'queued' }),
        tool('read_log', { args: { id: 'J1' }, result: 'starting' }),
        tool('job_status', { args: { id: 'J1' }, result: 'running' }),
        tool('read_log', { args: { id: 'J1' }, result: 'step 1 of 3' }),
        tool('job_status', { args: { id: 'J1' }, result: 'done' }),
        tool('read_log', { args: { id: 'J1' }, result: 'finished' }),
      ]),
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
      name: 'just over: after the first round, 4 calls in a row ask again what they asked, with the same answers',
      trace: makeTrace([
        llm(),
        tool('search_docs', { args: { q: 'refund' }, result: 'doc-7' }),
        llm(),
        tool('read_doc', { args: { id: 'doc-7' }, result: 'Refunds take 5 days.' }),
        llm(),
        tool('search_docs', { args: { q: 'refund' }, result: 'doc-7' }),
        llm(),
        tool('read_doc', { args: { id: 'doc-7' }, result: 'Refunds take 5 days.' }),
        llm(),
        tool('search_docs', { args: { q: 'refund' }, result: 'doc-7' }),
        llm(),
        tool('read_doc', { args: { id: 'doc-7' }, result: 'Refunds take 5 days.' }),
      ]),
      signals: [
        {
          steps: [6, 8, 10, 12],
          severity: 'high',
          message:
            'alternated between search_docs and read_doc for 6 consecutive tool calls (steps 2–12), 4 calls in a row making no progress (steps 6–12)',
          confidence: 0.92,
        },
      ],
    },
    {
      name: 'near-identical requests with the same answers: less sure',
      trace: makeTrace([
        tool('run', { args: { command: 'python check_dates.py' }, result: 'ValueError: bad date' }),
        tool('read', { args: { path: 'dates.py' }, result: 'def parse(d): ...' }),
        tool('run', { args: { command: 'python3 check_dates.py' }, result: 'ValueError: bad date' }),
        tool('read', { args: { path: 'dates.py' }, result: 'def parse(d): ...' }),
        tool('run', { args: { command: 'python check_dates.py' }, result: 'ValueError: bad date' }),
        tool('read', { args: { path: 'dates.py' }, result: 'def parse(d): ...' }),
      ]),
      signals: [{ steps: [3, 4, 5, 6], confidence: 0.85, message: 'the same or near-same requests' }],
    },
    {
      name: 'requests repeated whose results were not recorded: the gray zone, for tier 2',
      trace: makeTrace([
        t('get', { id: 1 }),
        t('check', { id: 1 }),
        t('get', { id: 1 }),
        t('check', { id: 1 }),
        t('get', { id: 1 }),
        t('check', { id: 1 }),
      ]),
      signals: [{ steps: [3, 4, 5, 6], confidence: 0.55, message: 'whose results were not recorded' }],
    },
    {
      name: 'arguments not recorded: the alternation alone, as the reference has it',
      trace: makeTrace([llm(), t('search'), llm(), t('read'), llm(), t('search'), llm(), t('read')]),
      signals: [
        {
          steps: [2, 4, 6, 8],
          message:
            'alternated between search and read for 4 consecutive tool calls (steps 2–8); arguments not recorded',
          confidence: 0.76,
        },
      ],
    },
    {
      name: 'arguments not recorded, twice the minimum length',
      trace: makeTrace(Array.from({ length: 8 }, (_, i) => t(i % 2 ? 'b' : 'a'))),
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
      trace: makeTrace([t('a'), t('b'), t('a')]),
      signals: [{ steps: [1, 2, 3] }],
    },
  ],
});

describe('TOOL_THRASHING evidence', () => {
  it('names the two tools and the run length', () => {
    const [s] = runDetector(toolThrashing, makeTrace([t('a'), t('b'), t('a'), t('b'), t('a')]));
    expect(s?.evidence).toMatchObject({ tools: ['a', 'b'], calls: 5, minAlternations: 4, judgedBy: 'name' });
  });

  it('says how many calls in a row made no progress, and charges the calls that issued them', () => {
    const round = (i: number) => [
      llm({ output: { role: 'assistant', toolCalls: [{ name: 'get', arguments: { id: 1 } }] } }),
      tool('get', { args: { id: 1 }, result: 'A' }),
      llm({ output: { role: 'assistant', toolCalls: [{ name: 'put', arguments: { id: 1, v: i % 2 } }] } }),
      tool('check', { args: { id: 1 }, result: 'B' }),
    ];
    const [s] = runDetector(toolThrashing, makeTrace([0, 1, 2].flatMap(round)));
    expect(s?.evidence).toMatchObject({
      tools: ['get', 'check'],
      calls: 6,
      judgedBy: 'progress',
      callsWithoutProgress: 4,
      identicalRepeats: true,
      wastedSteps: [5, 7, 9, 11],
    });
  });
});
