// Summarises a V8 .cpuprofile by self time: the top functions, and the totals per source file.
//   node --cpu-prof --cpu-prof-dir=bench/out/prof build/cli/bin.js analyze FILE --format json --out /dev/null
//   node bench/profile-summary.mjs bench/out/prof/CPU.*.cpuprofile [top=30] [--samples]
// Self time is the time a function's own code ran (not its callees). Native frames (JSON.parse,
// regex execution, TextEncoder…) are named as V8 names them; "(garbage collector)" is GC.
// --samples weighs every sample alike (the median interval) instead of by the wall time until the
// next one: on a busy machine a process waiting for a core leaves a long gap that the wall-time
// weighting charges to whatever ran just before it; sample counts stay proportional to CPU time.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const argv = process.argv.slice(2);
const bySamples = argv.includes('--samples');
const [file, topArg] = argv.filter((a) => a !== '--samples');
if (!file) {
  console.error('usage: node bench/profile-summary.mjs FILE.cpuprofile [top=30] [--samples]');
  process.exit(2);
}
const top = Number(topArg ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
// Sample i lasted timeDeltas[i + 1] (the delta before the next sample); the last gets the mean.
const self = new Map();
const { samples, timeDeltas } = profile;
const interval = [...timeDeltas].sort((a, b) => a - b)[timeDeltas.length >> 1] ?? 0;
const wall = profile.endTime - profile.startTime;
const total = bySamples ? interval * samples.length : wall;
/** The time sample i stands for. */
const weight = (i) =>
  bySamples ? interval : i + 1 < timeDeltas.length ? timeDeltas[i + 1] : wall / samples.length;
for (let i = 0; i < samples.length; i++) self.set(samples[i], (self.get(samples[i]) ?? 0) + weight(i));

const cwd = process.cwd();
const where = (cf) => {
  if (!cf.url) return '(native)';
  const p = cf.url.replace(/^file:\/\//, '');
  const rel = path.relative(cwd, p);
  return rel.startsWith('..') ? p : rel;
};
const fns = new Map();
const files = new Map();
for (const [id, us] of self) {
  const { callFrame: cf } = byId.get(id);
  const name = cf.functionName || '(anonymous)';
  const loc = where(cf);
  const key = `${name} ${loc}${cf.url ? `:${cf.lineNumber + 1}` : ''}`;
  fns.set(key, (fns.get(key) ?? 0) + us);
  const fileKey = cf.url ? loc : name.startsWith('(') ? name : '(native)';
  files.set(fileKey, (files.get(fileKey) ?? 0) + us);
}

// Inclusive time per source file of the project (build/ or src/): a sample counts once for every
// project file on its stack, so runner.js holds all the detectors, each detector file its own work
// (callees included), load.js the reading, parsing and importing.
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inclusive = new Map();
for (let i = 0; i < samples.length; i++) {
  const dt = weight(i);
  const seen = new Set();
  for (let id = samples[i]; id !== undefined; id = parent.get(id)) {
    const loc = where(byId.get(id).callFrame);
    // Files of this checkout (build/, src/, or a copied build such as bench/out/build-before/).
    if (
      !loc.startsWith('(') &&
      !loc.startsWith('node:') &&
      !loc.startsWith('/') &&
      !loc.includes('node_modules')
    )
      seen.add(loc);
  }
  for (const f of seen) inclusive.set(f, (inclusive.get(f) ?? 0) + dt);
}

const pct = (us) => `${((us / total) * 100).toFixed(1).padStart(5)} %`;
const ms = (us) => `${(us / 1000).toFixed(0).padStart(6)} ms`;
console.log(
  `profile: ${(wall / 1e6).toFixed(2)} s, ${samples.length} samples` +
    (bySamples
      ? ` (weighed alike: ${(interval / 1000).toFixed(2)} ms each, ${(total / 1e6).toFixed(2)} s)`
      : '') +
    '\n\nself time by function:',
);
for (const [k, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${ms(us)} ${pct(us)}  ${k}`);
console.log('\nself time by source file:');
for (const [k, us] of [...files].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${ms(us)} ${pct(us)}  ${k}`);
console.log('\ninclusive time by project file (callees included):');
for (const [k, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${ms(us)} ${pct(us)}  ${k}`);
