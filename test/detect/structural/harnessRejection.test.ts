import { describe, expect, it } from 'vitest';
import { harnessRejection, isErrorLike } from '../../../src/detect/detectors/structural/harnessRejection.js';
import { llm, makeTrace, message, tool } from '../../helpers/traceBuilder.js';
import { runDetector, testDetector } from '../tester.js';

const FORMAT_ERROR = (n: number) =>
  `Please always provide EXACTLY ONE action in triple backticks, found ${n} actions.\n\nPlease format your action as shown in <response_example>.`;
const ROUND_PROMPT =
  'Based on your analysis, answer below questions:\n- do we need more context: construct search API calls.\n- where are bug locations: buggy files and methods.';
const CONTINUE = 'Continue with the task. When you are done, reply with the final patch and nothing else.';
/** An assistant turn with no tool call (text only). */
const talk = (text = 'THOUGHT: let me look at the file first.') => llm({ output: text });
/** An assistant turn that called the tool, and the tool's answer. */
const act = (command: string) => [
  llm({ output: { role: 'assistant', toolCalls: [{ name: 'bash', arguments: { command } }] } }),
  tool('bash', { args: { command }, result: 'ok' }),
];

testDetector(harnessRejection, {
  valid: [
    {
      name: 'a conversation: text turns answered by the customer, each reply different',
      trace: makeTrace([
        talk('Could you give me your reservation number?'),
        message('user', 'Sure, it is ABC123 and I would like to change the flight to Friday.'),
        talk('Which cabin would you like?'),
        message('user', 'Economy is fine, the same as I had on the original booking.'),
        talk('Shall I go ahead?'),
        message('user', 'Yes, please go ahead and use the card on file for the difference.'),
      ]),
    },
    {
      name: 'short replies repeated ("yes") are conversation, not a template',
      trace: makeTrace([
        talk(),
        message('user', 'yes'),
        talk(),
        message('user', 'yes'),
        talk(),
        message('user', 'yes'),
      ]),
    },
    {
      name: 'just under: 2 rejected turns',
      trace: makeTrace([
        talk(),
        message('user', FORMAT_ERROR(0)),
        ...act('ls'),
        talk(),
        message('user', FORMAT_ERROR(2)),
      ]),
    },
    {
      name: 'turns that called a tool are never rejected turns, whatever follows',
      trace: makeTrace([
        ...act('ls'),
        message('user', FORMAT_ERROR(2)),
        ...act('pwd'),
        message('user', FORMAT_ERROR(2)),
        ...act('id'),
        message('user', FORMAT_ERROR(2)),
      ]),
    },
    {
      name: 'three errors for three different reasons are not the same error fed back',
      trace: makeTrace([
        talk(),
        message('environment', 'Invalid action: "lookup[Paris" is missing a closing bracket.'),
        talk(),
        message('environment', 'Error: unknown tool "serach". Available tools: search, lookup, finish.'),
        talk(),
        message('environment', 'Could not parse your response as JSON; expected {"action": …}.'),
      ]),
    },
    {
      name: "a harness's fixed round prompt, alternating with the results of each round, is no rejection",
      trace: makeTrace(
        [
          'search_class("Lexer")',
          'search_method("tokenize")',
          'search_code("split")',
          'search_method("join")',
        ].flatMap((q, i) => [
          talk(q),
          message(
            'user',
            `Result of ${q}: found ${['class Lexer', 'def tokenize', '2 call sites', 'def join'][i]!}.`,
          ),
          talk('Let me think about what this shows.'),
          message('user', ROUND_PROMPT),
        ]),
      ),
    },
    {
      name: 'a fixed prompt the harness also sends after turns that acted is no rejection',
      trace: makeTrace([
        message('user', CONTINUE),
        ...act('ls'),
        message('user', CONTINUE),
        talk(),
        message('user', CONTINUE),
        talk(),
        message('user', CONTINUE),
        talk(),
        message('user', CONTINUE),
      ]),
    },
    {
      name: 'raised min_rejections: 3 rejections do not fire at 4',
      config: { min_rejections: 4 },
      trace: makeTrace([
        talk(),
        message('user', FORMAT_ERROR(0)),
        talk(),
        message('user', FORMAT_ERROR(2)),
        talk(),
        message('user', FORMAT_ERROR(3)),
      ]),
    },
  ],
  invalid: [
    {
      name: 'just over: 3 turns got the same reply (numbers aside), the agent acting in between',
      trace: makeTrace([
        talk(),
        message('user', FORMAT_ERROR(0)),
        ...act('ls'),
        talk(),
        message('user', FORMAT_ERROR(2)),
        ...act('cat setup.py'),
        talk(),
        message('user', FORMAT_ERROR(3)),
        ...act('pytest'),
      ]),
      signals: [
        {
          steps: [2, 6, 10],
          severity: 'medium',
          message:
            /^3 turns without a tool call got the same reply \(steps 2, 6, 10\): “Please always provide EXACTLY ONE action/,
          confidence: 0.85,
        },
      ],
    },
    {
      name: 'five rejections in a row, no action getting through: high',
      trace: makeTrace([
        ...act('ls'),
        ...Array.from({ length: 5 }, (_, i) => [talk(), message('user', FORMAT_ERROR(i))]).flat(),
        ...act('pytest'),
      ]),
      signals: [{ steps: [4, 6, 8, 10, 12], severity: 'high', message: /; 5 in a row$/ }],
    },
    {
      name: 'a run that ends rejected: high at the minimum',
      trace: makeTrace(
        [
          ...act('ls'),
          talk(),
          message('user', FORMAT_ERROR(0)),
          talk(),
          message('user', FORMAT_ERROR(2)),
          talk(),
          message('user', FORMAT_ERROR(2)),
        ],
        { status: 'error' },
      ),
      signals: [{ severity: 'high', message: /the run ended rejected$/ }],
    },
    {
      name: 'errors for the same reason in other words, from another harness: read from their opening',
      trace: makeTrace([
        talk(),
        message('environment', 'Invalid action: "lookup[Paris" is missing a closing bracket.'),
        talk(),
        message('environment', 'Invalid action: "serach[Rome]" names no tool you have.'),
        talk(),
        message('environment', 'Invalid action: "finish" needs an answer.'),
      ]),
      signals: [{ steps: [2, 4, 6], message: /got the same error in other words/, confidence: 0.75 }],
    },
  ],
});

describe('HARNESS_REJECTION', () => {
  it('reads an error from its opening words or from what it names, not from a polite request', () => {
    expect(isErrorLike('Error: invalid action')).toBe(true);
    expect(isErrorLike('Your response had a format error: no code block.')).toBe(true);
    expect(isErrorLike('Please provide me the refund for the cancelled flight.')).toBe(false);
    expect(isErrorLike('I could not agree more, thanks!')).toBe(false);
  });

  it('records the count, the longest streak and the turns rejected', () => {
    const [s] = runDetector(
      harnessRejection,
      makeTrace([
        talk(),
        message('user', FORMAT_ERROR(0)),
        talk(),
        message('user', FORMAT_ERROR(1)),
        ...act('ls'),
        talk(),
        message('user', FORMAT_ERROR(2)),
      ]),
    );
    expect(s?.evidence).toMatchObject({
      rejections: 3,
      longestStreak: 2,
      identicalReplies: true,
      endedRejected: false,
      turns: [1, 3, 7],
    });
  });

  it('redacts a secret the reply quotes before it is shown', () => {
    const leaked =
      'Invalid action: curl -H "Authorization: Bearer ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5z"';
    const [s] = runDetector(
      harnessRejection,
      makeTrace([
        talk(),
        message('user', leaked),
        talk(),
        message('user', leaked),
        talk(),
        message('user', leaked),
      ]),
    );
    expect(s?.message).not.toContain('ghp_');
  });
});
