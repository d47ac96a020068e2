/**
 * Mistakes a user made with `tracejury analyze` that it now names: a tracejury report given as the
 * input (it points to `diff`), and an agent section of tracejury.yml that no trace belongs to (a
 * note with the nearest agent id: its settings were silently never used).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { nativeTrace } from '../helpers/vitestProject.js';
import { ReportSchema } from '../../src/report/schema.js';

function dir(files: Record<string, string>): string {
  const d = mkdtempSync(path.join(tmpdir(), 'tj-mistakes-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(d, name), text);
  return d;
}

describe('analyze names the mistake', () => {
  it('says a report given as input is a report, and points to diff', async () => {
    const d = dir({ 'runs.jsonl': nativeTrace('clean-1', 1) });
    const first = await cli(['analyze', 'runs.jsonl', '--out', 'report.json'], d);
    expect(first.code).toBe(0);
    const { code, stderr } = await cli(['analyze', 'report.json'], d);
    expect(code).toBe(2);
    expect(stderr).toContain(
      'report.json:1: a tracejury report, not a trace file: it holds the summaries of an analysis, not the recorded runs; compare two reports with `tracejury diff base.json head.json`',
    );
  });

  it('notes an agent section that matches no agent of the run, with the nearest agent id', async () => {
    const trace = (id: string, agentId: string) =>
      JSON.stringify({ ...JSON.parse(nativeTrace(id, 1)), agentId });
    const d = dir({
      'runs.jsonl': [trace('a', 'order-support'), trace('b', 'billing')].join('\n'),
      'tracejury.yml': [
        'default:',
        '  tool_loop: { threshold: 3 }',
        'order-suport:',
        '  tool_loop: { threshold: 2 }',
        'billing:',
        '  tool_loop: { threshold: 4 }',
        'ghost-agent:',
        '  tool_loop: { threshold: 5 }',
        '',
      ].join('\n'),
    });
    const { code, stdout } = await cli(['analyze', 'runs.jsonl', '--format', 'json'], d);
    expect(code).toBe(0);
    const report = ReportSchema.parse(JSON.parse(stdout));
    expect(report.notes).toContain(
      'tracejury.yml:3: section "order-suport" matches no agent of this run, so its settings were not used — did you mean "order-support"?',
    );
    expect(report.notes).toContain(
      'tracejury.yml:7: section "ghost-agent" matches no agent of this run, so its settings were not used (agents seen: "billing", "order-support")',
    );
    // The section that matched, and default:, are not noted.
    expect(report.notes.filter((n) => n.includes('matches no agent'))).toHaveLength(2);
  });
});
