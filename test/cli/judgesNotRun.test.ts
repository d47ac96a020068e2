/**
 * Judges that never ran are loud: with the tribunal configured and neither an API key nor a
 * cassette entry, the escalated cases land in review, one warning line on stderr says what is
 * missing and how to record, and `tribunal.required: true` makes it a gate failure.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { ReportSchema } from '../../src/report/schema.js';

/** A tool called 3 times with new arguments each time: a loop only maybe (the gray zone). */
const grayLoop = JSON.stringify({
  id: 'maybe-loop',
  status: 'ok',
  output: 'done',
  steps: [1, 2, 3].map((i) => ({
    type: 'tool',
    name: 'search_docs',
    args: { q: `refund policy ${i}` },
    status: 'ok',
  })),
});

async function run(required: boolean, args: string[] = [], env: Record<string, string> = {}) {
  const d = mkdtempSync(path.join(tmpdir(), 'tj-judges-'));
  writeFileSync(path.join(d, 'runs.jsonl'), grayLoop);
  writeFileSync(
    path.join(d, 'tracejury.yml'),
    `tribunal:\n  judges:\n    - { provider: openai, model: gpt-4o }\n  cassette: { path: cassette.jsonl, mode: auto }\n${required ? '  required: true\n' : ''}`,
  );
  const { code, stdout, stderr } = await cli(['analyze', 'runs.jsonl', '--format', 'json', ...args], d, env);
  return { code, stderr, report: stdout ? ReportSchema.parse(JSON.parse(stdout)) : undefined! };
}

const warningOf = (stderr: string) =>
  stderr.split('\n').find((l) => l.startsWith('tracejury: warning: judges never ran')) ?? '';

describe('judges that never ran', () => {
  it('warns on stderr with what is missing, and leaves the case for review', async () => {
    const { code, stderr, report } = await run(false);
    expect(report.review.length).toBeGreaterThan(0);
    expect(report.judgesNotRun?.cases).toBe(report.review.length);
    const warnings = stderr.split('\n').filter((l) => l.startsWith('tracejury: warning: judges never ran'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /no cassette entry for gpt-4o \(openai\) in .*cassette\.jsonl and no API key \(OPENAI_API_KEY\)/,
    );
    // The whole command that records the miss: this one, with the key and TRACEJURY_CASSETTE=record.
    expect(warnings[0]).toMatch(
      /record it with OPENAI_API_KEY set: TRACEJURY_CASSETTE=record tracejury analyze runs\.jsonl --format json$/,
    );
    expect(code).toBe(0);
  });

  it('takes the cassette mode from TRACEJURY_CASSETTE and --cassette, over the config', async () => {
    // record with no key: the judge cannot be recorded (auto, the config's mode, would say "no cassette entry").
    const recording = await run(false, [], { TRACEJURY_CASSETTE: 'record' });
    expect(warningOf(recording.stderr)).toMatch(
      /cannot record gpt-4o \(openai\): no API key \(OPENAI_API_KEY\)/,
    );
    // The flag wins over the variable, and is left out of the command that records.
    const replaying = await run(false, ['--cassette', 'replay'], { TRACEJURY_CASSETTE: 'record' });
    expect(warningOf(replaying.stderr)).toMatch(
      /no cassette entry for gpt-4o \(openai\) in .*cassette\.jsonl \(replay mode\); record it with OPENAI_API_KEY set: TRACEJURY_CASSETTE=record tracejury analyze runs\.jsonl --format json$/,
    );
  });

  it('refuses a cassette mode it does not know, with the nearest one', async () => {
    const fromEnv = await run(false, [], { TRACEJURY_CASSETTE: 'recrod' });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain(
      'TRACEJURY_CASSETTE="recrod": expected one of auto, replay, record — did you mean "record"?',
    );
    const fromFlag = await run(false, ['--cassette', 'replya']);
    expect(fromFlag.code).toBe(2);
    expect(fromFlag.stderr).toContain(
      '--cassette replya: expected one of auto, replay, record — did you mean replay?',
    );
  });

  it('fails the gate with tribunal.required: true', async () => {
    const { code, report } = await run(true);
    expect(code).toBe(1);
    expect(report.gate.reasons).toContainEqual(
      expect.stringMatching(/^judges never ran on 1 escalated case \(tribunal\.required\)/),
    );
  });
});
