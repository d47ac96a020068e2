import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ConfigError,
  configFromObject,
  configSchema,
  loadConfig,
  parseConfig,
} from '../../src/config/config.js';
import { resolveAgentConfig } from '../../src/detect/config.js';
import { defineDetector } from '../../src/detect/detector.js';

const loop = defineDetector({
  meta: {
    id: 'TOOL_LOOP',
    configKey: 'tool_loop',
    tier: 1,
    kind: 'structural',
    severity: 'high',
    failureMode: 'loop',
    description: 'loop',
    fix: 'cap loops',
    config: z.object({ threshold: z.number().int().default(3), window: z.number().int().default(5) }),
  },
  detect: () => [],
});
const bloat = defineDetector({
  meta: {
    id: 'CONTEXT_BLOAT',
    configKey: 'context_bloat',
    tier: 1,
    kind: 'structural',
    severity: 'medium',
    failureMode: 'context',
    description: 'bloat',
    fix: 'trim context',
    config: z.object({ growth_factor: z.number().default(3) }),
  },
  detect: () => [],
});
const list = [loop, bloat];
const slow = defineDetector({
  meta: {
    id: 'SLOW_STEP',
    configKey: 'slow_step',
    tier: 1,
    kind: 'structural',
    severity: 'medium',
    failureMode: 'latency',
    description: 'slow',
    fix: 'add timeouts',
    config: z.object({ baseline_multiplier: z.number().positive().default(2) }),
  },
  detect: () => [],
});
const withBaseline = [loop, bloat, slow];
const parseError = (yml: string, l = list) => {
  try {
    parseConfig(yml, 'f.yml', l);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a config error');
};
const settingsOf = (yml: string, agent: string, id: string) =>
  resolveAgentConfig(parseConfig(yml, 'tracejury.yml', list), agent, list).detectors.find(
    (d) => d.detector.meta.id === id,
  )!;

describe('tracejury.yml', () => {
  it('uses the reference defaults when there is no config', () => {
    expect(settingsOf('', 'any', 'TOOL_LOOP')).toMatchObject({
      enabled: true,
      shadow: false,
      settings: { threshold: 3, window: 5 },
    });
  });

  it('lets an agent section inherit from default and override only what it sets', () => {
    const yml = `
default:
  tool_loop:
    threshold: 2
    window: 7
  context_bloat:
    growth_factor: 4.0
web-research:
  tool_loop:
    threshold: 5
`;
    expect(settingsOf(yml, 'web-research', 'TOOL_LOOP').settings).toEqual({ threshold: 5, window: 7 });
    expect(settingsOf(yml, 'web-research', 'CONTEXT_BLOAT').settings).toEqual({ growth_factor: 4 });
    expect(settingsOf(yml, 'other-agent', 'TOOL_LOOP').settings).toEqual({ threshold: 2, window: 7 });
  });

  it('sets shadow and enabled per detector and per agent', () => {
    const yml = `
default:
  tool_loop: { shadow: true }
quiet-agent:
  context_bloat: { enabled: false }
`;
    expect(settingsOf(yml, 'x', 'TOOL_LOOP').shadow).toBe(true);
    expect(settingsOf(yml, 'quiet-agent', 'CONTEXT_BLOAT').enabled).toBe(false);
    expect(settingsOf(yml, 'x', 'CONTEXT_BLOAT').enabled).toBe(true);
  });

  it('reads inflation_factor per agent, inheriting from default', () => {
    const yml = 'default:\n  inflation_factor: 2.5\nfast:\n  inflation_factor: 4\n';
    const config = parseConfig(yml, 'tracejury.yml', withBaseline);
    const multiplier = (agent: string) =>
      resolveAgentConfig(config, agent, withBaseline).detectors.find(
        (d) => d.detector.meta.id === 'SLOW_STEP',
      )!.settings.baseline_multiplier;
    expect(resolveAgentConfig(config, 'fast', withBaseline).inflationFactor).toBe(4);
    expect(multiplier('fast')).toBe(4);
    expect(multiplier('slow')).toBe(2.5);
  });

  it("lets an agent's own baseline_multiplier win over a default-level inflation_factor", () => {
    const yml = `
default:
  inflation_factor: 10
  slow_step: { baseline_multiplier: 7 }
bl:
  slow_step: { baseline_multiplier: 1.5 }
boosted:
  inflation_factor: 3
  slow_step: { baseline_multiplier: 1.5 }
`;
    const config = parseConfig(yml, 'tracejury.yml', withBaseline);
    const resolved = (agent: string) => {
      const r = resolveAgentConfig(config, agent, withBaseline);
      const slow = r.detectors.find((d) => d.detector.meta.id === 'SLOW_STEP')!;
      // What a baseline detector uses: the runner's inflationFactor, else its own setting.
      return r.inflationFactor ?? slow.settings.baseline_multiplier;
    };
    expect(resolved('bl')).toBe(1.5); // agent's own multiplier > default inflation_factor
    expect(resolved('other')).toBe(10); // default inflation_factor > default multiplier
    expect(resolved('boosted')).toBe(3); // agent inflation_factor > everything
    expect(resolved('default')).toBe(10);
  });

  it('names file, line and key of a typo and suggests the nearest valid key', () => {
    const yml = 'default:\n  tool_loop:\n    threshhold: 4\n';
    expect(() => parseConfig(yml, 'tracejury.yml', list)).toThrow(
      'tracejury.yml:3: unknown key "default.tool_loop.threshhold" — did you mean "threshold"?',
    );
  });

  it('suggests the nearest detector for a misspelt section', () => {
    expect(() => parseConfig('default:\n  tool_lop:\n    threshold: 4\n', 'detectors.yml', list)).toThrow(
      'detectors.yml:2: unknown key "default.tool_lop" — did you mean "tool_loop"?',
    );
  });

  it('names the line and key of a value of the wrong type', () => {
    expect(() => parseConfig('my-agent:\n  tool_loop:\n    window: five\n', 'tracejury.yml', list)).toThrow(
      /^tracejury\.yml:3: my-agent\.tool_loop\.window: .*number/,
    );
  });

  it('reports invalid YAML with its line', () => {
    expect(() => parseConfig('default:\n  tool_loop: [1, 2\n', 'tracejury.yml', list)).toThrow(
      /^tracejury\.yml:\d+: not valid YAML/,
    );
  });

  it('rejects an unknown injection pattern id in disabled_patterns, naming the nearest one', () => {
    const yml =
      'default:\n  prompt_injection_signal:\n    disabled_patterns: [rj.named_mode, rj.named_mdoe]\n';
    expect(() => parseConfig(yml)).toThrow(
      /^tracejury\.yml:3: default\.prompt_injection_signal\.disabled_patterns\.1: unknown pattern id "rj\.named_mdoe" — did you mean "rj\.named_mode"\?/,
    );
    expect(() =>
      parseConfig('default:\n  prompt_injection_signal:\n    disabled_patterns: [rj.named_mode]\n'),
    ).not.toThrow();
  });

  it('checks a config given as an object as it checks a file, naming where it came from', () => {
    expect(
      configFromObject({ default: { tool_loop: { threshold: 4 } } }, 'options.config', list).sections,
    ).toEqual({
      default: { tool_loop: { threshold: 4 } },
    });
    expect(() =>
      configFromObject({ default: { tool_loop: { treshold: 4 } } }, 'options.config', list),
    ).toThrow('options.config: unknown key "default.tool_loop.treshold" — did you mean "threshold"?');
    expect(() => configFromObject([], 'options.config', list)).toThrow(
      'options.config: expected a mapping of sections',
    );
  });

  it('says which failOn values are allowed and which one was wrong', () => {
    expect(() => parseConfig('failOn: HIGH', 'f.yml', list)).toThrow(
      'f.yml:1: failOn: expected one of critical, high, medium, low (or a list of them), got "HIGH" — did you mean "high"?',
    );
    expect(() => parseConfig('failOn: [high, bogus]', 'f.yml', list)).toThrow(
      'f.yml:1: failOn: expected one of critical, high, medium, low (or a list of them), got "bogus"',
    );
  });

  it('reads failOn as a list or as "this severity or worse"', () => {
    expect(parseConfig('failOn: medium', 'f', list).failOn).toEqual(['critical', 'high', 'medium']);
    expect(parseConfig('failOn: [critical]', 'f', list).failOn).toEqual(['critical']);
    expect(parseConfig('', 'f', list).failOn).toEqual(['critical', 'high']);
  });

  it('warns when a section name looks like a misspelt reserved key', () => {
    const config = parseConfig('defualt:\n  tool_loop: { threshold: 9 }\n', 'tracejury.yml', list);
    expect(config.warnings[0]).toMatch(
      /tracejury\.yml:1: section "defualt" is read as the settings of agent "defualt"; did you mean "default"\?/,
    );
  });

  it('reads price overrides for custom models', () => {
    const config = parseConfig('prices:\n  acme-llm:\n    inputPer1M: 1\n    outputPer1M: 2\n', 'f', list);
    expect(config.prices).toEqual({ 'acme-llm': { inputPer1M: 1, outputPer1M: 2 } });
  });

  it('rejects misspelt baselines keys, naming each with its line and the nearest key', () => {
    expect(parseError('baselines:\n  min_runs: 5\n  windw: 10\n')).toBe(
      'f.yml:2: unknown key "baselines.min_runs" — did you mean "minRuns"?\n' +
        'f.yml:3: unknown key "baselines.windw" — did you mean "window"?',
    );
  });

  it('rejects a baselines minRuns greater than window (the adaptive rule could never switch on)', () => {
    expect(parseError('baselines:\n  minRuns: 60\n  window: 50\n')).toMatch(
      /^f\.yml:2: baselines\.minRuns: minRuns \(60\) is greater than window \(50/,
    );
    expect(parseError('baselines:\n  window: 10\n')).toMatch(/minRuns \(20\) is greater than window \(10/);
    expect(parseConfig('baselines:\n  minRuns: 5\n  window: 5\n', 'f', list).baselines).toEqual({
      minRuns: 5,
      window: 5,
      fromInput: true,
    });
    expect(parseConfig('baselines:\n  fromInput: false\n', 'f', list).baselines.fromInput).toBe(false);
  });

  it('rejects misspelt keys in tribunal judges, cassette and capabilities', () => {
    const yml = [
      'tribunal:',
      '  judges:',
      '    - { provider: openai, model: gpt-4o, modle: x }',
      '  cassette: { path: c.jsonl, mod: replay }',
      '  capabilities:',
      '    "gpt-*": { jsonSchemaa: true }',
    ].join('\n');
    expect(parseError(yml)).toBe(
      'f.yml:3: unknown key "tribunal.judges.0.modle" — did you mean "model"?\n' +
        'f.yml:4: unknown key "tribunal.cassette.mod" — did you mean "mode"?\n' +
        'f.yml:6: unknown key "tribunal.capabilities.gpt-*.jsonSchemaa" — did you mean "jsonSchema"?',
    );
  });

  it('publishes additionalProperties: false for baselines and the tribunal objects', () => {
    const schema = z.toJSONSchema(configSchema(list), { io: 'input', unrepresentable: 'any' }) as {
      properties: Record<
        string,
        { properties?: Record<string, Record<string, unknown>> } & Record<string, unknown>
      >;
    };
    const tribunal = schema.properties.tribunal!.properties!;
    expect(schema.properties.baselines!.additionalProperties).toBe(false);
    expect((tribunal.judges!.items as Record<string, unknown>).additionalProperties).toBe(false);
    expect(tribunal.cassette!.additionalProperties).toBe(false);
    expect(
      (tribunal.capabilities!.additionalProperties as Record<string, unknown>).additionalProperties,
    ).toBe(false);
  });

  it('accepts only detector ids in tiers.noDowngrade, suggesting the nearest', () => {
    expect(parseError('tiers:\n  noDowngrade: [TOOL_LOOP, tool_lop]\n')).toBe(
      'f.yml:2: tiers.noDowngrade.1: unknown detector id "tool_lop" — did you mean "TOOL_LOOP"?',
    );
    expect(parseConfig('tiers:\n  noDowngrade: [TOOL_LOOP]\n', 'f', list).tiers.noDowngrade).toEqual([
      'TOOL_LOOP',
    ]);
  });

  it('reads YAML merge keys', () => {
    const yml =
      'base: &b\n  tool_loop: { threshold: 7 }\nweb:\n  <<: *b\n  context_bloat: { growth_factor: 5 }\n';
    const config = parseConfig(yml, 'f.yml', list);
    const web = resolveAgentConfig(config, 'web', list).detectors;
    expect(web.map((d) => d.settings)).toEqual([{ threshold: 7, window: 5 }, { growth_factor: 5 }]);
  });

  it('allows many sections aliasing one anchor but refuses a "billion laughs" file as a config error', () => {
    const agents = Array.from({ length: 120 }, (_, i) => `agent-${i}: *s`).join('\n');
    const config = parseConfig(`shared: &s\n  tool_loop: { threshold: 6 }\n${agents}\n`, 'f.yml', list);
    expect(Object.keys(config.sections)).toHaveLength(121);
    const levels = 'abcdefghi'.split('');
    const laughs = levels
      .map(
        (l, i) =>
          `${l}: &${l} [${Array(9)
            .fill(i === 0 ? '"x"' : `*${levels[i - 1]}`)
            .join(',')}]`,
      )
      .join('\n');
    expect(parseError(laughs)).toMatch(/^f\.yml: cannot read the YAML: Excessive alias count/);
  });

  it('says detector settings at the top level belong under default: or an agent id', () => {
    expect(parseError('tool_loop:\n  threshold: 4\n')).toBe(
      'f.yml:2: unknown key "tool_loop.threshold": detector settings go under "default:" or an agent id ' +
        '(default.tool_loop.threshold), not at the top level',
    );
  });

  it('suggests the reserved key for a misspelt one that cannot be an agent section', () => {
    expect(parseError('failon: high\n')).toBe('f.yml:1: unknown key "failon" — did you mean "failOn"?');
    expect(parseError('baseline:\n  minRuns: 5\n')).toBe(
      'f.yml:1: unknown key "baseline" — did you mean "baselines"?',
    );
    expect(parseError('tiers:\n  escalte: true\n')).toBe(
      'f.yml:2: unknown key "tiers.escalte" — did you mean "escalate"?',
    );
  });

  it('reads an empty section as empty', () => {
    const config = parseConfig('default:\nweb:\nmobile:\n  tool_loop:\n', 'f.yml', list);
    expect(resolveAgentConfig(config, 'web', list).detectors[0]!.settings).toEqual({
      threshold: 3,
      window: 5,
    });
    expect(resolveAgentConfig(config, 'mobile', list).detectors[0]!.settings).toEqual({
      threshold: 3,
      window: 5,
    });
  });

  it('gives the reason a config file cannot be read', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tj-config-'));
    mkdirSync(path.join(dir, 'tracejury.yml'));
    expect(() => loadConfig(undefined, dir)).toThrow('tracejury.yml: cannot read the config file (EISDIR)');
    expect(() => loadConfig(path.join(dir, 'missing.yml'), dir)).toThrow(
      'missing.yml: cannot read the config file (ENOENT)',
    );
  });
});
