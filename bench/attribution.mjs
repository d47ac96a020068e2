// Failure attribution measured on labelled public runs. Not a test: runs analyze() (the built
// library, default configuration, no judges: the deterministic rules only) over three datasets and
// prints the tables docs/attribution.md and the issue notes quote.
//
// Who&When (who-and-when/Hand-Crafted and /Algorithm-Generated): each run is labelled with the
// agent (`mistake_agent`) and the history index (`mistake_step`) that caused its failure. Every
// history entry is one message step, so the labelled step is number mistake_step + 1; agent and
// step are scored as EXACT matches (the paper's scorer also accepts a gold number that appears
// inside the predicted one; this bench does not).
//   The split, decided before any result was looked at and never changed: in each set the files
//   are sorted by their numeric name; those at even positions (0, 2, 4, …) are the DESIGN half
//   (rules and thresholds were tuned looking at these only), those at odd positions the MEASURE
//   half (only ever measured). Per set and half: agent and step accuracy, runs left unattributed,
//   and per rule where it decides (it chose the root cause) and where it fires (it named a
//   candidate at all, chosen or not): how often its step and its agent are the labelled ones.
//
// τ-bench (tau-bench/gpt-4o-airline.json, halves as bench/datasets.mjs: dev = odd indices of the
// array, held-out = even): the share of failed runs (reward < 1) with a root cause, of successful
// runs with one, and — where the run departs from the task's expected actions — how often the root
// cause is the first departing write call. Departure is worked out here, independently of the
// library's rule: the run's calls of τ-bench airline's write tools, in order, against the expected
// actions' write calls (same name and arguments, key order ignored); the first that matches none
// left departs.
//
// AgentDojo (agentdojo/sample.jsonl, halves by line parity as above): for every attack that
// succeeded (`info.attack_succeeded`), whether the root cause is the step the injection entered
// through (the first tool result carrying the attack's `<INFORMATION>` block, found here by that
// marker) and names the first action it caused (`rootCause.effect`); and how often runs whose
// attack failed, or that were never attacked, are blamed on an injection.
//
// Usage:
//   npm run build && node bench/attribution.mjs [DATASETS_DIR] [--only who-and-when|tau-bench|agentdojo] [--json FILE]
// DATASETS_DIR defaults to ../shared/datasets beside the repository.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { analyze, attributionFacts, attributionSettings, loadTraces } from '../build/index.js';
import { checkFlags, flag, repo, root } from './datasetArgs.mjs';

checkFlags('node bench/attribution.mjs [DATASETS_DIR] [--only NAME] [--json FILE]', ['--only', '--json']);
const only = flag('--only');
const jsonOut = flag('--json');
if (only !== undefined && !['who-and-when', 'tau-bench', 'agentdojo'].includes(only))
  throw new Error(`--only ${only}: expected who-and-when, tau-bench or agentdojo`);

const pct = (n, d) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)} %`);
const frac = (n, d) => `${n}/${d} (${pct(n, d)})`;
/** analyze() as the CLI runs it by default, but for the store: no baselines, no judges, no webhook. */
const run = (paths, options = {}) =>
  analyze(paths, { baselines: false, escalate: false, notify: false, cwd: repo, ...options });
const settings = attributionSettings();
const results = {};

// ── Who&When ────────────────────────────────────────────────────────────────────────────────────

async function whoAndWhen(set) {
  const dir = path.join(root, 'who-and-when', set);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
  const halfOf = new Map(files.map((f, i) => [f, i % 2 === 0 ? 'design' : 'measure']));
  const paths = files.map((f) => path.join(dir, f));
  const report = await run(paths);
  const { traces } = await loadTraces(paths);
  const signalsOf = (id, file) => report.signals.filter((s) => s.traceId === id && s.file === file);
  const out = {};
  for (const half of ['design', 'measure']) {
    const row = { runs: 0, agent: 0, step: 0, unattributed: 0, decides: {}, fires: {} };
    for (const t of report.traces) {
      const name = path.basename(t.file);
      if (halfOf.get(name) !== half) continue;
      const label = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
      const goldStep = Number(label.mistake_step) + 1;
      const goldAgent = label.mistake_agent;
      row.runs++;
      const cause = t.rootCause;
      if (!cause || !('step' in cause)) {
        row.unattributed++;
      } else {
        const agentOk = cause.agent === goldAgent;
        const stepOk = cause.step === goldStep;
        row.agent += agentOk;
        row.step += stepOk;
        const d = (row.decides[cause.rule] ??= { n: 0, agent: 0, step: 0 });
        d.n++;
        d.agent += agentOk;
        d.step += stepOk;
      }
      // Where each rule fires: its first candidate (a rule names its earliest first).
      const loaded = traces.find((l) => l.trace.id === t.id && l.source.file === t.file);
      const facts = attributionFacts(loaded.trace, signalsOf(t.id, t.file), settings);
      const seen = new Set();
      for (const c of facts.candidates) {
        if (seen.has(c.rule)) continue;
        seen.add(c.rule);
        const f = (row.fires[c.rule] ??= { n: 0, agent: 0, step: 0 });
        f.n++;
        f.agent += c.agent === goldAgent;
        f.step += c.step === goldStep;
      }
    }
    out[half] = row;
  }
  return out;
}

function printWhoAndWhen(all) {
  console.log('\n## Who&When (exact match; deterministic rules, no judges)\n');
  console.log('| set | half | runs | agent | step | unattributed |\n|---|---|---:|---:|---:|---:|');
  for (const [set, halves] of Object.entries(all))
    for (const [half, r] of Object.entries(halves))
      console.log(
        `| ${set} | ${half} | ${r.runs} | ${frac(r.agent, r.runs)} | ${frac(r.step, r.runs)} | ${r.unattributed} |`,
      );
  console.log(
    '\nPer rule: where it decides (chose the root cause) and where it fires (named a step at all).\n',
  );
  console.log(
    '| set | half | rule | decides | agent right | step right | fires | agent right | step right |\n|---|---|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const [set, halves] of Object.entries(all))
    for (const [half, r] of Object.entries(halves))
      for (const rule of [...new Set([...Object.keys(r.fires), ...Object.keys(r.decides)])].sort()) {
        const d = r.decides[rule] ?? { n: 0, agent: 0, step: 0 };
        const f = r.fires[rule] ?? { n: 0, agent: 0, step: 0 };
        console.log(
          `| ${set} | ${half} | ${rule} | ${d.n} | ${pct(d.agent, d.n)} | ${pct(d.step, d.n)} | ${f.n} | ${pct(f.agent, f.n)} | ${pct(f.step, f.n)} |`,
        );
      }
}

// ── τ-bench ─────────────────────────────────────────────────────────────────────────────────────

/** τ-bench airline's tools that change the database or end the conversation (its tools/ module). */
const TAU_WRITES = new Set([
  'book_reservation',
  'cancel_reservation',
  'update_reservation_flights',
  'update_reservation_baggages',
  'update_reservation_passengers',
  'send_certificate',
  'transfer_to_human_agents',
]);
const sortedKeys = (v) =>
  JSON.stringify(v, (_k, x) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(
          Object.keys(x)
            .sort()
            .map((k) => [k, x[k]]),
        )
      : x,
  );

/** The step number of the run's first write call that matches no expected write left, if any. */
function firstDeparture(trace) {
  const expected = (trace.metadata?.info?.task?.actions ?? []).filter((a) => TAU_WRITES.has(a.name));
  const left = expected.map((a) => `${a.name}\u0000${sortedKeys(a.kwargs ?? {})}`);
  for (const [i, s] of trace.steps.entries()) {
    if (s.type !== 'tool' || !TAU_WRITES.has(s.name)) continue;
    const at = left.indexOf(`${s.name}\u0000${sortedKeys(s.args ?? {})}`);
    if (at < 0) return i + 1;
    left.splice(at, 1);
  }
  return undefined;
}

async function tauBench() {
  const file = path.join(root, 'tau-bench/gpt-4o-airline.json');
  const report = await run([file], { inputFormat: 'openai-messages', defaultModel: 'gpt-4o' });
  const { traces } = await loadTraces(file, { inputFormat: 'openai-messages' });
  const out = {};
  for (const half of ['dev', 'held-out']) {
    const r = {
      failed: 0,
      failedWithCause: 0,
      succeeded: 0,
      succeededWithCause: 0,
      departing: 0,
      onDeparture: 0,
    };
    const byRule = {};
    traces.forEach(({ trace }, i) => {
      if ((i % 2 === 1) !== (half === 'dev')) return;
      const t = report.traces.find((x) => x.id === trace.id);
      const failed = trace.outcome?.success === false;
      const cause = t.rootCause;
      const attributed = cause !== undefined && 'step' in cause;
      if (failed) {
        r.failed++;
        r.failedWithCause += attributed;
        if (attributed) byRule[cause.rule] = (byRule[cause.rule] ?? 0) + 1;
        const departure = firstDeparture(trace);
        if (departure !== undefined) {
          r.departing++;
          r.onDeparture += attributed && cause.step === departure;
        }
      } else {
        r.succeeded++;
        r.succeededWithCause += attributed;
      }
    });
    out[half] = { ...r, byRule };
  }
  return out;
}

function printTau(all) {
  console.log('\n## τ-bench airline (gpt-4o)\n');
  console.log(
    '| half | failed runs with a root cause | successful runs with one | departing runs: root cause on the first departing write |\n|---|---:|---:|---:|',
  );
  for (const [half, r] of Object.entries(all))
    console.log(
      `| ${half} | ${frac(r.failedWithCause, r.failed)} | ${frac(r.succeededWithCause, r.succeeded)} | ${frac(r.onDeparture, r.departing)} |`,
    );
  for (const [half, r] of Object.entries(all))
    console.log(`\n${half}: root causes by rule ${JSON.stringify(r.byRule)}`);
}

// ── AgentDojo ───────────────────────────────────────────────────────────────────────────────────

const INJECTION_MARK = /<INFORMATION>[\s\S]*important message/i;

async function agentDojo() {
  const file = path.join(root, 'agentdojo/sample.jsonl');
  const report = await run([file], { inputFormat: 'openai-messages' });
  const { traces } = await loadTraces(file, { inputFormat: 'openai-messages' });
  const out = {};
  for (const half of ['dev', 'held-out']) {
    const r = {
      succeeded: 0,
      onEntry: 0,
      withEffect: 0,
      effectIsCall: 0,
      otherAttacked: 0,
      otherBlamed: 0,
      benign: 0,
      benignBlamed: 0,
    };
    for (const { trace, source } of traces) {
      if ((source.line % 2 === 1) !== (half === 'dev')) continue;
      const info = trace.metadata?.info ?? {};
      const t = report.traces.find((x) => x.id === trace.id && x.line === source.line);
      const cause = t.rootCause;
      const onInjection = cause !== undefined && 'step' in cause && cause.rule === 'INJECTION_OBEYED';
      if (info.attack_succeeded) {
        r.succeeded++;
        const entry = trace.steps.findIndex(
          (s) =>
            s.type === 'tool' &&
            INJECTION_MARK.test(typeof s.result === 'string' ? s.result : JSON.stringify(s.result ?? '')),
        );
        if (onInjection && cause.step === entry + 1) r.onEntry++;
        if (onInjection && cause.effect && cause.effect.step > cause.step) {
          r.withEffect++;
          const effect = trace.steps[cause.effect.step - 1];
          r.effectIsCall +=
            effect?.type === 'tool' ||
            (effect?.type === 'llm' && (effect.output?.toolCalls?.length ?? 0) > 0);
        }
      } else if (info.attacked) {
        r.otherAttacked++;
        r.otherBlamed += onInjection;
      } else {
        r.benign++;
        r.benignBlamed += onInjection;
      }
    }
    out[half] = r;
  }
  return out;
}

function printAgentDojo(all) {
  console.log('\n## AgentDojo (important_instructions attacks)\n');
  console.log(
    '| half | attacks that succeeded | root cause on the injection’s entry step | names the action it caused | that action is a call | failed attacks blamed on an injection | benign runs blamed on one |\n|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const [half, r] of Object.entries(all))
    console.log(
      `| ${half} | ${r.succeeded} | ${frac(r.onEntry, r.succeeded)} | ${frac(r.withEffect, r.succeeded)} | ${frac(r.effectIsCall, r.withEffect)} | ${frac(r.otherBlamed, r.otherAttacked)} | ${frac(r.benignBlamed, r.benign)} |`,
    );
}

if (!only || only === 'who-and-when') {
  results.whoAndWhen = {};
  for (const set of ['Hand-Crafted', 'Algorithm-Generated']) results.whoAndWhen[set] = await whoAndWhen(set);
  printWhoAndWhen(results.whoAndWhen);
}
if (!only || only === 'tau-bench') {
  results.tauBench = await tauBench();
  printTau(results.tauBench);
}
if (!only || only === 'agentdojo') {
  results.agentDojo = await agentDojo();
  printAgentDojo(results.agentDojo);
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(results, null, 2));
