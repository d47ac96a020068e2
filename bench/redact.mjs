// Benchmark: redaction on the paths it sits on, this build against another. Not a test: prints
// what one run on this machine measured. Usage:
//   npm run build && node bench/redact.mjs [--compare <build dir>] [rounds=7]
// Three deterministic inputs of 4 MiB: agent prose with no secret (the fast path every signal
// takes), a trace's JSON walked by redactDeep (what the HTML report and saved traces embed), and
// the same trace with a credential in one string in fifty (the slow path). Each is redacted
// `rounds` times per build, the builds taking turns, and the median milliseconds per MiB are
// printed with the ratio this/compare. For a build from before a change: copy build/ aside first
// (`cp -r build /tmp/build-before`), or build an older checkout.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const compareAt = args.indexOf('--compare');
const compareDir = compareAt >= 0 ? path.resolve(args.splice(compareAt, 2)[1]) : undefined;
const rounds = Number(args[0] ?? 7);
const MIB = 1024 * 1024;

const load = async (dir) => import(pathToFileURL(path.join(dir, 'redact', 'redact.js')).href);
const builds = [{ name: 'this', lib: await load(path.join(here, '..', 'build')) }];
if (compareDir) builds.push({ name: 'compare', lib: await load(compareDir) });

/** A small seeded generator: the same inputs every run. */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seeded(29);
const WORDS =
  'the agent called search_docs for the refund policy and the order 4412 shipped on Monday; tool returned 12 results in 340 ms while the model gpt-4o-mini summarised the page about /home/ci/src/agents/checkout_handler.ts trace 4bf92f3577b34da6a3ce929d0e0e4736'.split(
    ' ',
  );
const sentence = () =>
  Array.from(
    { length: 12 + Math.floor(random() * 20) },
    () => WORDS[Math.floor(random() * WORDS.length)],
  ).join(' ');

const prose = Array.from({ length: 40_000 }, sentence)
  .join('. ')
  .slice(0, 4 * MIB);

function traceOf(withSecrets) {
  const steps = [];
  let bytes = 0;
  for (let i = 0; bytes < 4 * MIB; i++) {
    const secret = withSecrets && i % 50 === 0 ? ` using ghp_${'Ab3'.repeat(12)} and password=hunter2x` : '';
    const step = {
      type: 'tool',
      name: 'search_docs',
      args: { query: sentence(), limit: 10, page: i },
      status: 'ok',
      result: sentence() + secret + sentence(),
    };
    bytes += JSON.stringify(step).length;
    steps.push(step);
  }
  return { id: 'bench', agentId: 'support', steps };
}
const inputs = [
  { name: 'prose, no secret (redact)', mib: prose.length / MIB, run: (lib) => lib.redact(prose) },
  { name: 'a trace (redactDeep)', mib: 4, value: traceOf(false), run: (lib, v) => lib.redactDeep(v) },
  {
    name: 'a trace, secrets in 1/50 (redactDeep)',
    mib: 4,
    value: traceOf(true),
    run: (lib, v) => lib.redactDeep(v),
  },
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
process.stdout.write(
  `| input | ${builds.map((b) => `${b.name} ms/MiB`).join(' | ')}${compareDir ? ' | this/compare' : ''} |\n`,
);
process.stdout.write(`| --- | ${builds.map(() => '---').join(' | ')}${compareDir ? ' | ---' : ''} |\n`);
for (const input of inputs) {
  const times = builds.map(() => []);
  for (const b of builds) input.run(b.lib, input.value); // warm: the first call interprets each regex
  for (let r = 0; r < rounds; r++)
    builds.forEach((b, i) => {
      const t = performance.now();
      input.run(b.lib, input.value);
      times[i].push((performance.now() - t) / input.mib);
    });
  const medians = times.map(median);
  const ratio = compareDir ? ` | ${(medians[0] / medians[1]).toFixed(2)}` : '';
  process.stdout.write(`| ${input.name} | ${medians.map((m) => m.toFixed(1)).join(' | ')}${ratio} |\n`);
}
