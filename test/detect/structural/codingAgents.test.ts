/**
 * One rule set for every coding-agent design (test/helpers/codingAgentDesigns.ts): edit-then-rerun
 * cycles and two-tool work are not findings; the same command and output with nothing in between,
 * the same edit rejected three times, edits undone and redone are. First each loop detector on its
 * own (the tester's valid/invalid form), then what a run with the default configuration ends up
 * with after tier 2: no high or critical finding on the good runs of any design.
 */
import { describe, expect, it } from 'vitest';
import { harnessRejection } from '../../../src/detect/detectors/structural/harnessRejection.js';
import { retryStorm } from '../../../src/detect/detectors/structural/retryStorm.js';
import { toolLoop } from '../../../src/detect/detectors/structural/toolLoop.js';
import { toolThrashing } from '../../../src/detect/detectors/structural/toolThrashing.js';
import { TraceSchema, type TraceInput } from '../../../src/trace/schema.js';
import { createTraceAnalyser } from '../../../src/traceAnalyser.js';
import { bashOnly, interfaceCommands, searchThenPatch, twoTools } from '../../helpers/codingAgentDesigns.js';
import { testDetector } from '../tester.js';

const t = (input: TraceInput) => TraceSchema.parse(input);

const GOOD_RUNS = {
  'bash-only: edit, re-run (the same failure after two edits), pass': bashOnly.editThenRerun,
  'interface commands: find, open, page, edit, run, edit, run, submit': interfaceCommands.editThenRerun,
  'search APIs in prose then write_patch: four rounds with the fixed round prompt, a patch retried':
    searchThenPatch.goodRun,
  'two tools: view / run / str_replace alternating for 14 calls': twoTools.editThenRerun,
};

testDetector(toolLoop, {
  valid: Object.entries(GOOD_RUNS).map(([name, trace]) => ({ name, trace: t(trace) })),
  invalid: [
    {
      name: 'bash-only: the same test command, the same output, nothing in between',
      trace: t(bashOnly.sameCommandSameOutput),
      signals: [{ steps: [4, 6, 8], confidence: 0.94, message: /identical arguments and the same result$/ }],
    },
    {
      name: 'bash-only: the same sed edit failing three times',
      trace: t(bashOnly.sameEditRejected),
      signals: [{ steps: [4, 6, 8], confidence: 0.94 }],
    },
    {
      name: 'interface commands: the same edit rejected by the linter three times',
      trace: t(interfaceCommands.sameEditRejected),
      signals: [{ steps: [4, 6, 8], confidence: 0.94 }],
    },
    {
      name: 'interface commands: scroll_down three times, a new window each time (gray zone, for tier 2)',
      trace: t(interfaceCommands.pagingThrough),
      signals: [{ steps: [4, 6, 8], confidence: 0.5, message: /nothing was written in between/ }],
    },
    {
      name: 'search then patch: the same patch refused three times',
      trace: t(searchThenPatch.samePatchRejected),
      signals: [{ steps: [4, 6, 8], confidence: 0.94 }],
    },
    {
      name: 'two tools: the same str_replace refused three times',
      trace: t(twoTools.sameEditRejected),
      signals: [{ steps: [4, 6, 8], confidence: 0.94 }],
    },
    {
      name: 'two tools: an edit undone and redone, the tests printing the same two outputs',
      trace: t(twoTools.undoRedo),
      signals: [
        {
          steps: [2, 4, 6, 8, 10, 12, 14, 16],
          message: /str_replace_editor called 4× and execute_bash called 4×/,
        },
      ],
    },
  ],
});

testDetector(toolThrashing, {
  valid: [
    ...Object.entries(GOOD_RUNS).map(([name, trace]) => ({ name, trace: t(trace) })),
    {
      name: 'two tools: the same str_replace refused three times is a loop, not an alternation',
      trace: t(twoTools.sameEditRejected),
    },
  ],
  invalid: [
    {
      name: 'two tools: an edit redone and undone again, the tests printing what they printed before',
      trace: t(twoTools.undoRedo),
      signals: [
        { steps: [10, 12, 14, 16], confidence: 0.92, message: /4 calls in a row making no progress/ },
      ],
    },
  ],
});

testDetector(retryStorm, {
  valid: Object.entries(GOOD_RUNS).map(([name, trace]) => ({ name, trace: t(trace) })),
  invalid: [
    {
      name: 'interface commands: the same edit rejected three times',
      trace: t(interfaceCommands.sameEditRejected),
      signals: [{ steps: [4, 6, 8], message: /edit failed 3× in a row/ }],
    },
  ],
});

testDetector(harnessRejection, {
  valid: Object.entries(GOOD_RUNS).map(([name, trace]) => ({ name, trace: t(trace) })),
  invalid: [
    {
      name: 'search then patch: three answers refused for the same reason',
      trace: t(searchThenPatch.unparsedAnswers),
      signals: [
        { steps: [2, 4, 6], severity: 'medium', confidence: 0.75, message: /the same error in other words/ },
      ],
    },
  ],
});

describe('the default gate on each design, after tier 2', () => {
  const analyser = createTraceAnalyser({ baselines: false, cwd: process.cwd() });
  const gating = (trace: TraceInput) =>
    analyser
      .analyse(trace)
      .signals.filter((s) => s.status === 'finding' && (s.severity === 'high' || s.severity === 'critical'))
      .map((s) => s.detector);

  it.each(
    Object.entries({
      ...GOOD_RUNS,
      'interface commands: paging through a file': interfaceCommands.pagingThrough,
    }),
  )('good run, no high finding: %s', (_name, trace) => {
    expect(gating(trace)).toEqual([]);
  });

  it.each([
    ['bash-only, same command and output', bashOnly.sameCommandSameOutput, 'TOOL_LOOP'],
    ['bash-only, same edit failing', bashOnly.sameEditRejected, 'TOOL_LOOP'],
    ['interface, same edit rejected', interfaceCommands.sameEditRejected, 'TOOL_LOOP'],
    ['search then patch, same patch refused', searchThenPatch.samePatchRejected, 'TOOL_LOOP'],
    ['two tools, same str_replace refused', twoTools.sameEditRejected, 'TOOL_LOOP'],
    ['two tools, edit undone and redone', twoTools.undoRedo, 'TOOL_THRASHING'],
  ])('real loop, a high finding: %s', (_name, trace, detector) => {
    expect(gating(trace)).toContain(detector);
  });
});
