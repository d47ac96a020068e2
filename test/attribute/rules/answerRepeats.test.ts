import { describe, expect, it } from 'vitest';
import {
  answerRepeats,
  finalAnswerOf,
  wholeWordMatcher,
} from '../../../src/attribute/rules/answerRepeats.js';
import { llm, makeTrace, tool } from '../../helpers/traceBuilder.js';
import { whoAndWhenRun } from '../fixtures.js';
import { testRule } from '../ruleTester.js';

/** A Magentic-One-shaped run whose console tail states the final answer. */
const magentic = (...turns: [string, string][]) =>
  whoAndWhenRun([
    ['human', 'Which cafe near the park is open latest?'],
    ['Orchestrator (thought)', 'Initial plan: Which cafe near the park is open latest? Ask WebSurfer.'],
    ...turns,
  ]);

testRule(answerRepeats, {
  valid: [
    {
      name: 'the answer first appears in the step that states it',
      trace: magentic(
        ['WebSurfer', 'I searched for cafes.'],
        ['Orchestrator (termination condition)', 'FINAL ANSWER: Blue Door Cafe'],
      ),
    },
    {
      name: 'an answer too short to trace (fewer than three characters)',
      trace: magentic(
        ['WebSurfer', 'There are 6 cafes.'],
        ['Orchestrator (termination condition)', 'FINAL ANSWER: 6'],
      ),
    },
    {
      name: 'only a router (which relays) said it before',
      trace: magentic(
        ['Orchestrator (-> WebSurfer)', 'Check whether Blue Door Cafe is open.'],
        ['Orchestrator (termination condition)', 'FINAL ANSWER: Blue Door Cafe'],
      ),
    },
    {
      name: 'a part of a longer word is not the answer',
      trace: magentic(
        ['WebSurfer', 'The Bluedoorway Cafe closes at 9.'],
        ['Orchestrator (termination condition)', 'FINAL ANSWER: Bluedoor'],
      ),
    },
  ],
  invalid: [
    {
      name: 'the worker turn the final answer came from',
      trace: magentic(
        ['Orchestrator (-> WebSurfer)', 'Find cafes near the park open late.'],
        ['WebSurfer', 'I typed "cafes open late" into the search bar. Blue Door Cafe is open until 11pm.'],
        ['WebSurfer', 'Blue Door Cafe: 3.2 stars.'],
        ['Orchestrator (termination condition)', 'Request satisfied.\nFINAL ANSWER: Blue Door Cafe'],
      ),
      candidates: [
        { step: 4, messageId: 'repeats', data: { answer: 'Blue Door Cafe' }, strength: 'evidence' },
      ],
    },
    {
      name: 'a short output the agent took from a tool result',
      trace: makeTrace(
        [
          llm({ output: 'looking it up' }),
          tool('lookup', { result: { city: 'Lyon' } }),
          llm({ output: 'Lyon.' }),
        ],
        { output: 'Lyon.' },
      ),
      candidates: [{ step: 2, messageId: 'repeats', data: { answer: 'Lyon' } }],
    },
  ],
});

describe('finalAnswerOf', () => {
  it('reads a FINAL ANSWER line, else a short one-line output; nothing from a long report', () => {
    expect(finalAnswerOf(makeTrace([llm()], { output: 'x\nFINAL ANSWER: 42 km.\n' }))).toEqual({
      answer: '42 km',
      statedAt: 1,
    });
    expect(finalAnswerOf(makeTrace([llm(), llm()], { output: 'Paris' }))).toEqual({
      answer: 'Paris',
      statedAt: 2,
    });
    expect(finalAnswerOf(makeTrace([llm()], { output: 'A long report.\nWith two lines.' }))).toBeUndefined();
    expect(finalAnswerOf(makeTrace([llm()]))).toBeUndefined();
  });
});

describe('wholeWordMatcher', () => {
  // What the rule matched with before: one pattern per answer, boundaries inside it.
  const onePattern = (answer: string) =>
    new RegExp(`(?<![\\p{L}\\p{N}])${answer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'iu');

  it('finds the answer where the single pattern did, and only there', () => {
    const answers = [
      'Paris',
      'aa',
      '42 km',
      '$5.00 (net)',
      'straße',
      'İstanbul',
      'k9',
      '𝐀bc',
      'ιx',
      'a.b',
      'sk',
      'x_y',
    ];
    const texts = [
      'We flew to PARIS.',
      'Parisian cafes',
      'aaa aa',
      'aaaa',
      'baa aab',
      'it is 42 KM away',
      '142 km',
      'costs $5.00 (NET) today',
      'STRASSE and straße',
      'İSTANBUL, istanbul',
      'K9 unit',
      '\u212a9 unit (Kelvin sign)',
      'x𝐀bc',
      '𝐀bc!',
      '\u0345ιx',
      '-ιx-',
      'a.b',
      'aXb a.b.',
      'SK, \u017fk and s\u212a',
      'x_y_z x_y',
      '_sk_ 9sk',
      'ASK sk9',
      '',
    ];
    let found = 0;
    for (const answer of answers)
      for (const text of texts) {
        const expected = onePattern(answer).test(text);
        if (expected) found++;
        expect(wholeWordMatcher(answer)(text), `${answer} in ${text}`).toBe(expected);
      }
    // Both sides were exercised.
    expect(found).toBeGreaterThan(8);
    expect(found).toBeLessThan(answers.length * texts.length - 8);
  });

  it('can be reused on several texts', () => {
    const repeats = wholeWordMatcher('Paris');
    expect(repeats('to Paris')).toBe(true);
    expect(repeats('Parisian')).toBe(false);
    expect(repeats('Paris, then Paris')).toBe(true);
  });
});
