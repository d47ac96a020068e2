/**
 * What the Action uploads for a reviewer to open: the HTML (which run() writes from the report, see
 * headHtml.test.ts), unzipped under the name GitHub will give it; the saved traces the report
 * names, only from its traces folder and never through a link; an upload GitHub refuses is
 * a warning and the other still goes. The fork pattern's comment job finds part 1's artifacts by
 * name and degrades to no link without `actions: read`.
 */
import { getOctokit } from '@actions/github';
import * as fs from 'node:fs/promises';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArtifactStore } from '../../src/action/deps.js';
import {
  findRunArtifacts,
  savedTraceFiles,
  uploadReportArtifacts,
} from '../../src/action/reportArtifacts.js';
import { report, trace } from '../diff/reports.js';
import { startFakeGitHub, type FakeGitHub } from '../helpers/fakeGitHub.js';
import { addRun, artifactRoutes, createArtifactStore, seedArtifact } from '../helpers/fakeGitHubArtifacts.js';

function stateDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'tracejury-artifacts-'));
  mkdirSync(path.join(dir, '.tracejury/traces'), { recursive: true });
  writeFileSync(path.join(dir, '.tracejury/report.json'), '{}');
  return dir;
}

describe('the saved traces', () => {
  it('are the files the report names inside its traces folder: nothing outside it, no link, each once', async () => {
    const dir = stateDir();
    writeFileSync(path.join(dir, '.tracejury/traces/checkout-1a2b.jsonl'), '{}\n');
    writeFileSync(path.join(dir, 'secret.env'), 'TOKEN=x');
    symlinkSync(path.join(dir, 'secret.env'), path.join(dir, '.tracejury/traces/link.jsonl'));
    const saved = (file: string) => ({ id: 't', file, line: 1 });
    const head = {
      ...report({ traces: [trace({ id: 't' })] }),
      tests: [
        {
          name: 'a',
          file: 'evals/a.test.ts',
          state: 'failed' as const,
          attempts: 1,
          passedAttempts: 0,
          traces: ['t'],
          savedTraces: [
            saved('.tracejury/traces/checkout-1a2b.jsonl'),
            saved('.tracejury/traces/checkout-1a2b.jsonl'),
            saved('.tracejury/traces/link.jsonl'),
            saved('.tracejury/traces/../../secret.env'),
            saved('/etc/passwd'),
            saved('.tracejury/traces/gone.jsonl'),
          ],
        },
      ],
    };
    const found = await savedTraceFiles(fs, head, path.join(dir, '.tracejury/report.json'), dir, dir);
    expect(found).toEqual({
      root: path.join(dir, '.tracejury/traces'),
      files: [path.join(dir, '.tracejury/traces/checkout-1a2b.jsonl')],
      // A link in the folder to a file beside it: out of the folder, named for a warning.
      refused: ['.tracejury/traces/link.jsonl'],
    });
  });
});

describe('uploadReportArtifacts', () => {
  it('uploads the HTML unzipped under the name GitHub gives it and the traces zipped; a refused upload is a warning, the other still goes', async () => {
    const dir = stateDir();
    const html = path.join(dir, '.tracejury/report.html');
    writeFileSync(html, '<!doctype html><title>r</title>');
    const trace = path.join(dir, '.tracejury/traces/a.jsonl');
    writeFileSync(trace, '{}\n');
    const calls: { name: string; files: string[]; root: string; skipArchive: boolean; bytes: string }[] = [];
    const artifacts: ArtifactStore = {
      uploadArtifact: async (name, files, root, options) => {
        calls.push({
          name,
          files: files.map((f) => path.relative(root, f)),
          root,
          skipArchive: options?.skipArchive ?? false,
          bytes: await fs.readFile(files[0]!, 'utf8'),
        });
        return { id: 100 + calls.length, size: 1 };
      },
    };
    const args = {
      artifacts,
      fs,
      tempDir: path.join(dir, 'tmp'),
      commentId: 'evals',
      htmlPath: html,
      traces: { root: path.join(dir, '.tracejury/traces'), files: [trace] },
      urlOf: (id: number) => `https://github.com/acme/agent/actions/runs/9/artifacts/${id}`,
    };
    const { uploaded, warnings } = await uploadReportArtifacts(args);
    expect(warnings).toEqual([]);
    expect(calls.map(({ root: _root, ...c }) => c)).toEqual([
      {
        name: 'tracejury-report-evals.html',
        files: ['tracejury-report-evals.html'],
        skipArchive: true,
        bytes: '<!doctype html><title>r</title>',
      },
      { name: 'tracejury-traces-evals', files: ['a.jsonl'], skipArchive: false, bytes: '{}\n' },
    ]);
    expect(uploaded).toEqual({
      html: {
        name: 'tracejury-report-evals.html',
        url: 'https://github.com/acme/agent/actions/runs/9/artifacts/101',
        zip: false,
        files: 1,
      },
      traces: {
        name: 'tracejury-traces-evals',
        url: 'https://github.com/acme/agent/actions/runs/9/artifacts/102',
        zip: true,
        files: 1,
      },
    });

    let first = true;
    const refusing: ArtifactStore = {
      uploadArtifact: async () => {
        if (first) {
          first = false;
          throw new Error('Conflict: an artifact with this name already exists on the workflow run\nmore');
        }
        return { id: 7 };
      },
    };
    const partly = await uploadReportArtifacts({ ...args, artifacts: refusing });
    expect(partly.warnings).toEqual([
      'tracejury: could not upload the HTML report as tracejury-report-evals.html (Conflict: an artifact with this name already exists on the workflow run); the comment links the job summary instead',
    ]);
    expect(Object.keys(partly.uploaded)).toEqual(['traces']);
  });
});

describe('findRunArtifacts (the fork pattern’s comment job)', () => {
  const store = createArtifactStore();
  let gh: FakeGitHub;
  beforeAll(async () => {
    gh = await startFakeGitHub({ routes: artifactRoutes(store) });
  });
  afterAll(() => gh.close());

  it('links the artifacts of the run it reads, by name; without `actions: read` it says why and links nothing', async () => {
    const part1 = addRun(store, { fork: 'someone/agent-fork', branch: 'feature' });
    const html = seedArtifact(store, part1, {
      name: 'tracejury-report-default.html',
      bytes: '<!doctype html>',
      contentType: 'text/html',
    });
    seedArtifact(store, part1, { name: 'tracejury-report-default.html.old', bytes: 'x' });
    const octokit = getOctokit('ghs_x', { baseUrl: gh.url });
    const args = {
      octokit,
      repo: { owner: 'acme', repo: 'agent' },
      runId: part1.id,
      commentId: 'default',
      serverUrl: 'https://github.com',
    };
    const { found, log } = await findRunArtifacts(args);
    expect(found).toEqual({
      html: {
        name: 'tracejury-report-default.html',
        url: `https://github.com/acme/agent/actions/runs/${part1.id}/artifacts/${html.id}`,
        zip: false,
        files: 1,
      },
    });
    expect(log).toEqual([`tracejury: run ${part1.id} has no tracejury-traces-default artifact to link`]);

    gh.forbidden.add('artifacts');
    try {
      const denied = await findRunArtifacts(args);
      expect(denied.found).toEqual({});
      expect(denied.log[0]).toBe(
        `tracejury: cannot list the artifacts of run ${part1.id} (GitHub answered 403; the job needs \`actions: read\`): no link to tracejury-report-default.html`,
      );
    } finally {
      gh.forbidden.clear();
    }
  });
});
