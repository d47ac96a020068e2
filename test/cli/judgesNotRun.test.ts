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

async function run(required: boolean) {
  const d = mkdtempSync(path.join(tmpdir(), 'tj-judges-'));
  writeFileSync(path.join(d, 'runs.jsonl'), grayLoop);
  writeFileSync(
    path.join(d, 'tracejury.yml'),
    `tribunal:\n  judges:\n    - { provider: openai, model: gpt-4o }\n  cassette: { path: cassette.jsonl, mode: auto }\n${required ? '  required: true\n' : ''}`,
  );
  const { code, stdout, stderr } = await cli(['analyze', 'runs.jsonl', '--format', 'json'], d);
  return { code, stderr, report: ReportSchema.parse(JSON.parse(stdout)) };
}

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
    expect(warnings[0]).toMatch(/run once with an API key/);
    expect(code).toBe(0);
  });

  it('fails the gate with tribunal.required: true', async () => {
    const { code, report } = await run(true);
    expect(code).toBe(1);
    expect(report.gate.reasons).toContainEqual(
      expect.stringMatching(/^judges never ran on 1 escalated case \(tribunal\.required\)/),
    );
  });
});
