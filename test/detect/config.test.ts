import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configFromObject, parseConfig, resolveAgentConfig } from '../../src/detect/config.js';
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
    config: z.object({ growth_factor: z.number().default(3) }),
  },
  detect: () => [],
});
const list = [loop, bloat];
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
    const config = parseConfig(yml, 'tracejury.yml', list);
    expect(resolveAgentConfig(config, 'fast', list).inflationFactor).toBe(4);
    expect(resolveAgentConfig(config, 'slow', list).inflationFactor).toBe(2.5);
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
});
