/**
 * What `npm install tracejury` gets (scripts/check-pack.mjs, also run by .ci/run): LICENSE, README
 * and CHANGELOG in the tarball with the built code and schemas, no tests, sources, benches or maps;
 * and the repository named in package.json, which npm's page needs to resolve the README's relative
 * links and images.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dryRunPack, packProblems, REQUIRED_FILES } from '../../scripts/check-pack.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

describe('the published package', () => {
  it('passes a tarball with what a user needs and nothing else', () => {
    expect(packProblems([...REQUIRED_FILES, 'build/detect/registry.js'], pkg)).toEqual([]);
  });

  it('names each missing file and each file a user does not need', () => {
    const files = [
      ...REQUIRED_FILES.filter((f) => f !== 'LICENSE'),
      'test/detect/toolLoop.test.ts',
      'src/index.ts',
      'bench/datasets.mjs',
      'build/action/index.js',
      'build/index.js.map',
    ];
    expect(packProblems(files, pkg)).toEqual([
      'LICENSE is missing from the tarball',
      'test/detect/toolLoop.test.ts is in the tarball: not part of the published package',
      'src/index.ts is in the tarball: not part of the published package',
      'bench/datasets.mjs is in the tarball: not part of the published package',
      "build/action/index.js is in the tarball: the Action's build (it runs from dist/ in the repository, never from npm)",
      'build/index.js.map is in the tarball: a source map (the package ships no sources for it to point into)',
    ]);
  });

  it('asks for the repository, homepage and bugs that npm links the README against', () => {
    expect(packProblems(REQUIRED_FILES, { ...pkg, repository: undefined })).toEqual([
      expect.stringContaining("without it npm's page leaves the README's relative links and images broken"),
    ]);
    expect(packProblems(REQUIRED_FILES, { ...pkg, bugs: 'https://example.com/bugs' })).toEqual([
      'package.json bugs must be https://github.com/tracejury/tracejury/issues',
    ]);
  });

  it('is what `npm pack` would publish today (needs npm run build)', () => {
    const pack = dryRunPack(root);
    expect(packProblems(pack.files, pkg)).toEqual([]);
    expect(pack.files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'CHANGELOG.md']));
    expect(pack.files.filter((f) => /(^|\/)test\/|\.test\./.test(f))).toEqual([]);
  }, 60_000);
});
