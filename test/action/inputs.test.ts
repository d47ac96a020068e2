/**
 * The Action's inputs as the runner passes them: defaults from action.yml, each bad value a clear
 * error naming the input and what it takes, the source of the head report chosen as documented,
 * and the token masked before anything could print it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ActionInputError } from '../../src/action/inputError.js';
import { listInput, parseInputs, readInputs, RawInputsSchema } from '../../src/action/inputs.js';

const actionYml = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as {
  inputs: Record<string, { default?: string }>;
};
/** Inputs as the runner sets them: every input, action.yml's default where the workflow gave none. */
const runnerInputs = (given: Record<string, string> = {}) =>
  Object.fromEntries(
    Object.entries(actionYml.inputs).map(([k, v]) => [
      k,
      given[k] ?? (v.default === '${{ github.token }}' ? 'ghs_x' : (v.default ?? '')),
    ]),
  );

const errorOf = (given: Record<string, string>) => {
  try {
    parseInputs(runnerInputs(given));
  } catch (err) {
    expect(err).toBeInstanceOf(ActionInputError);
    return (err as Error).message;
  }
  throw new Error('expected an input error');
};

describe('action inputs', () => {
  it('the schema reads exactly the inputs action.yml declares', () => {
    expect(Object.keys(RawInputsSchema.shape).sort()).toEqual(Object.keys(actionYml.inputs).sort());
  });

  it("action.yml's defaults run the Vitest suite and compare with the base branch's report", () => {
    const inputs = parseInputs(runnerInputs());
    expect(inputs).toMatchObject({
      source: { kind: 'command', command: 'npx vitest run', report: '.tracejury/report.json' },
      baseline: { kind: 'auto' },
      comment: 'update',
      commentId: 'default',
      failOn: 'any',
      checkRun: true,
      uploadBaseline: 'auto',
      workingDirectory: '.',
      token: 'ghs_x',
    });
    expect(inputs.prNumber).toBeUndefined();
  });

  it('picks the head report source: traces, merge, an explicit report alone, or a command and its report', () => {
    expect(parseInputs(runnerInputs({ traces: 'traces/**/*.jsonl\nmore/, other' })).source).toEqual({
      kind: 'traces',
      globs: ['traces/**/*.jsonl', 'more/', 'other'],
    });
    expect(parseInputs(runnerInputs({ merge: 'shards/*.json' })).source).toEqual({
      kind: 'merge',
      globs: ['shards/*.json'],
    });
    expect(parseInputs(runnerInputs({ report: 'out/r.json' })).source).toEqual({
      kind: 'report',
      report: 'out/r.json',
    });
    expect(
      parseInputs(runnerInputs({ command: 'npm run evals', report: '.tracejury/report.shard-1-of-3.json' }))
        .source,
    ).toEqual({ kind: 'command', command: 'npm run evals', report: '.tracejury/report.shard-1-of-3.json' });
  });

  it('a baseline that is not auto, none or a path names the input and the choices', () => {
    expect(errorOf({ baseline: 'automatic' })).toBe(
      'invalid input: baseline: "automatic" is not `auto`, `none` or a report path (a path has a "/" or an extension, e.g. ./automatic.json)',
    );
    expect(parseInputs(runnerInputs({ baseline: '' })).baseline).toEqual({ kind: 'auto' });
    expect(parseInputs(runnerInputs({ baseline: 'base.json' })).baseline).toEqual({
      kind: 'file',
      path: 'base.json',
    });
    expect(parseInputs(runnerInputs({ baseline: 'none' })).baseline).toEqual({ kind: 'none' });
  });

  it('comment, fail-on, upload-baseline and check-run take only their documented values', () => {
    expect(errorOf({ comment: 'sticky' })).toBe(
      'invalid input: comment: "sticky" is not one of `update`, `new`, `off`',
    );
    expect(errorOf({ 'fail-on': 'high' })).toContain(
      'fail-on: "high" is not one of `gate`, `regression`, `any`, `never`',
    );
    expect(errorOf({ 'upload-baseline': 'push' })).toContain('upload-baseline: "push" is not one of');
    expect(errorOf({ 'check-run': 'maybe' })).toContain('check-run: "maybe" is not `true` or `false`');
    expect(parseInputs(runnerInputs({ 'check-run': 'false' })).checkRun).toBe(false);
  });

  it('a comment-id that could break the marker or the artifact name is refused', () => {
    expect(errorOf({ 'comment-id': 'a -->' })).toContain('comment-id: "a -->" may use only letters, digits');
    expect(parseInputs(runnerInputs({ 'comment-id': 'evals.v2' })).commentId).toBe('evals.v2');
  });

  it('pr-number must be a number; several head sources at once are refused; all problems are listed', () => {
    expect(errorOf({ 'pr-number': '12; rm -rf /' })).toContain(
      'pr-number: "12; rm -rf /" is not a pull request number',
    );
    expect(parseInputs(runnerInputs({ 'pr-number': '12' })).prNumber).toBe(12);
    expect(errorOf({ command: 'npx vitest run', traces: 'traces' })).toContain(
      'command and traces: give one of `command`, `traces` or `merge`, not both',
    );
    const both = errorOf({ comment: 'x', baseline: 'y' });
    expect(both).toContain('comment: "x"');
    expect(both).toContain('baseline: "y"');
  });

  it('readInputs masks the token through core before parsing', () => {
    const calls: string[] = [];
    const given = runnerInputs({ 'github-token': 'ghs_secret' });
    readInputs({
      getInput: (name: string) => {
        calls.push(`get ${name}`);
        return given[name] ?? '';
      },
      setSecret: (s: string) => calls.push(`mask ${s}`),
    });
    expect(calls).toContain('mask ghs_secret');
    expect(calls.indexOf('mask ghs_secret')).toBe(calls.length - 1);
  });

  it('listInput splits lines and commas and drops blanks', () => {
    expect(listInput(' a ,\n\n b\n,c ')).toEqual(['a', 'b', 'c']);
    expect(listInput('')).toEqual([]);
  });
});
