import { describe, expect, it } from 'vitest';
import { resultOrInputError } from '../../src/run/analyseTrace.js';
import { emptyStats } from '../../src/trace/load.js';
import { makeTrace, tool } from '../helpers/traceBuilder.js';

describe('one trace that cannot be analysed', () => {
  it('is that trace’s input error, naming its file and line, and the run goes on', () => {
    const stats = { ...emptyStats(), traces: 2 };
    const loaded = {
      trace: makeTrace([tool('search')], { id: 'bad' }),
      source: { file: 'runs.jsonl', format: 'native', line: 7 },
    };
    const failing = () => {
      throw new RangeError('Maximum call stack size exceeded ghp_16C7e42F292c6912E7710c838347Ae178B4a');
    };
    expect(resultOrInputError(loaded, stats, failing)).toEqual([]);
    expect(stats.traces).toBe(1);
    expect(stats.errorCount).toBe(1);
    expect(stats.errors).toEqual([
      {
        file: 'runs.jsonl',
        line: 7,
        message:
          'trace bad could not be analysed (RangeError: Maximum call stack size exceeded [REDACTED]); the other traces were — please report this',
      },
    ]);
  });
});
