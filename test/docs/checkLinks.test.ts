/**
 * The link checker CI runs over README.md and docs/ (scripts/check-links.mjs): a good link passes;
 * a link to a missing file and one to a missing heading fail with the file and line; and the
 * project's own markdown passes it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  anchorsOf,
  checkLinks,
  githubSlug,
  gitFileSet,
  projectMarkdownFiles,
} from '../../scripts/check-links.mjs';

function fixture(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'tracejury-links-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

const GUIDE = [
  '# Guide',
  '',
  '## Configuration: `tracejury.yml`',
  '',
  '### `TOOL_LOOP`',
  '',
  '## Setup',
  '',
  '## Setup',
  '',
].join('\n');

describe('check-links', () => {
  it('passes links to files, folders, headings and images that exist', () => {
    const root = fixture({
      'README.md': [
        '# Project',
        '',
        'See [the guide](docs/guide.md), [its config](docs/guide.md#configuration-tracejuryyml),',
        '[a detector](docs/guide.md#tool_loop), [the second setup](./docs/guide.md#setup-1) and',
        '[the examples](examples/). ![the report](docs/report.png) <img src="docs/report.png" alt="">',
        '[Back to the top](#project) and [a site](https://example.com/missing.md).',
        '',
        '```sh',
        'cat [not a link](missing.md)',
        '```',
        '',
        'Shown as code: `[nope](missing.md)`.',
      ].join('\n'),
      'docs/guide.md': GUIDE,
      'docs/report.png': 'png',
      'examples/a.ts': '',
    });
    expect(checkLinks({ root, files: ['README.md', 'docs/guide.md'] })).toEqual([]);
  });

  it('fails a link to a missing file and a link to a missing heading, with file and line', () => {
    const root = fixture({
      'README.md': '# Project\n\nSee [the guide](docs/guide.md).\n',
      'docs/guide.md': [
        GUIDE,
        'Read [the CLI](cli.md) first.',
        '',
        'Then [baselines](../README.md#baselines), [ok](../README.md#project) and ![chart](img/chart.png).',
        '',
        '[ref]: ./missing-ref.md',
      ].join('\n'),
    });
    expect(checkLinks({ root, files: ['README.md', 'docs/guide.md'] })).toEqual([
      {
        file: 'docs/guide.md',
        line: 11,
        target: 'cli.md',
        message: 'no file or folder docs/cli.md in the repository',
      },
      {
        file: 'docs/guide.md',
        line: 13,
        target: '../README.md#baselines',
        message: 'no heading with the anchor #baselines in README.md',
      },
      {
        file: 'docs/guide.md',
        line: 13,
        target: 'img/chart.png',
        message: 'no file or folder docs/img/chart.png in the repository',
      },
      {
        file: 'docs/guide.md',
        line: 15,
        target: './missing-ref.md',
        message: 'no file or folder docs/missing-ref.md in the repository',
      },
    ]);
  });

  it("fails a link out of the repository and an anchor of the file's own that does not exist", () => {
    const root = fixture({ 'docs/a.md': '# A\n\n[up](../../outside.md) [here](#b)\n' });
    expect(
      checkLinks({ root, files: ['docs/a.md'] }).map((p) => `${p.file}:${p.line}: ${p.message}`),
    ).toEqual([
      'docs/a.md:3: points outside the repository',
      'docs/a.md:3: no heading with the anchor #b in docs/a.md',
    ]);
  });

  it("makes GitHub's anchors: lower case, punctuation gone, underscores kept, repeats numbered", () => {
    expect(githubSlug('Configuration: tracejury.yml')).toBe('configuration-tracejuryyml');
    expect(githubSlug('TOOL_LOOP')).toBe('tool_loop');
    expect(githubSlug('Repeats, passRate, pass^k and pass@k')).toBe('repeats-passrate-passk-and-passk');
    expect([...anchorsOf(GUIDE)]).toEqual([
      'guide',
      'configuration-tracejuryyml',
      'tool_loop',
      'setup',
      'setup-1',
    ]);
    expect(anchorsOf('Title\n=====\n\n<a id="custom"></a>\n').has('custom')).toBe(true);
    expect(anchorsOf('Title\n=====\n').has('title')).toBe(true);
  });

  it("finds no broken link in the project's README.md and docs/ (CI runs `node scripts/check-links.mjs`)", () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const exists = gitFileSet(root);
    const files = projectMarkdownFiles(root, exists);
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'docs/detectors.md', 'docs/configuration.md']),
    );
    expect(files.some((f) => f.startsWith('docs/templates/'))).toBe(false);
    expect(
      checkLinks({ root, files, exists }).map((p) => `${p.file}:${p.line}: ${p.target}: ${p.message}`),
    ).toEqual([]);
  });
});
