import { busiestAgent } from '../../../src/attribute/rules/busiestAgent.js';
import { llm, makeTrace } from '../../helpers/traceBuilder.js';
import { whoAndWhenRun } from '../fixtures.js';
import { testRule } from '../ruleTester.js';

const task =
  'You are given: (1) a task and advises from your manager. # General Task: How many moons has Mars?';

testRule(busiestAgent, {
  valid: [
    { name: 'a single-agent run gets no prior', trace: makeTrace([llm(), llm(), llm()]) },
    {
      name: 'one named agent alone is not a team',
      trace: whoAndWhenRun(
        [
          ['assistant', 'Two.', 'Astro_Expert'],
          ['assistant', 'TERMINATE', 'Astro_Expert'],
        ],
        { question: 'How many moons?' },
      ),
    },
    {
      name: 'a team of a router and an executor has no worker to blame',
      trace: whoAndWhenRun([
        ['human', 'q'],
        ['Orchestrator (thought)', 'plan'],
        ['ComputerTerminal', 'exitcode: 0'],
      ]),
    },
  ],
  invalid: [
    {
      name: 'CaptainAgent: the busiest expert’s first turn after the task handed over, then the others’ first turns',
      trace: whoAndWhenRun(
        [
          ['assistant', task, 'Planner_Expert'],
          ['assistant', 'Let me look it up.', 'Data_Expert'],
          ['user', 'exitcode: 0 (execution succeeded)\nCode output: 2', 'Computer_terminal'],
          ['assistant', 'Mars has two moons.', 'Verify_Expert'],
          ['assistant', 'Confirmed: two.', 'Verify_Expert'],
          ['assistant', 'TERMINATE', 'Planner_Expert'],
        ],
        { question: 'How many moons has Mars?' },
      ),
      candidates: [
        {
          step: 4,
          messageId: 'busiest',
          data: { agent: 'Verify_Expert', turns: 2, total: 4 },
          strength: 'prior',
        },
        { step: 2, messageId: 'firstTurn', data: { agent: 'Data_Expert' }, strength: 'prior' },
        { step: 6, messageId: 'firstTurn', data: { agent: 'Planner_Expert' } },
      ],
    },
    {
      name: 'Magentic-One: the Orchestrator routes, the WebSurfer works',
      trace: whoAndWhenRun([
        ['human', 'Which cafe is open latest?'],
        ['Orchestrator (thought)', 'Initial plan: Which cafe is open latest?'],
        ['Orchestrator (-> WebSurfer)', 'Search cafes.'],
        ['WebSurfer', 'I typed cafes.'],
        ['Orchestrator (-> WebSurfer)', 'Open the first result.'],
        ['WebSurfer', 'I clicked it.'],
        ['Orchestrator (-> Assistant)', 'Summarise.'],
        ['Assistant', 'The Blue Door.'],
      ]),
      candidates: [
        { step: 4, messageId: 'busiest', data: { agent: 'WebSurfer', turns: 2, total: 3 } },
        { step: 8, messageId: 'firstTurn', data: { agent: 'Assistant' } },
      ],
    },
    {
      name: 'a role from config: an agent marked executor is not counted',
      trace: whoAndWhenRun([
        ['human', 'q?'],
        ['Runner', 'ran'],
        ['Runner', 'ran'],
        ['Thinker', 'thought'],
      ]),
      settings: { roles: { runner: 'executor' } },
      candidates: [{ step: 4, messageId: 'busiest', data: { agent: 'Thinker', turns: 1, total: 1 } }],
    },
  ],
});
