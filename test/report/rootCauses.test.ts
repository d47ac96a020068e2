/**
 * Failure attribution where people read it: the text report and the markdown (the PR comment's
 * head section) list one line per failed run under the tally, cut past a bound with a count.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import type { Attributed } from '../../src/attribute/rootCause.js';
import { parseConfig } from '../../src/config/config.js';
import { renderMarkdown } from '../../src/report/renderMarkdown.js';
import { renderText } from '../../src/report/renderText.js';
import { rootCauseText, tallyText } from '../../src/report/rootCauses.js';
import { llm, makeTrace } from '../helpers/traceBuilder.js';
import { tauBenchRun } from '../attribute/fixtures.js';

const cause: Attributed = {
  step: 12,
  agent: 'WebSurfer',
  rule: 'UNRECOVERED_FAILURE',
  confidence: 0.45,
  evidence: 'its search call returned nothing and it went on without it',
  symptoms: [
    { detector: 'TOOL_LOOP', step: 14 },
    { detector: 'STEP_COUNT_INFLATION', step: 20 },
  ],
  decidedBy: 'rules',
};

describe('root cause sentences', () => {
  it('one line: the step, its agent, what happened, what followed', () => {
    expect(rootCauseText(cause)).toBe(
      'step 12, WebSurfer — its search call returned nothing and it went on without it; 2 later findings follow from it',
    );
    expect(rootCauseText({ ...cause, symptoms: [{ detector: 'TOOL_LOOP', step: 14 }] })).toMatch(
      /; 1 later finding follows from it$/,
    );
    expect(rootCauseText({ ...cause, symptoms: [], effect: { step: 13, evidence: 'it acted on it' } })).toBe(
      'step 12, WebSurfer — its search call returned nothing and it went on without it; step 13: it acted on it',
    );
  });

  it('the tally: the agent that caused most, the others, the unattributed', () => {
    expect(
      tallyText({
        failedRuns: 14,
        attributed: 12,
        agents: [
          { agent: 'WebSurfer', causes: 9 },
          { agent: 'Assistant', causes: 3 },
        ],
        rules: [],
      }),
    ).toBe('WebSurfer caused 9 of 14 failures, Assistant 3; 2 unattributed');
    expect(tallyText({ failedRuns: 2, attributed: 0, agents: [], rules: [] })).toBe(
      '2 failures, none attributed',
    );
    const many = Array.from({ length: 6 }, (_, i) => ({ agent: `a${i}`, causes: 6 - i }));
    expect(tallyText({ failedRuns: 21, attributed: 21, agents: many, rules: [] })).toBe(
      'a0 caused 6 of 21 failures, a1 5, a2 4, a3 3, 2 more agents',
    );
  });
});

describe('in the reports', () => {
  /** 12 runs that cancelled the wrong booking, and one that went fine. */
  async function runs() {
    const wrong = (i: number) => ({
      ...tauBenchRun(
        [{ calls: [{ name: 'cancel_reservation', args: { reservation_id: `R${i}` }, result: '{}' }] }],
        [{ name: 'cancel_reservation', kwargs: { reservation_id: 'ZX9' } }],
      ),
      id: `run-${i}`,
    });
    const fine = makeTrace([llm()], { id: 'fine', outcome: { success: true, source: 'native outcome' } });
    return analyze([...Array.from({ length: 12 }, (_, i) => wrong(i)), fine], {
      config: parseConfig(''),
      baselines: false,
    });
  }

  it('text: the tally, ten failed runs, and how many more', async () => {
    const text = renderText(await runs());
    expect(text).toContain('Root causes: fixture caused 12 of 12 failures');
    expect(text).toContain(
      '  run-0 (<input>[0]): step 2, fixture — it called cancel_reservation with another reservation_id than the task expected (DEPARTS_FROM_EXPECTED, 0.80)',
    );
    expect(text).toContain('  … and 2 more failed runs (see --format json or --limit)');
    expect(text).not.toContain('run-10 (');
    expect(renderText(await runs(), { limit: 20 })).toContain('run-11 (<input>[11]): step 2');
  });

  it('markdown: the same, escaped as markdown', async () => {
    const md = renderMarkdown(await runs());
    expect(md).toContain('**Root causes**: fixture caused 12 of 12 failures');
    expect(md).toContain(
      '- run-0 (&lt;input>\\[0\\]): step 2, fixture — it called cancel\\_reservation with another reservation\\_id than the task expected _(DEPARTS\\_FROM\\_EXPECTED, 0.80)_',
    );
    expect(md).toContain('- _… and 2 more failed runs (--format json or --limit)_');
  });

  it('a report where nothing failed says nothing about root causes', async () => {
    const report = await analyze([makeTrace([llm()], { outcome: { success: true, source: 's' } })], {
      config: parseConfig(''),
      baselines: false,
    });
    expect(renderText(report)).not.toContain('Root causes');
    expect(renderMarkdown(report)).not.toContain('Root causes');
  });
});
