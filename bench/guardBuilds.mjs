// The two builds the speed guard (bench/analyze.mjs --guard) times against each other in the same
// rounds: this checkout's src/ and a reference commit's (the previous commit by default), each
// transpiled the same way into bench/out/guard/. A ratio of two builds measured back to back is
// what holds on a shared machine whose speed drifts by half from minute to minute; a fixed limit
// against the floor had to be loose enough (1.6× the median) that a 20 % slowdown passed it.
//
// Both are transpiled file by file with esbuild (the project's tsconfig has isolatedModules and
// verbatimModuleSyntax, so each file compiles alone to what tsc emits, less the types), in about a
// second where tsc takes most of a minute; both builds are made alike so that only their source
// differs. Their imports resolve to this checkout's node_modules (bench/out/ is inside it).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/** Every .ts file under `dir` (not .d.ts). */
function tsFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...tsFiles(p));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/**
 * Transpiles `srcDir` (a src/ tree) into `outDir` as build/ is laid out, and returns the CLI's
 * entry. The HTML viewer's generated module is not in git: the one of this checkout (written by
 * `npm run build`) is used for both builds; the guard writes JSON reports, which never load it.
 */
export async function transpileBuild(srcDir, outDir, viewerModule) {
  rmSync(outDir, { recursive: true, force: true });
  const viewer = path.join(srcDir, 'report', 'html', 'viewer.generated.ts');
  if (!existsSync(viewer)) {
    if (!existsSync(viewerModule)) throw new Error(`${viewerModule} is missing: run \`npm run build\` first`);
    copyFileSync(viewerModule, viewer);
  }
  await build({
    entryPoints: tsFiles(srcDir),
    outdir: outDir,
    outbase: srcDir,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    bundle: false,
    logLevel: 'warning',
  });
  // ESM as build/ is (package.json "type": "module" is above bench/out/ too; this says it here).
  writeFileSync(path.join(outDir, 'package.json'), '{ "type": "module" }\n');
  return path.join(outDir, 'cli', 'bin.js');
}

/**
 * The guard's reference when none is named: what this checkout's src/ last changed from. With
 * uncommitted changes under src/, HEAD; otherwise the first parent of the newest commit that changed
 * src/ (a merge's first parent: main before the merge). HEAD~1 alone compared nothing when the
 * newest commits touched only docs, and let a slowdown under them land unseen.
 */
export function defaultReference(root) {
  const git = (args) =>
    execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    if (git(['status', '--porcelain', '--', 'src']) !== '') return 'HEAD';
    const changed = git(['log', '-1', '--format=%H', 'HEAD', '--', 'src']);
    return changed ? `${changed}~1` : 'HEAD~1';
  } catch {
    return 'HEAD~1';
  }
}

/**
 * The src/ tree of commit `rev`, written under `dir`, or a reason it cannot be had (no git, a
 * shallow clone without that commit): the guard then falls back to its limits against the floor.
 */
export function referenceSource(root, rev, dir) {
  let commit;
  try {
    commit = execFileSync('git', ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return { reason: `${rev} is not a commit of this clone (no git, or a shallow clone)` };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const tar = execFileSync('git', ['archive', '--format=tar', commit, 'src'], {
    cwd: root,
    maxBuffer: 256 << 20,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  return { commit, src: path.join(dir, 'src') };
}
