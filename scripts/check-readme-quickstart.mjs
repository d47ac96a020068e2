// The README's Vitest quick start, done as a new user does it, so the README stays true: pack the
// package, make an empty project, install the tarball and what the README's install line names,
// write exactly the files the README shows, run the commands it shows, and check what they did.
//   npm run build && node scripts/check-readme-quickstart.mjs [tracejury-x.y.z.tgz]
//
// The README marks what this reads with a comment on the line before each fence:
//   <!-- quickstart: install|run|record|cli -->   a ```sh block to run (install: `tracejury` is the tarball)
//   <!-- quickstart-file: PATH -->                a file to write, as shown
//   <!-- quickstart-append: PATH -->              a block to append to a file written before
// The judges of the "record" step are stand-ins on 127.0.0.1 (scripts/stand-in-judges.mjs) reached
// through the real SDKs; the replay run after it must call none. Needs the npm registry for the
// install (--prefer-offline) and Node 22.15+ (the package's engines; AI SDK 7 needs Node 22).
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStandInJudges } from './stand-in-judges.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
const TIMEOUT_MS = 180_000;

/** The README's marked blocks, in order: { kind, target, body, line }. */
function quickstartBlocks() {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const marked = /^<!-- quickstart(?:: (\w+)|-(file|append): (\S+)) -->\n\n```\w*\n([\s\S]*?)^```$/gm;
  return [...readme.matchAll(marked)].map((m) => ({
    kind: m[1] ?? m[2],
    target: m[3],
    body: m[4],
    line: readme.slice(0, m.index).split('\n').length,
  }));
}

let project; // the empty project, once made: left in place on failure, to look at
function fail(message, output = '') {
  console.error(`README quick start: ${message}`);
  if (output) console.error(output.split('\n').slice(-40).join('\n'));
  if (project) console.error(`(the project is left in ${project})`);
  process.exit(1);
}

const blocks = quickstartBlocks();
const one = (kind, target) => {
  const found = blocks.filter((b) => b.kind === kind && (target === undefined || b.target === target));
  if (found.length !== 1)
    fail(
      `README.md must mark exactly one block "<!-- quickstart${target ? `-${kind}: ${target}` : `: ${kind}`} -->" (found ${found.length})`,
    );
  return found[0];
};
for (const b of blocks)
  if (!['install', 'run', 'record', 'cli', 'file', 'append'].includes(b.kind))
    fail(`README.md:${b.line}: unknown quick-start marker "${b.kind}"`);
const install = one('install');
const runBlock = one('run');
const record = one('record');
const cli = one('cli');
const gitignore = one('file', '.gitignore');
const configFile = one('file', 'vitest.config.ts');

// A child's environment: no provider key or base URL of the machine, no colours.
const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^(OPENAI|ANTHROPIC)_|^TRACEJURY_/.test(k)),
);
Object.assign(cleanEnv, { NO_COLOR: '1', CI: 'true', npm_config_audit: 'false', npm_config_fund: 'false' });

// Asynchronous, so the stand-in judges in this process can answer while a command runs.
function sh(command, cwd, env = cleanEnv) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

async function mustRun(what, command, cwd, env) {
  const t = Date.now();
  console.log(`+ ${command}`);
  const result = await sh(command, cwd, env);
  if (result.code !== 0) fail(`${what} (\`${command}\`) exited ${result.code}`, result.output);
  console.log(`  ok (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  return result.output;
}

const readReport = (project) => {
  const file = path.join(project, '.tracejury', 'report.json');
  if (!existsSync(file)) fail('`npx vitest run` wrote no .tracejury/report.json');
  return JSON.parse(readFileSync(file, 'utf8'));
};

// The package as npm would publish it.
let tarball = process.argv[2] && path.resolve(process.argv[2]);
let packDir;
if (!tarball) {
  packDir = mkdtempSync(path.join(tmpdir(), 'tj-quickstart-pack-'));
  await mustRun('npm pack', `npm pack --silent --pack-destination ${JSON.stringify(packDir)}`, root);
  tarball = path.join(
    packDir,
    readdirSync(packDir).find((f) => f.endsWith('.tgz')),
  );
}

// An empty folder, as a user starts: no package.json. The install line writes npm's own, which
// does not say "type": "module", so the config is loaded as CommonJS, as it is for them.
project = mkdtempSync(path.join(tmpdir(), 'tj-quickstart-'));
await mustRun('git init', 'git init -q', project);

const write = (block) => {
  const file = path.join(project, block.target);
  mkdirSync(path.dirname(file), { recursive: true });
  if (block.kind === 'append') {
    if (!existsSync(file))
      fail(`README.md:${block.line}: appends to ${block.target}, which no block before it wrote`);
    appendFileSync(file, `\n${block.body}`);
  } else {
    writeFileSync(file, block.body);
  }
};

/** The run command, and the report it must leave: every test passed, a trace captured; after the
 * judges were recorded, their verdicts replayed without asking any judge. */
async function runAndCheck() {
  const withJudges = existsSync(path.join(project, '.tracejury', 'cassette.jsonl'));
  const asked = judges.requests.length;
  // Keys and base URLs of the stand-ins are set, so a replay that called out would be seen.
  await mustRun('the run command', runBlock.body.trim().split('\n').join(' && '), project, {
    ...cleanEnv,
    ...judges.env,
  });
  const report = readReport(project);
  if (!report.gate.passed) fail(`the report's gate failed: ${report.gate.reasons.join('; ')}`);
  if (!(report.tests?.length >= 1) || report.tests.some((t) => t.state !== 'passed'))
    fail(`not every test passed: ${JSON.stringify(report.tests?.map((t) => [t.name, t.state]))}`);
  if (report.traces.length < 1 || report.traces[0].toolCalls < 1)
    fail('the report holds no captured trace with a tool call: did captureTrace see the spans?');
  if (withJudges) {
    if (judges.requests.length !== asked)
      fail(`the replay run asked the judges: ${judges.requests.slice(asked).join(', ')}`);
    if (report.verdicts.length < 1 || !report.verdicts.every((v) => v.passed))
      fail('the replay run has no passing verdict of the judges');
  }
  console.log(
    `  report: ${report.tests.length} tests passed, ${report.traces.length} traces, ${report.verdicts.length} verdicts`,
  );
  return report;
}

const judges = await startStandInJudges();
try {
  for (const block of blocks) {
    if (block.kind === 'file' || block.kind === 'append') {
      write(block);
      continue;
    }
    const commands = block.body.trim().split('\n');
    if (block === install) {
      if (commands.length !== 1 || !/\btracejury\b/.test(commands[0]))
        fail(`README.md:${block.line}: the install block must be one command that names tracejury`);
      const command = commands[0].replace(/\btracejury\b/, JSON.stringify(tarball));
      await mustRun('the install line', `${command} --prefer-offline`, project);
      const written = path.join(project, 'package.json');
      if (!existsSync(written)) fail('the install line wrote no package.json in the empty folder');
      const type = JSON.parse(readFileSync(written, 'utf8')).type;
      console.log(`  package.json written by npm, "type": ${JSON.stringify(type ?? null)}`);
    } else if (block === runBlock) {
      await runAndCheck();
    } else if (block === record) {
      await mustRun('the record command', commands.join(' && '), project, { ...cleanEnv, ...judges.env });
      const cassette = path.join(project, '.tracejury', 'cassette.jsonl');
      if (!existsSync(cassette)) fail('recording wrote no .tracejury/cassette.jsonl');
      if (judges.requests.length === 0) fail('recording asked no judge');
      console.log(`  ${judges.requests.length} judge answers recorded`);
      // "From then on `npx vitest run` replays them": the run command again, with no judge asked.
      const replayed = await runAndCheck();
      if (replayed.verdicts.length < 1) fail('the run after recording holds no verdict');
    } else if (block === cli) {
      // The CLI block's inputs: recorded traces (the repository's examples) and a report of main's.
      cpSync(path.join(root, 'examples', 'traces'), path.join(project, 'traces'), { recursive: true });
      cpSync(path.join(project, '.tracejury', 'report.json'), path.join(project, 'main-report.json'));
      for (const command of commands) {
        console.log(`+ ${command}`);
        const result = await sh(command, project);
        // 0 or 1 is the gate's verdict on the example traces; 2 would be a usage error.
        if (result.code !== 0 && result.code !== 1)
          fail(`\`${command}\` exited ${result.code}`, result.output);
        console.log(`  exit ${result.code}`);
      }
      if (!existsSync(path.join(project, 'report.html')))
        fail('`tracejury analyze … --out report.html` wrote no report.html');
      if (!existsSync(path.join(project, '.tracejury', 'baselines.json')))
        fail('`tracejury baseline update` wrote no .tracejury/baselines.json');
    }
  }
  if (blocks.indexOf(runBlock) > blocks.indexOf(record))
    fail('the run command must come before the record command');
  if (blocks.indexOf(gitignore) < blocks.indexOf(cli))
    fail('the .gitignore block must come after the CLI block');

  // The .gitignore keeps what the README says to commit and ignores what each run rewrites.
  mkdirSync(path.join(project, '.tracejury', 'traces'), { recursive: true });
  writeFileSync(path.join(project, '.tracejury', 'traces', 'a-failed-test.jsonl'), '{}\n');
  const status = (await sh('git status --porcelain --ignored --untracked-files=all -- .tracejury', project))
    .output;
  const state = (file) =>
    status.includes(`?? .tracejury/${file}`)
      ? 'kept'
      : status.includes(`!! .tracejury/${file}`)
        ? 'ignored'
        : 'absent';
  for (const [file, want] of [
    ['cassette.jsonl', 'kept'],
    ['baselines.json', 'kept'],
    ['report.json', 'ignored'],
    ['report.html', 'ignored'],
    ['traces/', 'ignored'],
  ])
    if (state(file) !== want)
      fail(`with the README's .gitignore, .tracejury/${file} is ${state(file)}, not ${want}`, status);
  console.log('+ git status: the cassette and baselines are kept, the reports and traces ignored');

  // The same project as an ES module package, and with the config named .mts: the config loads in
  // every module system a user's package may have.
  await sh('npm pkg set type=module', project);
  await mustRun('the run command, with "type": "module"', runBlock.body.trim(), project, {
    ...cleanEnv,
    ...judges.env,
  });
  await sh('npm pkg delete type', project);
  renameSync(path.join(project, configFile.target), path.join(project, 'vitest.config.mts'));
  await mustRun('the run command, as CommonJS with vitest.config.mts', runBlock.body.trim(), project, {
    ...cleanEnv,
    ...judges.env,
  });
} finally {
  await judges.close();
}

if (process.env.KEEP_QUICKSTART) console.log(`project kept in ${project}`);
else rmSync(project, { recursive: true, force: true });
if (packDir) rmSync(packDir, { recursive: true, force: true });
console.log(`README quick start: ok (${((Date.now() - started) / 1000).toFixed(1)} s)`);
