import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig, parseConfig } from '../../src/config/config.js';
import { DEFAULT_REGRESSION, regressionPolicy } from '../../src/diff/config.js';

describe('regression: in tracejury.yml', () => {
  it('defaults to new high findings, waste per trace up 20 % and a pass-rate drop of 0.1', () => {
    expect(parseConfig('').regression).toEqual(DEFAULT_REGRESSION);
    expect(DEFAULT_REGRESSION).toEqual({
      newSignals: { minSeverity: 'high' },
      wasteIncreasePct: 20,
      verdictPassRateDrop: 0.1,
    });
  });

  it('reads the section from the file found in the working directory', () => {
    const d = mkdtempSync(path.join(tmpdir(), 'tj-regression-'));
    writeFileSync(
      path.join(d, 'tracejury.yml'),
      'regression:\n  newSignals: { minSeverity: critical }\n  wasteIncreasePct: 50\n  verdictPassRateDrop: false\n',
    );
    expect(loadConfig(undefined, d).regression).toEqual({
      newSignals: { minSeverity: 'critical' },
      wasteIncreasePct: 50,
      verdictPassRateDrop: false,
    });
  });

  it('names the line and suggests the key for a typo, as every section does', () => {
    expect(() => parseConfig('failOn: high\nregression:\n  wasteIncreasPct: 10\n')).toThrow(
      'tracejury.yml:3: unknown key "regression.wasteIncreasPct" — did you mean "wasteIncreasePct"?',
    );
    expect(() => parseConfig('regression:\n  newSignals:\n    minSeverty: high\n', 'f.yml')).toThrow(
      'f.yml:3: unknown key "regression.newSignals.minSeverty" — did you mean "minSeverity"?',
    );
    expect(() => parseConfig('regresion:\n  wasteIncreasePct: 10\n', 'f.yml')).toThrow(
      'f.yml:1: unknown key "regresion" — did you mean "regression"?',
    );
  });

  it('says what a value should be', () => {
    expect(() => parseConfig('regression:\n  newSignals: { minSeverity: hgh }\n', 'f.yml')).toThrow(
      'f.yml:2: regression.newSignals: minSeverity: expected one of critical, high, medium, low, got "hgh" — did you mean "high"?',
    );
    expect(() => parseConfig('regression:\n  wasteIncreasePct: "20%"\n', 'f.yml')).toThrow(ConfigError);
    expect(() => parseConfig('regression:\n  verdictPassRateDrop: 10\n', 'f.yml')).toThrow(
      /regression\.verdictPassRateDrop: expected a drop between 0 and 1/,
    );
  });

  it('fills the defaults of a partial section (library use)', () => {
    expect(regressionPolicy({ wasteIncreasePct: 5 })).toEqual({ ...DEFAULT_REGRESSION, wasteIncreasePct: 5 });
    expect(regressionPolicy({ newSignals: {} }).newSignals).toEqual({ minSeverity: 'high' });
  });
});
