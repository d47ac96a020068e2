/** ignore.tools and ignore.failedCalls, and step numbers that survive them. */
import { describe, expect, it } from 'vitest';
import { matchTrajectory } from '../../src/trajectory/matchTrajectory.js';
import { llm, makeTrace, message, tool } from '../helpers/traceBuilder.js';

// Steps: 1 user message, 2 llm, 3 lookup, 4 think, 5 book (fails), 6 book, 7 llm.
const trace = makeTrace([
  message('user', 'book me a flight'),
  llm(),
  tool('get_user_details', { args: { user_id: 'mia' } }),
  tool('think', { args: { thought: 'book HAT136' } }),
  tool('book', { args: { flight: 'HAT136' }, status: 'error', error: 'Error: payment declined' }),
  tool('book', { args: { flight: 'HAT136' } }),
  llm(),
]);
const book = { name: 'book', args: { flight: 'HAT136' } };

describe('ignore.tools', () => {
  it('leaves those tools out of the trace', () => {
    expect(matchTrajectory(trace, [book, book], { mode: 'strict' }).pass).toBe(false);
    const r = matchTrajectory(trace, [book, book], {
      mode: 'strict',
      ignore: { tools: ['get_user_details', 'think'] },
    });
    expect(r.pass).toBe(true);
  });

  it('leaves those tools out of the expected calls too, keeping the others’ indices', () => {
    const r = matchTrajectory(trace, [{ name: 'think' }, book, { name: 'refund' }], {
      mode: 'superset',
      ignore: { tools: ['think'] },
    });
    expect(r.missing).toEqual([{ index: 2, name: 'refund' }]);
  });

  it('keeps the step numbers of the calls that remain', () => {
    const r = matchTrajectory(trace, [], { mode: 'strict', ignore: { tools: ['think'] } });
    expect(r.extra.map((x) => x.step)).toEqual([3, 5, 6]);
  });
});

describe('ignore.failedCalls', () => {
  it("leaves out the trace's calls whose status is error", () => {
    const ignoreTools = ['get_user_details', 'think'];
    expect(matchTrajectory(trace, [book], { mode: 'strict', ignore: { tools: ignoreTools } }).pass).toBe(
      false,
    );
    const r = matchTrajectory(trace, [book], {
      mode: 'strict',
      ignore: { tools: ignoreTools, failedCalls: true },
    });
    expect(r.pass).toBe(true);
  });

  it('counts failed calls when not set: the failed attempt and its retry are two calls', () => {
    const r = matchTrajectory(trace, [book], {
      mode: 'strict',
      ignore: { tools: ['get_user_details', 'think'] },
    });
    expect(r.pass).toBe(false);
    expect(r.extra).toHaveLength(1);
    expect(r.extra[0]).toMatchObject({ name: 'book', args: book.args });
    expect([5, 6]).toContain(r.extra[0]!.step);
  });
});
