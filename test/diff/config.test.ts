import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig, parseConfig } from '../../src/config/config.js';
import { DEFAULT_REGRESSION, regressionPolicy } from '../../src/diff/config.js';

describe('regression: in tracejury.yml', () => {
  it('defaults to success, findings and waste gated at α 0.05, with minimum effects, and newSignals off', () => {
    expect(parseConfig('').regression).toEqual(DEFAULT_REGRESSION);
    expect(DEFAULT_REGRESSION).toEqual({
      alpha: 0.05,
      gate: ['success', 'findings', 'waste'],
      minSeverity: 'high',
      minEffect: { success: 0.05, findings: 0.05, detectors: 0.05, waste: 0.2, cost: 0.2, judgeScore: 0.05 },
      newSignals: false,
    });
  });

  it('reads the section from the file found in the working directory', () => {
    const d = mkdtempSync(path.join(tmpdir(), 'tj-regression-'));
    writeFileSync(
      path.join(d, 'tracejury.yml'),
      'regression:\n  alpha: 0.01\n  gate: [success, cost, TOOL_LOOP]\n  minSeverity: critical\n  minEffect: { success: 0.1 }\n  newSignals: { minSeverity: critical }\n',
    );
    expect(loadConfig(undefined, d).regression).toEqual({
      alpha: 0.01,
      gate: ['success', 'cost', 'TOOL_LOOP'],
      minSeverity: 'critical',
      minEffect: { ...DEFAULT_REGRESSION.minEffect, success: 0.1 },
      newSignals: { minSeverity: 'critical' },
    });
  });

  it('names the line and suggests the key or value for a typo, as every section does', () => {
    expect(() => parseConfig('failOn: high\nregression:\n  minEfect: { success: 0.1 }\n')).toThrow(
      'tracejury.yml:3: unknown key "regression.minEfect" — did you mean "minEffect"?',
    );
    expect(() => parseConfig('regression:\n  minEffect:\n    sucess: 0.1\n', 'f.yml')).toThrow(
      'f.yml:3: unknown key "regression.minEffect.sucess" — did you mean "success"?',
    );
    expect(() => parseConfig('regresion:\n  alpha: 0.1\n', 'f.yml')).toThrow(
      'f.yml:1: unknown key "regresion" — did you mean "regression"?',
    );
    expect(() => parseConfig('regression:\n  gate: [sucess]\n', 'f.yml')).toThrow(
      'f.yml:2: regression.gate.0: expected one of success, findings, waste, cost, judgeScore or a detector id (TOOL_LOOP), got "sucess" — did you mean "success"?',
    );
    expect(() => parseConfig('regression:\n  gate: [TOOL_LOPP]\n', 'f.yml')).toThrow(
      'f.yml:2: regression.gate.0: unknown detector "TOOL_LOPP" — did you mean "TOOL_LOOP"?',
    );
    // A custom detector's id is not a typo.
    expect(parseConfig('regression:\n  gate: [MY_OWN_DETECTOR]\n').regression.gate).toEqual([
      'MY_OWN_DETECTOR',
    ]);
  });

  it('says what a value should be', () => {
    expect(() => parseConfig('regression:\n  newSignals: { minSeverity: hgh }\n', 'f.yml')).toThrow(
      'f.yml:2: regression.newSignals: minSeverity: expected one of critical, high, medium, low, got "hgh" — did you mean "high"?',
    );
    expect(() => parseConfig('regression:\n  alpha: 5\n', 'f.yml')).toThrow(
      'f.yml:2: regression.alpha: expected a false-alarm rate between 0 and 0.5 (0.05 is 5 %)',
    );
    expect(() => parseConfig('regression:\n  minEffect: { success: 5 }\n', 'f.yml')).toThrow(
      'f.yml:2: regression.minEffect.success: expected a share between 0 and 1 (0.05 is five points)',
    );
    expect(() => parseConfig('regression:\n  wasteIncreasePct: "20%"\n', 'f.yml')).toThrow(ConfigError);
    expect(() => parseConfig('regression:\n  verdictPassRateDrop: 10\n', 'f.yml')).toThrow(
      /regression\.verdictPassRateDrop: expected a drop between 0 and 1/,
    );
  });

  it('keeps the first version’s keys loading, read as what replaced them, with a warning naming it', () => {
    const old = parseConfig(
      'regression:\n  newSignals: { minSeverity: high }\n  wasteIncreasePct: 35\n  verdictPassRateDrop: 0.1\n',
      'f.yml',
    );
    expect(old.regression).toMatchObject({
      gate: ['success', 'findings', 'waste'],
      minEffect: { success: 0.1, waste: 0.35 },
      newSignals: { minSeverity: 'high' },
    });
    expect(old.warnings).toEqual([
      "f.yml:3: regression.wasteIncreasePct is read as regression.minEffect.waste: 0.35 (waste per run fails only when its rise is beyond noise, after the correction across gated quantities, and at least that share of base's); write that instead",
      "f.yml:4: regression.verdictPassRateDrop is read as regression.minEffect.success: 0.1 (the judges' pass rate is success when runs record no outcome); write that instead",
    ]);
    const off = parseConfig('regression:\n  wasteIncreasePct: false\n  verdictPassRateDrop: false\n');
    expect(off.regression.gate).toEqual(['findings']);
    expect(off.warnings.join('\n')).toContain('false is read as leaving waste out of regression.gate');
    // The new key wins over the old one.
    expect(regressionPolicy({ wasteIncreasePct: 50, minEffect: { waste: 0.1 } }).minEffect.waste).toBe(0.1);
  });

  it('fills the defaults of a partial section (library use), and takes a filled-in policy as it is', () => {
    expect(regressionPolicy({ alpha: 0.1 })).toEqual({ ...DEFAULT_REGRESSION, alpha: 0.1 });
    expect(regressionPolicy({ newSignals: {} }).newSignals).toEqual({ minSeverity: 'high' });
    expect(regressionPolicy(DEFAULT_REGRESSION)).toEqual(DEFAULT_REGRESSION);
  });
});
