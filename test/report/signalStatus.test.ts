/**
 * One status per signal, and every count in the report taken over `finding`: on the bundled
 * examples, where findings, signals for review, suppressed waste and (by config) shadow signals
 * coexist, the waste total, the gate, the trace summaries and the CLI's one-line summary all agree
 * with the sums over `status: finding`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { runCli } from '../../src/cli/main.js';
import { signalStatus } from '../../src/detect/status.js';
import { ReportSchema } from '../../src/report/schema.js';

const root = path.resolve(import.meta.dirname, '../..');
const examples = path.join(root, 'examples/traces');
// Session scores gate too (sessions.failGate); here the gate is the findings' alone. Tier 2 is off
// so that the example's gray-zone search loop stays for review: every status is then present.
const config = {
  default: { empty_llm_response: { shadow: true } },
  sessions: { failGate: false },
  tiers: { stateDeltas: [] },
};

describe('signal status', () => {
  it('is decided by suppression, shadow mode and confidence, in that order', () => {
    expect(signalStatus({ confidence: 0.9, shadow: true, suppressedBy: 'RETRY_LOOP' })).toBe('suppressed');
    expect(signalStatus({ confidence: 0.9, shadow: true })).toBe('shadow');
    expect(signalStatus({ confidence: 0.5, shadow: false })).toBe('review');
    expect(signalStatus({ confidence: 0.65, shadow: false })).toBe('review');
    expect(signalStatus({ confidence: 0.66, shadow: false })).toBe('finding');
  });

  it('makes totals, gate, summaries and the one-line summary agree with the findings', async () => {
    const report = ReportSchema.parse(await analyze([examples], { config, baselines: false, cwd: root }));
    const byStatus = (status: string) => report.signals.filter((s) => s.status === status);
    for (const status of ['finding', 'review', 'suppressed', 'shadow'])
      expect(byStatus(status).length).toBeGreaterThan(0);
    expect(byStatus('suppressed').every((s) => s.suppressedBy)).toBe(true);
    expect(byStatus('shadow').every((s) => s.detector === 'EMPTY_LLM_RESPONSE')).toBe(true);

    const findings = byStatus('finding');
    const wasteOfFindings = findings.reduce((a, s) => a + (s.wasteUsd ?? 0), 0);
    const wasteOfAll = report.signals.reduce((a, s) => a + (s.wasteUsd ?? 0), 0);
    expect(report.waste.totalUsd).toBeCloseTo(wasteOfFindings, 12);
    expect(wasteOfAll).toBeGreaterThan(report.waste.totalUsd); // the suppressed waste is not counted
    expect(Object.values(report.waste.byDetector).reduce((a, d) => a + d.signals, 0)).toBe(
      findings.filter((s) => s.wasteUsd !== undefined).length,
    );
    expect(report.traces.reduce((a, t) => a + t.signals, 0)).toBe(findings.length);

    // The gate counts the high and critical findings, per detector, and nothing else.
    const failing = new Map<string, number>();
    for (const s of findings)
      if (s.severity === 'high' || s.severity === 'critical')
        failing.set(s.detector, (failing.get(s.detector) ?? 0) + 1);
    expect(report.gate.reasons).toHaveLength(failing.size);
    for (const [detector, n] of failing)
      expect(report.gate.reasons).toContainEqual(expect.stringMatching(new RegExp(`^${detector}: ${n} `)));

    const d = mkdtempSync(path.join(tmpdir(), 'tj-status-'));
    // As above, tier 2 off: the one-line summary then counts a review case too.
    writeFileSync(path.join(d, 'tracejury.yml'), 'tiers:\n  stateDeltas: []\n');
    let stdout = '';
    const args = ['analyze', examples, '--out', path.join(d, 'r.json'), '--state-dir', d];
    await runCli([...args, '--config', path.join(d, 'tracejury.yml')], {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: () => true },
      cwd: root,
      env: {},
    });
    const written = ReportSchema.parse(JSON.parse(readFileSync(path.join(d, 'r.json'), 'utf8')));
    const n = written.signals.filter((s) => s.status === 'finding').length;
    const review = written.signals.filter((s) => s.status === 'review').length;
    expect(stdout).toContain(`${n} finding${n === 1 ? '' : 's'} (${review} for review)`);
    expect(written.schemaMinor).toBeGreaterThanOrEqual(1);
  });
});
