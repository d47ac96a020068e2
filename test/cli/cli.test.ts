import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { cli as runInProcess } from '../helpers/cli.js';
import { ReportSchema } from '../../src/report/schema.js';

const root = path.resolve(import.meta.dirname, '../..');

const cli = (args: string[], cwd = root) => runInProcess(args, cwd);

function tmp(files: Record<string, string>): string {
  const d = mkdtempSync(path.join(tmpdir(), 'tj-cli-'));
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(d, name), body);
  return d;
}

const cleanTrace = JSON.stringify({
  id: 'clean',
  status: 'ok',
  output: 'done',
  steps: [
    {
      type: 'llm',
      model: 'gpt-4o-mini',
      output: 'done',
      finishReason: 'stop',
      usage: { inputTokens: 10, outputTokens: 5 },
    },
  ],
});

describe('tracejury analyze', () => {
  it('prints only a Report v1 on stdout with --format json', async () => {
    const d = tmp({ 'a.jsonl': cleanTrace });
    const { code, stdout } = await cli(['analyze', 'a.jsonl', '--format', 'json'], d);
    const report = ReportSchema.parse(JSON.parse(stdout));
    expect(code).toBe(0);
    expect(report.inputs).toMatchObject({ files: 1, traces: 1, errorCount: 0 });
    expect(report.traces[0]).toMatchObject({ id: 'clean', file: 'a.jsonl', llmCalls: 1 });
    expect(report.gate.passed).toBe(true);
  });

  it('writes the report to --out and prints a one-line summary', async () => {
    const d = tmp({ 'a.jsonl': cleanTrace });
    const { code, stdout } = await cli(['analyze', '.', '--format', 'json', '--out', 'out/report.json'], d);
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(stdout).toMatch(/1 trace, .* gate passed → out\/report\.json/);
    expect(
      ReportSchema.parse(JSON.parse(readFileSync(path.join(d, 'out/report.json'), 'utf8'))).inputs.traces,
    ).toBe(1);
  });

  it('exits 2 with a report when nothing usable was read', async () => {
    const d = tmp({ 'bad.jsonl': '{"id": 1\nnot json\n' });
    const { code, stdout, stderr } = await cli(['analyze', 'bad.jsonl', '--format', 'json'], d);
    expect(code).toBe(2);
    const report = ReportSchema.parse(JSON.parse(stdout));
    expect(report.inputs.errors.map((e) => `${e.file}:${e.line}`)).toEqual(['bad.jsonl:1', 'bad.jsonl:2']);
    expect(stderr).toMatch(/no usable trace/);
  });

  it('exits 2 on empty input', async () => {
    const d = tmp({ 'empty.jsonl': '' });
    const { code, stdout } = await cli(['analyze', 'empty.jsonl'], d);
    expect(code).toBe(2);
    expect(stdout).toMatch(/empty\.jsonl: empty file/);
  });

  it('reads good records beside bad ones, and the bad ones fail the gate (exit 1, not 2)', async () => {
    const d = tmp({ 'mixed.jsonl': `${cleanTrace}\n{broken\n` });
    const { code, stdout } = await cli(['analyze', 'mixed.jsonl'], d);
    expect(code).toBe(1);
    expect(stdout).toMatch(/Input errors: 1/);
    expect(stdout).toMatch(/mixed\.jsonl:2: not valid JSON/);
    expect(stdout).toMatch(
      /Gate: FAILED \(failOn: critical, high\) — 1 input error: input that could not be read \(first: mixed\.jsonl:2:/,
    );
  });

  it('exits 1 when the gate fails, and says why', async () => {
    const d = tmp({
      'loop.jsonl': JSON.stringify({
        id: 'loopy',
        steps: [1, 2, 3, 4].map(() => ({ type: 'tool', name: 'search_docs', status: 'ok' })),
      }),
    });
    const { code, stdout } = await cli(['analyze', 'loop.jsonl'], d);
    expect(code).toBe(1);
    expect(stdout).toMatch(/Gate: FAILED \(failOn: critical, high\) — TOOL_LOOP: 1 high signal/);
  });

  it('explains usage errors without a stack trace', async () => {
    for (const args of [
      ['analyze'],
      ['analyze', 'x', '--format', 'yaml'],
      ['analyze', 'missing.jsonl'],
      ['frobnicate'],
    ]) {
      const { code, stderr } = await cli(args, tmp({}));
      expect(code).toBe(2);
      expect(stderr).toMatch(/^tracejury: /);
      expect(stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('prints the usage for --help after any command, and exits 0', async () => {
    for (const [args, heading] of [
      [['analyze', '--help'], 'tracejury analyze <'],
      [['analyze', 'x.jsonl', '-h'], 'tracejury analyze <'],
      [['baseline', 'update', '--help'], 'tracejury baseline update|show|reset'],
    ] as const) {
      const { code, stdout, stderr } = await cli([...args], tmp({}));
      expect(code).toBe(0);
      expect(stdout.startsWith(heading)).toBe(true);
      expect(stderr).toBe('');
    }
    // After "--", "--help" is a path like any other.
    const { code, stderr } = await cli(['analyze', '--', '--help'], tmp({}));
    expect(code).toBe(2);
    expect(stderr).toContain('--help');
  });

  it('names the command and the nearest option for an unknown option', async () => {
    const { code, stderr } = await cli(['analyze', 'a.jsonl', '--fromat', 'json'], tmp({}));
    expect(code).toBe(2);
    expect(stderr).toBe(
      'tracejury: analyze: unknown option --fromat — did you mean --format? ' +
        '(options: --config, --input-format, --format, --out, --html-traces, --state-dir, --no-progress, --jobs, --agent, --allow-input-errors, --fail-on, --default-model, --cassette, --limit)\n',
    );
    const far = await cli(['baseline', 'update', 'a.jsonl', '--verbose'], tmp({}));
    expect(far.code).toBe(2);
    expect(far.stderr).toMatch(
      /^tracejury: baseline update: unknown option --verbose \(options: --state-dir, /,
    );
  });

  it('suggests the nearest command for a misspelt one, and only a near one', async () => {
    const typo = await cli(['analyse', 'a.jsonl'], tmp({}));
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(
      'tracejury: unknown command "analyse" — did you mean analyze? (run tracejury --help)\n',
    );
    const far = await cli(['frobnicate'], tmp({}));
    expect(far.code).toBe(2);
    expect(far.stderr).toBe('tracejury: unknown command "frobnicate"; run tracejury --help\n');
  });

  it('checks every option value before reading any input', async () => {
    // --limit was once read only after the analysis; a bad value must not cost the run first.
    const { code, stderr } = await cli(['analyze', 'missing.jsonl', '--limit', '0'], tmp({}));
    expect(code).toBe(2);
    expect(stderr).toBe('tracejury: --limit 0: expected a whole number of list items, 1 or more\n');
  });

  it('notes trace ids that repeat within one file', async () => {
    const t = (id: string) => JSON.stringify({ id, status: 'ok', output: 'done', steps: [] });
    const d = tmp({
      'a.jsonl': [t('r1'), t('r2'), t('r1'), t('r2'), t('r3'), t('r1')].join('\n'),
      'b.jsonl': t('r3'),
    });
    const { stdout } = await cli(['analyze', '.', '--format', 'json'], d);
    const report = ReportSchema.parse(JSON.parse(stdout));
    expect(report.inputs.traces).toBe(7);
    // r3 in two files is two traces, as documented; r1 (three times) and r2 repeat inside a.jsonl:
    // two ids, not three repeats.
    expect(report.notes).toEqual([
      '2 trace ids appear more than once in the same file (e.g. "r1" in a.jsonl): each is analysed as a separate trace; were files concatenated, or runs logged under one id?',
    ]);
  });

  it('fails the gate, not only the exit code, when no trace could be analysed', async () => {
    const d = tmp({ 'blank.jsonl': '  \n\n' });
    const { code, stdout, stderr } = await cli(['analyze', 'blank.jsonl', '--format', 'json'], d);
    expect(code).toBe(2);
    const report = ReportSchema.parse(JSON.parse(stdout));
    expect(report.gate).toEqual({
      failOn: ['critical', 'high'],
      passed: false,
      reasons: [expect.stringMatching(/^no usable trace in the input/)],
    });
    expect(report.inputs.errors).toEqual([
      { file: 'blank.jsonl', message: 'no records: the file holds only whitespace' },
    ]);
    expect(stderr).toBe(
      'blank.jsonl: no records: the file holds only whitespace\n' +
        'tracejury: no usable trace in the input (1 error); see the errors above or in inputs.errors\n',
    );
  });

  it('rejects implausible measurements with the field named, and keeps the report valid JSON', async () => {
    const huge = JSON.stringify({
      id: 'huge',
      steps: [{ type: 'llm', model: 'gpt-4o', usage: { inputTokens: 1e308, outputTokens: 1e308 } }],
    });
    const d = tmp({ 'a.jsonl': `${huge}\n${cleanTrace}\n` });
    const { stdout } = await cli(['analyze', 'a.jsonl', '--format', 'json'], d);
    const report = ReportSchema.parse(JSON.parse(stdout));
    expect(report.inputs.traces).toBe(1);
    expect(report.inputs.errors).toEqual([
      expect.objectContaining({
        line: 1,
        field: 'steps[0].usage.inputTokens',
        message: 'trace huge: over 2^53, not a plausible measurement',
      }),
    ]);
    expect(Number.isFinite(report.totals.inputTokens)).toBe(true);
  });

  it('fails before the analysis, naming --out, when the report cannot be written there', async () => {
    const d = tmp({ 'a.jsonl': cleanTrace });
    mkdirSync(path.join(d, 'out.json'));
    const { code, stdout, stderr } = await cli(['analyze', 'a.jsonl', '--out', 'out.json'], d);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('tracejury: --out out.json: cannot write the report there: it is a directory\n');
    writeFileSync(path.join(d, 'file'), 'x');
    const under = await cli(['analyze', 'a.jsonl', '--out', 'file/report.json'], d);
    expect(under.code).toBe(2);
    expect(under.stderr).toMatch(/^tracejury: --out file\/report\.json: cannot write the report there: /);
  });

  it('names the config file and line of a bad setting', async () => {
    const d = tmp({ 'a.jsonl': cleanTrace, 'tracejury.yml': 'default:\n  tool_loop:\n    treshold: 2\n' });
    const { code, stderr } = await cli(['analyze', 'a.jsonl'], d);
    expect(code).toBe(2);
    expect(stderr).toContain(
      'tracejury.yml:3: unknown key "default.tool_loop.treshold" — did you mean "threshold"?',
    );
  });

  it('analyses the bundled examples with no API key', async () => {
    const { stdout, code } = await cli(['analyze', 'examples/traces', '--format', 'json']);
    const report = ReportSchema.parse(JSON.parse(stdout));
    expect([0, 1]).toContain(code);
    expect(report.inputs.errorCount).toBe(0);
    expect(Object.keys(report.inputs.formats).sort()).toEqual(
      ['langfuse', 'native', 'openai-messages', 'openinference', 'otel', 'records'].sort(),
    );
  });
});

describe('tracejury baseline update', () => {
  it('keeps the runs of two updates run at once', async () => {
    const d = tmp({
      'a.jsonl': Array.from({ length: 300 }, (_, i) =>
        JSON.stringify({ id: `a${i}`, agentId: 'ca', steps: [] }),
      ).join('\n'),
      'b.jsonl': Array.from({ length: 300 }, (_, i) =>
        JSON.stringify({ id: `b${i}`, agentId: 'cb', steps: [] }),
      ).join('\n'),
    });
    const results = await Promise.all([
      cli(['baseline', 'update', 'a.jsonl'], d),
      cli(['baseline', 'update', 'b.jsonl'], d),
    ]);
    expect(results.map((r) => r.code)).toEqual([0, 0]);
    const store = JSON.parse(readFileSync(path.join(d, '.tracejury/baselines.json'), 'utf8'));
    expect(Object.keys(store.agents).sort()).toEqual(['ca', 'cb']);
    expect(() => readFileSync(path.join(d, '.tracejury/baselines.json.lock'))).toThrow(/ENOENT/);
  });

  it('builds .tracejury/baselines.json from successful runs', async () => {
    const lines = Array.from({ length: 3 }, (_, i) =>
      JSON.stringify({ id: `r${i}`, agentId: 'bot', steps: [] }),
    );
    const d = tmp({ 'runs.jsonl': lines.join('\n') });
    const { code, stdout } = await cli(['baseline', 'update', 'runs.jsonl'], d);
    expect(code).toBe(0);
    expect(stdout).toMatch(/bot \(3 runs\)/);
    const store = JSON.parse(readFileSync(path.join(d, '.tracejury/baselines.json'), 'utf8'));
    expect(store.agents.bot.runs).toHaveLength(3);
  });

  it('says why it cannot write the baselines instead of crashing', async () => {
    const d = tmp({ 'runs.jsonl': JSON.stringify({ id: 'r', agentId: 'bot', steps: [] }), state: 'a file' });
    const { code, stderr } = await cli(['baseline', 'update', 'runs.jsonl', '--state-dir', 'state'], d);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^tracejury: .*state\/baselines\.json: cannot read the baselines: a part of the path is a file, not a directory; check --state-dir\n$/,
    );
  });

  it('tells how to rebuild a damaged baselines file, and the advice works', async () => {
    const d = tmp({ 'runs.jsonl': JSON.stringify({ id: 'r', agentId: 'bot', steps: [] }) });
    mkdirSync(path.join(d, '.tracejury'));
    writeFileSync(path.join(d, '.tracejury/baselines.json'), '{"version": 1, "agents": [}');
    const failed = await cli(['analyze', 'runs.jsonl'], d);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain('not valid JSON; delete it and run `tracejury baseline update <traces>`');
    rmSync(path.join(d, '.tracejury/baselines.json'));
    expect((await cli(['baseline', 'update', 'runs.jsonl'], d)).code).toBe(0);
    expect((await cli(['analyze', 'runs.jsonl'], d)).code).toBe(0);
  });

  it('redacts secrets in the input errors it prints', async () => {
    const bad = JSON.stringify({
      id: 'r',
      steps: [{ type: 'llm', model: 'm', usage: 'Bearer sk-proj-abcdefghijklmnopqrstuvwxyz0123' }],
    });
    const d = tmp({ 'runs.jsonl': `${bad}\n${JSON.stringify({ id: 'ok', agentId: 'bot', steps: [] })}` });
    const { code, stderr, stdout } = await cli(['baseline', 'update', 'runs.jsonl'], d);
    expect(code).toBe(0);
    expect(stderr).toContain('runs.jsonl:1');
    expect(stderr).not.toContain('abcdefghijklmnop');
    expect(stdout).toMatch(/bot \(1 run\)/);
  });
});

describe('baselines end to end', () => {
  // A run of 9 steps against agents whose usual run has 4: 9 > 2 × P75(4) only once a baseline exists.
  const run = (id: string, steps: number) =>
    JSON.stringify({
      id,
      agentId: 'planner',
      agentVersion: '2',
      status: 'ok',
      output: 'done',
      steps: Array.from({ length: steps }, (_, i) => ({ type: 'tool', name: `t${i}`, status: 'ok' })),
    });

  async function inflationAfter(history: number) {
    const d = tmp({
      'history.jsonl': Array.from({ length: history }, (_, i) => run(`h${i}`, 4)).join('\n'),
      'today.jsonl': run('today', 9),
    });
    expect((await cli(['baseline', 'update', 'history.jsonl'], d)).code).toBe(0);
    const { stdout } = await cli(['analyze', 'today.jsonl', '--format', 'json'], d);
    return ReportSchema.parse(JSON.parse(stdout)).signals.filter(
      (s) => s.detector === 'STEP_COUNT_INFLATION',
    );
  }

  it('uses the static fallback (no signal) with 19 runs and the P75 baseline from the 20th', async () => {
    expect(await inflationAfter(19)).toEqual([]);
    const fired = await inflationAfter(20);
    expect(fired).toHaveLength(1);
    expect(fired[0]!.message).toMatch(/P75 baseline of 20 runs/);
  });
});

describe('progress', () => {
  it('shows a progress line on a terminal, never under CI', async () => {
    const d = tmp({ 'a.jsonl': cleanTrace });
    for (const [env, shown] of [
      [{}, true],
      [{ CI: 'true' }, false],
    ] as const) {
      let stderr = '';
      await runCli(['analyze', 'a.jsonl', '--format', 'json'], {
        stdout: { write: () => true },
        stderr: { write: (s: string) => (stderr += s), isTTY: true },
        cwd: d,
        env,
      });
      expect(stderr.includes('reading 1/1 files')).toBe(shown);
    }
  });
});
