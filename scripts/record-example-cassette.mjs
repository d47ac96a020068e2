// Records examples/vitest/.tracejury/cassette.jsonl, the judges' answers the example's toPassTribunal replays
// in CI with no API key. A maintainers' tool of this repository, not part of the package:
//
//   npm run build && node scripts/record-example-cassette.mjs
//
// A project of your own records against the real providers with the built-in step (docs/vitest.md):
//
//   TRACEJURY_CASSETTE=record npx vitest run        (with the judges' API keys set)
//
// This repository has no provider keys and its build machines no network, so this script stands a
// judge server up on 127.0.0.1 that speaks the OpenAI Chat Completions and Anthropic Messages wire
// formats, points the official SDKs at it (OPENAI_BASE_URL / ANTHROPIC_BASE_URL, which both SDKs
// read) and runs the example in record mode — the same local-development path a project without
// keys can take with any OpenAI-compatible server. The entries are real recordings of that path:
// the requests tracejury built, sent through the SDKs, answered over HTTP; only the judges are
// stand-ins. Recording again replaces entries in place: the file stays sorted, one line per key,
// and unchanged where the answers are.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStandInJudges } from './stand-in-judges.mjs';

const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const cassette = path.join(repo, 'examples', 'vitest', '.tracejury', 'cassette.jsonl');
const vitestBin = path.join(
  path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
);

/** What each stand-in judge thinks of the answer: three slightly different, agreeing opinions. */
const OPINIONS = {
  'gpt-4o-mini': {
    score: 0.92,
    confidence: 0.88,
    passed: true,
    reasoning:
      'The answer says where the parcel is and gives the carrier’s expected delivery day, both taken from the tool results.',
  },
  'claude-haiku-4-5': {
    score: 0.9,
    confidence: 0.85,
    passed: true,
    reasoning:
      'Location and ETA match the track_shipment result; no date beyond what the carrier gave is promised.',
  },
  'gpt-4.1-mini': {
    score: 0.88,
    confidence: 0.86,
    passed: true,
    reasoning:
      'Accurate and grounded in the lookup and tracking results; two sentences as the agent was told.',
  },
};
const judges = await startStandInJudges({ opinions: OPINIONS, strict: true });

const code = await new Promise((resolve, reject) => {
  const child = spawn(process.execPath, [vitestBin, 'run', '--config', 'examples/vitest/vitest.config.ts'], {
    cwd: repo,
    stdio: 'inherit',
    env: {
      ...process.env,
      TRACEJURY_CASSETTE: 'record',
      ...judges.env,
    },
  });
  child.on('error', reject);
  child.on('close', resolve);
});
await judges.close();

console.log(
  `\n${judges.requests.length} judge requests recorded to ${path.relative(process.cwd(), cassette)}:`,
);
for (const r of judges.requests) console.log(`  ${r}`);
process.exit(code === 0 && judges.requests.length > 0 ? 0 : 1);
