// What `npm install tracejury` gets: the tarball `npm pack` would publish holds what a user needs
// (the built library, CLI and Vitest plugin, the JSON Schemas, README, LICENSE, CHANGELOG) and
// nothing else (no tests, sources, benches, scripts, docs, the Action's bundle or source maps), and
// package.json names the repository, so npm's page resolves the README's relative links and images
// against it (it rewrites them to the repository's default branch on GitHub).
//   node scripts/check-pack.mjs   (after npm run build) prints the problems and exits 1 on any.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Files the tarball must hold. */
export const REQUIRED_FILES = [
  'package.json',
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
  'build/index.js',
  'build/index.d.ts',
  'build/cli/bin.js',
  'build/vitest-plugin/index.js',
  'build/vitest-plugin/matchers.js',
  'schemas/trace.schema.json',
  'schemas/tracejury.config.schema.json',
  'schemas/report.schema.json',
];

/** What a user never needs, each with why it is kept out. */
const FORBIDDEN = [
  [
    /^(test|src|bench|scripts|examples|docs|report-ui|vitest-plugin|dist|\.ci|\.github)\//,
    'not part of the published package',
  ],
  [/^build\/action\//, "the Action's build (it runs from dist/ in the repository, never from npm)"],
  [/\.test\.[cm]?[jt]s$/, 'a test file'],
  [/\.map$/, 'a source map (the package ships no sources for it to point into)'],
  [/(^|\/)\.tracejury\//, 'local run state'],
];

const GITHUB_REPOSITORY = /^git\+https:\/\/github\.com\/([\w.-]+)\/([\w.-]+?)\.git$/;

/** Problems with the packed file list and the package's metadata, as sentences. */
export function packProblems(files, pkg) {
  const problems = [];
  const listed = new Set(files);
  for (const file of REQUIRED_FILES)
    if (!listed.has(file)) problems.push(`${file} is missing from the tarball`);
  for (const file of files) {
    const hit = FORBIDDEN.find(([pattern]) => pattern.test(file));
    if (hit) problems.push(`${file} is in the tarball: ${hit[1]}`);
  }
  const repo = GITHUB_REPOSITORY.exec(pkg.repository?.url ?? '');
  if (pkg.repository?.type !== 'git' || !repo) {
    problems.push(
      'package.json repository must be { type: "git", url: "git+https://github.com/OWNER/REPO.git" }: ' +
        "without it npm's page leaves the README's relative links and images broken",
    );
  } else {
    const base = `https://github.com/${repo[1]}/${repo[2]}`;
    if (pkg.homepage !== `${base}#readme`) problems.push(`package.json homepage must be ${base}#readme`);
    const bugs = typeof pkg.bugs === 'string' ? pkg.bugs : pkg.bugs?.url;
    if (bugs !== `${base}/issues`) problems.push(`package.json bugs must be ${base}/issues`);
  }
  if (pkg.license !== 'MIT') problems.push(`package.json license is ${pkg.license}, the LICENSE file is MIT`);
  return problems;
}

/** `npm pack --dry-run --json` in root: the files and sizes of the tarball it would write. */
export function dryRunPack(root) {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const [pack] = JSON.parse(out);
  return { files: pack.files.map((f) => f.path), size: pack.size, unpackedSize: pack.unpackedSize };
}

function main() {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const pack = dryRunPack(root);
  const problems = packProblems(pack.files, pkg);
  for (const p of problems) console.error(`npm pack: ${p}`);
  if (problems.length > 0) {
    console.error('fix "files" in package.json (or package.json metadata), then run npm pack --dry-run');
    process.exit(1);
  }
  const kb = (n) => `${Math.round(n / 1024)} kB`;
  console.log(
    `+ npm pack --dry-run: ${pack.files.length} files, ${kb(pack.size)} packed (${kb(pack.unpackedSize)} unpacked); ` +
      'LICENSE, README.md, CHANGELOG.md in; no tests, src/, bench/ or source maps',
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
