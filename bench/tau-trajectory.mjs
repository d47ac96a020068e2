// How well does matchTrajectory agree with τ-bench's own verdict? Not a test: prints, for each mode
// and argument mode (exact, superset, subset), the share of runs where `pass === (reward === 1)`:
// first one table of them all, then per combination a confusion table and the disagreements with a
// one-line reason. Usage:
//   npm run build && node bench/tau-trajectory.mjs [dataset.json] [--check-transfer]
// The dataset is a τ-bench results file (an array of runs {task_id, reward, info.task.actions,
// traj}); default ../shared/datasets/tau-bench/gpt-4o-airline.json relative to the repository.
//
// Expected calls are the task's ground-truth actions (kwargs → args). Read-only tools are ignored on
// both sides: τ-bench's reward replays the ground-truth actions and compares the resulting database
// (plus the outputs the user must be told), so lookups never change it. transfer_to_human_agents is
// ignored by default too: it writes nothing to the database, so the reward cannot see it (a run that
// should transfer and does not, but leaves the database untouched, still scores 1), and checking it
// only adds disagreements. --check-transfer counts it as a call to make, to measure that.
// Failed calls (tool results starting "Error:") are ignored: they changed nothing.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTraces, matchTrajectory } from '../build/index.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const checkTransfer = argv.includes('--check-transfer');
const file = path.resolve(
  argv.find((a) => !a.startsWith('--')) ??
    path.join(repo, '../shared/datasets/tau-bench/gpt-4o-airline.json'),
);

const READ_ONLY = [
  'get_reservation_details',
  'get_user_details',
  'search_direct_flight',
  'search_onestop_flight',
  'list_all_airports',
  'calculate',
  'think',
];
const ignoreTools = checkTransfer ? READ_ONLY : [...READ_ONLY, 'transfer_to_human_agents'];
const MODES = ['strict', 'unordered', 'subset', 'superset'];
// τ-bench's tools ignore keys they do not take (task 5's flights carry origin and destination):
// `superset` accepts such extra keys, `subset` accepts calls that leave optional keys out.
const ARG_MODES = ['exact', 'superset', 'subset'];

const { traces, stats } = await loadTraces(file);
if (stats.errors.length > 0) {
  for (const e of stats.errors.slice(0, 5)) console.error(`${e.file}:${e.line ?? ''}: ${e.message}`);
}
const runs = traces
  .map(({ trace }) => ({
    trace,
    success: trace.outcome?.success,
    expected: (trace.metadata?.info?.task?.actions ?? []).map((a) => ({
      name: a.name,
      args: a.kwargs ?? {},
    })),
  }))
  .filter((r) => r.success !== undefined);
console.log(
  `${path.basename(file)}: ${runs.length} runs with a reward (${runs.filter((r) => r.success).length} rewarded 1); ` +
    `ignored tools: ${ignoreTools.join(', ')}; failed calls ignored`,
);

const brief = (v) => {
  const s = JSON.stringify(v);
  return s.length > 70 ? `${s.slice(0, 69)}…` : s;
};
function reason(r) {
  const parts = [];
  if (r.mismatched.length > 0) {
    const m = r.mismatched[0];
    const diff = m.diff.split('\n').slice(0, 2).join(' ');
    parts.push(`mismatched ${m.name} (expected[${m.index}] vs step ${m.step}: ${diff})`);
  }
  if (r.missing.length > 0) parts.push(`missing ${r.missing.map((m) => m.name).join(', ')}`);
  if (r.extra.length > 0) {
    parts.push(
      `extra ${r.extra.map((x) => `${x.name}@${x.step}${x.args ? ` ${brief(x.args)}` : ''}`).join(', ')}`,
    );
  }
  if (r.outOfOrder.length > 0) parts.push(`out of order ${r.outOfOrder.map((o) => o.name).join(', ')}`);
  return parts.join('; ') || 'every expected call made, as expected';
}

/** What τ-bench's own record says about a reward of 0, when it says something the calls cannot show. */
function tauSays(info) {
  if (!info?.reward_info)
    return 'tau-bench: no reward_info, the episode never ended (step limit), so reward stayed 0';
  const outputs = info.reward_info.info?.outputs;
  const untold = outputs ? Object.keys(outputs).filter((k) => outputs[k] === false) : [];
  if (untold.length > 0) return `tau-bench: output(s) not told to the user: ${untold.join(', ')}`;
  if (info.reward_info.info?.r_actions === 0)
    return 'tau-bench: final database differs from the ground truth';
  return '';
}

const pct = (n) => `${((100 * n) / runs.length).toFixed(1)} %`;
const results = [];
for (const args of ARG_MODES) {
  for (const mode of MODES) {
    const table = { tp: 0, fp: 0, fn: 0, tn: 0 };
    const disagreements = [];
    for (const run of runs) {
      const r = matchTrajectory(run.trace, run.expected, {
        mode,
        args,
        ignore: { tools: ignoreTools, failedCalls: true },
      });
      if (r.pass && run.success) table.tp++;
      else if (r.pass) table.fp++;
      else if (run.success) table.fn++;
      else table.tn++;
      if (r.pass !== run.success) {
        const why = run.success ? '' : tauSays(run.trace.metadata?.info);
        disagreements.push(
          `  ${run.trace.id} reward=${run.success ? 1 : 0} pass=${r.pass}: ${reason(r)}${why ? ` [${why}]` : ''}`,
        );
      }
    }
    results.push({ mode, args, table, disagreements, agree: table.tp + table.tn });
  }
}

console.log(`\nagreement with the reward (pass === reward 1), ${runs.length} runs:`);
console.log(`${'mode'.padEnd(12)}${ARG_MODES.map((a) => `args ${a}`.padStart(22)).join('')}`);
for (const mode of MODES) {
  const cells = ARG_MODES.map((args) => {
    const r = results.find((x) => x.mode === mode && x.args === args);
    return `${r.agree}/${runs.length} = ${pct(r.agree)}`.padStart(22);
  });
  console.log(`${mode.padEnd(12)}${cells.join('')}`);
}

for (const { mode, args, table, disagreements, agree } of results) {
  console.log(`\n== ${mode}, args ${args}: agreement ${agree}/${runs.length} = ${pct(agree)}`);
  console.log('                 reward 1   reward 0');
  console.log(`  pass        ${String(table.tp).padStart(10)} ${String(table.fp).padStart(10)}`);
  console.log(`  fail        ${String(table.fn).padStart(10)} ${String(table.tn).padStart(10)}`);
  console.log(`  disagreements (${disagreements.length}):`);
  for (const d of disagreements) console.log(d);
}
