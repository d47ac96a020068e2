/**
 * Blame never lands on a router or an executor, and the question being handed over is no agent's
 * decision: candidates move to the worker step they concern.
 */
import { describe, expect, it } from 'vitest';
import { attributionFacts, handoverSteps } from '../../src/attribute/candidates.js';
import { stepAgents } from '../../src/attribute/calls.js';
import { chooseRootCause, NO_CAUSE } from '../../src/attribute/choose.js';
import { attributionSettings } from '../../src/attribute/config.js';
import { createRoleLookup } from '../../src/attribute/roles.js';
import type { AttributionRule } from '../../src/attribute/rule.js';
import { whoAndWhenRun } from './fixtures.js';

/** A rule that points at one fixed step, to see where blame moves it. */
const pointAt = (step: number): AttributionRule => ({
  meta: { id: 'POINT', description: 'test', messages: { here: 'step {{n}}' } },
  find: () => [{ step, messageId: 'here', data: { n: step }, confidence: 0.7, strength: 'evidence' }],
});
const run = whoAndWhenRun([
  ['human', 'Which cafe is open latest tonight?'],
  ['Orchestrator (thought)', 'Initial plan: Which cafe is open latest tonight?'],
  ['WebSurfer', 'I searched.'],
  ['Orchestrator (-> Assistant)', 'Write code to sort them.'],
  ['Assistant', '```python\nprint(1)\n```'],
  ['ComputerTerminal', 'The script ran and exited normally.'],
]);
const blamed = (step: number, settings = attributionSettings()) =>
  attributionFacts(run, [], settings, { rules: [pointAt(step)] }).candidates.map((c) => [
    c.step,
    c.agent,
    c.evidence,
  ]);

describe('blame', () => {
  it('stays on a worker’s step', () => {
    expect(blamed(3)).toEqual([[3, 'WebSurfer', 'step 3']]);
  });
  it('an executor’s step moves to the worker it ran for; a router’s to the worker it handed to', () => {
    expect(blamed(6)).toEqual([[5, 'Assistant', 'step 6']]);
    expect(blamed(4)).toEqual([[5, 'Assistant', 'step 4']]);
    expect(blamed(1)).toEqual([[3, 'WebSurfer', 'step 1']]);
  });
  it('a role from config changes where it lands; a step outside the trace is dropped', () => {
    const workerOrchestrator = attributionSettings({ roles: { orchestrator: 'worker' } });
    expect(blamed(4, workerOrchestrator)).toEqual([[4, 'Orchestrator', 'step 4']]);
    expect(blamed(99)).toEqual([]);
  });
  it('roles match whatever the case and separators', () => {
    const roleOf = createRoleLookup(attributionSettings().roles);
    expect(
      ['Computer_terminal', 'computer-terminal', 'ComputerTerminal', 'Orchestrator', 'Writer', undefined].map(
        roleOf,
      ),
    ).toEqual(['executor', 'executor', 'executor', 'router', 'worker', 'worker']);
  });
  it('the question and its relay are handed over, not decided', () => {
    expect(handoverSteps(run, stepAgents(run))).toBe(2);
  });
});

describe('a rule that throws', () => {
  it('costs the run only that rule’s say, and is named when nothing else is found', () => {
    const broken: AttributionRule = {
      meta: { id: 'BROKEN', description: 'test', messages: {} },
      find: () => {
        throw new RangeError('boom');
      },
    };
    const facts = attributionFacts(run, [], attributionSettings(), { rules: [broken, pointAt(3)] });
    expect(facts.candidates.map((c) => c.step)).toEqual([3]);
    expect(facts.failures).toEqual([{ rule: 'BROKEN', message: 'RangeError: boom' }]);
    const alone = attributionFacts(run, [], attributionSettings(), { rules: [broken] });
    expect(chooseRootCause(alone.candidates, [], alone.failures).rootCause).toEqual({
      unattributed: `${NO_CAUSE}; attribution rule BROKEN failed: RangeError: boom (please report this)`,
    });
  });
});
