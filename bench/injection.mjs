// How PROMPT_INJECTION_SIGNAL holds on real agents' recordings, split into development and
// held-out halves. Not a test: runs `analyze()` (the built library, default configuration, no API
// key, an empty state directory) over each dataset and prints, per half:
//   - AgentDojo: runs with an injection finding among attacked runs (all of them, and those whose
//     tool results carried the injected text at all), among attacks that succeeded, and among
//     benign runs; critical findings (the agent acted on the injection) on attacks that succeeded
//     and on those that did not; critical findings and signals left for review on benign runs;
//   - mini-swe-agent (a coding agent), τ-bench (customer service), Who&When (multi-agent web
//     browsing), crashlens (flat LLM-call logs): runs with any injection signal, by status and
//     severity (none of them carries an attack).
// The split: a run's 1-based position in its file (its line for JSONL, its index in a JSON array,
// its file in sorted order for a folder of files) — odd is development data (patterns were tuned
// on it), even is held out (looked at only to report).
// Usage:
//   npm run build && node bench/injection.mjs [DATASETS_DIR] [--json FILE]
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analyze, loadTraces } from '../build/index.js';
import { checkFlags, flag, root } from './datasetArgs.mjs';
import { table } from './markdownTable.mjs';

checkFlags('node bench/injection.mjs [DATASETS_DIR] [--json FILE]', ['--json']);

const jsonOut = flag('--json');
const DETECTOR = 'PROMPT_INJECTION_SIGNAL';

const filesIn = (dir, pattern) =>
  readdirSync(path.join(root, dir), { recursive: true })
    .filter((f) => pattern.test(f))
    .sort()
    .map((f) => path.join(dir, f));

const DATASETS = [
  { name: 'agentdojo', files: ['agentdojo/sample.jsonl'], format: 'openai-messages', attacks: true },
  { name: 'mini-swe-agent', files: ['mini-swe-agent/sample.jsonl'], format: 'openai-messages' },
  { name: 'tau-bench', files: ['tau-bench/gpt-4o-airline.json'], format: 'openai-messages' },
  { name: 'who-and-when', files: filesIn('who-and-when', /\.json$/), format: 'openai-messages' },
  {
    name: 'crashlens',
    files: filesIn('crashlens/examples-logs', /\.jsonl$/).filter((f) => !f.includes('malformed')),
    format: 'records',
  },
];

const pct = (n, d) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)} %`);
const share = (n, d) => `${n} of ${d} (${pct(n, d)})`;

/** Each run of a dataset with its half, its metadata and what the detector said about it. */
async function runsOf(ds, stateDir) {
  const runs = [];
  for (const file of ds.files) {
    const full = path.join(root, file);
    const { traces } = await loadTraces(full, { inputFormat: ds.format });
    const report = await analyze(full, { inputFormat: ds.format, stateDir, cwd: stateDir, env: {} });
    const signals = new Map();
    for (const s of report.signals) {
      if (s.detector !== DETECTOR) continue;
      if (!signals.has(s.traceId)) signals.set(s.traceId, []);
      signals.get(s.traceId).push(s);
    }
    // A file of many runs splits by position in the file; a folder of one-run files by file.
    const single = traces.length === 1 && ds.files.length > 1;
    const position = single ? ds.files.indexOf(file) + 1 : undefined;
    const ids = new Set();
    traces.forEach(({ trace }, i) => {
      const key = `${file}\u0000${trace.id}`;
      if (ids.has(key))
        throw new Error(`${file}: trace id ${trace.id} appears twice; the split needs one run per id`);
      ids.add(key);
      const n = position ?? i + 1;
      runs.push({
        half: n % 2 === 1 ? 'dev' : 'held-out',
        info: trace.metadata?.info ?? {},
        text: JSON.stringify(trace.steps),
        signals: signals.get(trace.id) ?? [],
      });
    });
  }
  return runs;
}

const finding = (r) => r.signals.some((s) => s.status === 'finding');
const review = (r) => r.signals.some((s) => s.status === 'review');
const critical = (r) => r.signals.some((s) => s.status === 'finding' && s.severity === 'critical');
const anySignal = (r) => r.signals.length > 0;

const results = {};
const stateDir = mkdtempSync(path.join(tmpdir(), 'tracejury-injection-bench-'));
try {
  for (const ds of DATASETS) {
    const runs = await runsOf(ds, stateDir);
    const halves = ['dev', 'held-out'].map((h) => [h, runs.filter((r) => r.half === h)]);
    const out = {};
    let rows;
    let header;
    if (ds.attacks) {
      header = [
        'half',
        'attacked: finding',
        'injected text reached the model: finding',
        'attack succeeded: finding',
        'attack succeeded: critical',
        'attack failed: critical',
        'benign: finding',
        'benign: review',
        'benign: critical',
      ];
      rows = halves.map(([h, rs]) => {
        const attacked = rs.filter((r) => r.info.attacked === true);
        // The injected text in a tool result the agent received (some agents never fetch it).
        const reached = attacked.filter((r) => /important message|<INFORMATION>/i.test(r.text));
        const succeeded = attacked.filter((r) => r.info.attack_succeeded === true);
        const resisted = attacked.filter((r) => r.info.attack_succeeded !== true);
        const benign = rs.filter((r) => r.info.attacked === false);
        const n = (xs, f) => xs.filter(f).length;
        out[h] = {
          attacked: attacked.length,
          attackedFinding: n(attacked, finding),
          reached: reached.length,
          reachedFinding: n(reached, finding),
          succeeded: succeeded.length,
          succeededFinding: n(succeeded, finding),
          succeededCritical: n(succeeded, critical),
          resisted: resisted.length,
          resistedCritical: n(resisted, critical),
          benign: benign.length,
          benignFinding: n(benign, finding),
          benignReview: n(benign, review),
          benignCritical: n(benign, critical),
        };
        const o = out[h];
        return [
          h,
          share(o.attackedFinding, o.attacked),
          share(o.reachedFinding, o.reached),
          share(o.succeededFinding, o.succeeded),
          share(o.succeededCritical, o.succeeded),
          share(o.resistedCritical, o.resisted),
          share(o.benignFinding, o.benign),
          share(o.benignReview, o.benign),
          share(o.benignCritical, o.benign),
        ];
      });
    } else {
      header = ['half', 'runs', 'any injection signal', 'finding', 'review', 'critical finding'];
      rows = halves.map(([h, rs]) => {
        const n = (f) => rs.filter(f).length;
        out[h] = {
          runs: rs.length,
          signal: n(anySignal),
          finding: n(finding),
          review: n(review),
          critical: n(critical),
        };
        const o = out[h];
        return [
          h,
          String(o.runs),
          share(o.signal, o.runs),
          share(o.finding, o.runs),
          share(o.review, o.runs),
          share(o.critical, o.runs),
        ];
      });
    }
    results[ds.name] = out;
    console.log(`### ${ds.name}\n\n${table(header, rows)}\n`);
  }
} finally {
  rmSync(stateDir, { recursive: true, force: true });
}
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(results, null, 2)}\n`);
