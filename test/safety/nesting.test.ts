/**
 * One record nested 3,000 deep (a 6 KB line) beside good records and good files: the run goes on
 * and reports the good traces, with one input error naming the file, the line and the field — in
 * one thread and in four, from the CLI, the library and the Action. A report with evidence nested
 * 100,000 deep is refused by merge and diff with a message, not a stack overflow.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ActionDeps } from '../../src/action/deps.js';
import { run } from '../../src/action/run.js';
import { analyze } from '../../src/analyze.js';
import type { Report } from '../../src/report/schema.js';
import type { TraceInput } from '../../src/trace/schema.js';
import { pushContext } from '../helpers/actionContext.js';
import { fakeCore } from '../helpers/fakeCore.js';
import { nativeTrace } from '../helpers/vitestProject.js';

const bin = fileURLToPath(new URL('../../build/cli/bin.js', import.meta.url));

const nested = (depth: number, leaf = '1') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);

/** A native trace whose tool call's args nest `depth` objects deep. */
const deepTrace = (id: string, depth: number) =>
  `{"id":"${id}","agentId":"support","steps":[{"type":"tool","name":"search","status":"ok","args":${nested(depth)}}]}`;

function workspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tracejury-deep-'));
  writeFileSync(path.join(dir, 'good.jsonl'), `${nativeTrace('good-1', 1)}\n${nativeTrace('good-2', 1)}\n`);
  writeFileSync(
    path.join(dir, 'mixed.jsonl'),
    `${nativeTrace('mixed-1', 1)}\n${deepTrace('deep', 3000)}\n${nativeTrace('mixed-3', 1)}\n`,
  );
  return dir;
}

function tracejury(args: string[], cwd: string, env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
}

function expectGoodTracesAndOneError(report: Report, ids: string[]): void {
  expect(report.traces.map((t) => t.id).sort()).toEqual(ids.sort());
  expect(report.inputs.errors).toHaveLength(1);
  const [e] = report.inputs.errors;
  expect(e).toMatchObject({
    file: 'mixed.jsonl',
    line: 2,
    message: 'nested deeper than 64 levels of objects and arrays',
  });
  expect(e!.field).toMatch(/^steps\[0\]\.args\.a\.a\.a\.a\.a…$/);
}

describe('a record nested 3,000 deep beside good ones', () => {
  it.each([
    ['one file, one thread', ['mixed.jsonl'], '1', ['mixed-1', 'mixed-3']],
    [
      'several files, one thread',
      ['good.jsonl', 'mixed.jsonl'],
      '1',
      ['good-1', 'good-2', 'mixed-1', 'mixed-3'],
    ],
    [
      'several files, four threads',
      ['good.jsonl', 'mixed.jsonl'],
      '4',
      ['good-1', 'good-2', 'mixed-1', 'mixed-3'],
    ],
    ['one file, four threads', ['mixed.jsonl'], '4', ['mixed-1', 'mixed-3']],
  ])('%s: the good traces are reported with one input error naming file:line', (_name, files, jobs, ids) => {
    const dir = workspace();
    const r = tracejury(['analyze', ...files, '--format', 'json', '--jobs', jobs], dir, {
      TRACEJURY_PARALLEL_MIN_BYTES: '0',
    });
    expect(r.stderr).not.toMatch(/internal error|RangeError|Maximum call stack/);
    // The unreadable record fails the gate (as any input error does), but the run ends normally.
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('mixed.jsonl:2: steps[0].args.a.a.a.a.a…: nested deeper than 64 levels');
    expectGoodTracesAndOneError(JSON.parse(r.stdout) as Report, ids);
  });

  it('a document holding one too deep among good traces: the others are read', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tracejury-deep-'));
    writeFileSync(
      path.join(dir, 'doc.json'),
      `[\n${nativeTrace('doc-1', 1)},\n${deepTrace('deep', 3000)},\n${nativeTrace('doc-3', 1)}\n]\n`,
    );
    const r = tracejury(['analyze', 'doc.json', '--format', 'json'], dir);
    expect(r.stderr).not.toMatch(/internal error|RangeError/);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.traces.map((t) => t.id)).toEqual(['doc-1', 'doc-3']);
    expect(report.inputs.errors).toEqual([
      expect.objectContaining({
        file: 'doc.json',
        line: 3,
        field: expect.stringMatching(/^\[1\]\.steps\[0\]\.args\.a/),
      }),
    ]);
  });

  it('trace objects given to the library: the deep one is an input error, the others analysed', async () => {
    const good = JSON.parse(nativeTrace('lib-good', 1)) as TraceInput;
    const deep = JSON.parse(deepTrace('lib-deep', 3000)) as TraceInput;
    const report = await analyze([deep, good], { baselines: false });
    expect(report.traces.map((t) => t.id)).toEqual(['lib-good']);
    expect(report.inputs.errors).toEqual([
      expect.objectContaining({ file: '<input>[0]', field: expect.stringMatching(/^steps\[0\]\.args\.a/) }),
    ]);
  });

  it('in the Action: the report has the good traces and the step names the input error', async () => {
    const dir = workspace();
    mkdirSync(path.join(dir, 'traces'));
    await fs.rename(path.join(dir, 'mixed.jsonl'), path.join(dir, 'traces/mixed.jsonl'));
    const { core, rec } = fakeCore({
      traces: 'traces',
      baseline: 'none',
      'fail-on': 'gate',
      'check-run': 'false',
    });
    const deps: ActionDeps = {
      core,
      context: pushContext,
      octokit: () => {
        throw new Error('no GitHub call expected');
      },
      artifacts: {
        uploadArtifact: async () => {
          throw new Error('no upload expected');
        },
      },
      fs,
      exec: async () => 0,
      env: { GITHUB_WORKSPACE: dir },
      tempDir: path.join(dir, 'tmp'),
    };
    await run(deps);
    expect(rec.failed.join('\n')).not.toMatch(/unexpected error|RangeError/);
    const report = JSON.parse(readFileSync(rec.outputs['report-path']!, 'utf8')) as Report;
    expect(report.traces.map((t) => t.id)).toEqual(['mixed-1', 'mixed-3']);
    expect(rec.warnings[0]).toContain('traces/mixed.jsonl:2: steps[0].args.a');
  });
});

describe('a report nested 100,000 deep', () => {
  it('is refused by merge and diff with the field named, not a stack overflow', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tracejury-deep-'));
    const good = await analyze([JSON.parse(nativeTrace('r-1', 4)) as TraceInput], {
      baselines: false,
    });
    writeFileSync(path.join(dir, 'good.json'), JSON.stringify(good));
    const text = JSON.stringify({ ...good, signals: [{ ...good.signals[0], evidence: { x: 0 } }] }).replace(
      '{"x":0}',
      nested(100_000),
    );
    writeFileSync(path.join(dir, 'deep.json'), text);
    for (const args of [
      ['merge', 'good.json', 'deep.json'],
      ['merge', 'deep.json', '--format', 'markdown'],
      ['diff', 'good.json', 'deep.json'],
    ]) {
      const r = tracejury(args, dir);
      expect(r.stderr, args.join(' ')).not.toMatch(/internal error|RangeError|Maximum call stack/);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(
        'tracejury: deep.json: not a Report v1: signals[0].evidence.a.a.a.a.a…: nested deeper than 96 levels',
      );
    }
  });
});
