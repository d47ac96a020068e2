/**
 * Keys that name JavaScript's object machinery (`__proto__`, `constructor`, `prototype`,
 * `toString`) as detector ids, agent ids and config keys; absurd numbers (1e308, negative costs)
 * in reports; a 50 MB YAML scalar. None may reach Object.prototype, crash a run, pass the
 * regression gate, render as "$Infinity" or be echoed whole.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { baselinesFromReport } from '../../src/baseline/fromReport.js';
import { parseConfig } from '../../src/config/config.js';
import { diffReports } from '../../src/diff/diffReports.js';
import { renderDiffMarkdown } from '../../src/diff/renderMarkdown.js';
import { renderDiffText } from '../../src/diff/renderText.js';
import { mergeReports } from '../../src/report/mergeReports.js';
import { parseReportJson } from '../../src/report/parseReport.js';
import { renderMarkdown } from '../../src/report/renderMarkdown.js';
import { renderText } from '../../src/report/renderText.js';
import type { Report } from '../../src/report/schema.js';
import { cli } from '../helpers/cli.js';
import { nativeTrace } from '../helpers/vitestProject.js';
import type { TraceInput } from '../../src/trace/schema.js';

const prototypeNames = () => Object.getOwnPropertyNames(Object.prototype).sort();
const before = prototypeNames();
afterEach(() => expect(prototypeNames()).toEqual(before));

async function loopReport(id = 'r-1'): Promise<Report> {
  return analyze([JSON.parse(nativeTrace(id, 5)) as TraceInput], { baselines: false });
}

describe('keys from data that name object machinery', () => {
  it('a detector named __proto__ or constructor merges and diffs without touching Object.prototype', async () => {
    const report = await loopReport();
    const loop = report.signals[0]!;
    const hostile: Report = {
      ...report,
      signals: ['__proto__', 'constructor', 'toString', 'hasOwnProperty'].map((detector) => ({
        ...loop,
        detector,
        wasteUsd: 0.5,
        wasteTokens: 10,
      })),
    };
    const merged = mergeReports([hostile, hostile]);
    expect(Object.hasOwn(merged.waste.byDetector, '__proto__')).toBe(true);
    expect(merged.waste.byDetector['constructor']).toEqual({ usd: 1, tokens: 20, signals: 2 });
    expect(({} as Record<string, unknown>).usd).toBeUndefined();
    // Later diffs in the same process still work.
    const diff = diffReports(report, merged);
    expect(diff.signals.new.map((s) => s.detector)).toContain('__proto__');
    expect(renderDiffMarkdown(diff)).toContain('`constructor`');
  });

  it('traces whose agent is constructor, toString or __proto__ are analysed like any other', async () => {
    const traces = ['constructor', 'toString', '__proto__'].map(
      (agentId, i) => ({ ...(JSON.parse(nativeTrace(`t-${i}`, 5)) as TraceInput), agentId }) as TraceInput,
    );
    const report = await analyze(traces, { baselines: { version: 2, agents: {} } });
    expect(report.inputs.errors).toEqual([]);
    expect(report.traces.map((t) => t.agentId)).toEqual(['constructor', 'toString', '__proto__']);
    expect(report.signals.filter((s) => s.detector === 'TOOL_LOOP')).toHaveLength(3);
  });

  it('a base report whose runs name such agents gives baselines without touching Object.prototype', async () => {
    const report = await loopReport();
    const hostile: Report = {
      ...report,
      signals: [],
      traces: ['__proto__', 'constructor', 'toString'].map((agentId, i) => ({
        ...report.traces[0]!,
        id: `b-${i}`,
        agentId,
      })),
    };
    const baselines = baselinesFromReport(hostile, 50);
    expect(Object.keys(baselines.agents).sort()).toEqual(['__proto__', 'constructor', 'toString']);
    expect(baselines.agents['constructor']!.runs).toHaveLength(1);
  });

  it.each([
    ['__proto__:\n  tool_loop:\n    threshold: 3\n', 1, '"__proto__"'],
    ['default:\n  tool_loop:\n    threshold: 3\nconstructor:\n  tool_loop: {}\n', 4, '"constructor"'],
    ['default:\n  tool_loop:\n    prototype: 3\n', 3, '"default.tool_loop.prototype"'],
  ])('a config key %j is refused, naming the key and its line', (yaml, line, key) => {
    expect(() => parseConfig(yaml, 'tracejury.yml')).toThrow(
      new RegExp(
        `^tracejury\\.yml:${line}: ${key.replace(/[.*]/g, '\\$&')}: the key "(__proto__|constructor|prototype)" is not allowed`,
      ),
    );
  });

  // 2 MB rather than the 50 MB of the report: the YAML parser alone takes half a minute on 50 MB,
  // and what is shown does not depend on the size.
  it('a huge YAML scalar or key is quoted cut, not echoed whole', () => {
    const huge = 'x'.repeat(2 * 1024 * 1024);
    let message = '';
    try {
      parseConfig(`failOn: "${huge}"\n`, 'tracejury.yml');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(
      /^tracejury\.yml:1: failOn: expected one of critical, high, medium, low .*, got "x+…"$/,
    );
    expect(message.length).toBeLessThan(300);
    let keyMessage = '';
    try {
      // A key over 1,024 characters is an explicit one in YAML (`? key`).
      parseConfig(`default:\n  ? ${'k'.repeat(256 * 1024)}\n  : 1\n`, 'tracejury.yml');
    } catch (err) {
      keyMessage = (err as Error).message;
    }
    expect(keyMessage).toMatch(/^tracejury\.yml:2: unknown key "default\.k+…"/);
    expect(keyMessage.length).toBeLessThan(300);
  });
});

describe('absurd numbers', () => {
  it.each([
    [
      'totals.costUsd',
      (r: Report) => (r.totals.costUsd = 1e308),
      'totals.costUsd: over $1e+12, not a plausible amount',
    ],
    ['a negative waste', (r: Report) => (r.waste.totalUsd = -5), 'waste.totalUsd: Too small'],
    ['signal waste', (r: Report) => (r.signals[0]!.wasteUsd = 1e300), 'signals.0.wasteUsd: over $1e+12'],
    ['tokens', (r: Report) => (r.totals.inputTokens = 1e20), 'totals.inputTokens: over 1e+15 tokens'],
  ])('a report with %s is refused, naming the field', async (_name, spoil, problem) => {
    const report = await loopReport();
    spoil(report);
    const parsed = parseReportJson(JSON.stringify(report));
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.problem).toContain(problem);
  });

  it('diff and merge refuse a report whose waste is 1e308 (the gate never passes on it)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tracejury-absurd-'));
    const base = await loopReport();
    const head = structuredClone(base);
    head.waste.totalUsd = 1e308;
    head.signals[0]!.wasteUsd = 1e308;
    writeFileSync(path.join(dir, 'base.json'), JSON.stringify(base));
    writeFileSync(path.join(dir, 'head.json'), JSON.stringify(head));
    for (const args of [
      ['diff', 'base.json', 'head.json'],
      ['merge', 'base.json', 'head.json'],
    ]) {
      const r = await cli(args, dir);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(
        'head.json: not a Report v1: signals.0.wasteUsd: over $1e+12, not a plausible amount',
      );
      expect(r.stdout + r.stderr).not.toMatch(/\$Infinity|NaN/);
    }
  });

  it('a diff of reports that reach it unvalidated (library use) fails the gate and shows no $Infinity', async () => {
    const base = await loopReport();
    const traces = Array.from({ length: 12 }, (_, i) => ({ ...base.traces[0]!, id: `t-${i}` }));
    const many: Report = { ...base, traces, inputs: { ...base.inputs, traces: 12 } };
    const head: Report = {
      ...many,
      signals: many.traces.map((t) => ({ ...base.signals[0]!, traceId: t.id, wasteUsd: 1e308 })),
      waste: { ...many.waste, totalUsd: Infinity },
    };
    const diff = diffReports(many, head);
    expect(diff.gate.passed).toBe(false);
    expect(diff.gate.reasons.join('\n')).toContain('not a finite number');
    for (const text of [
      renderDiffMarkdown(diff),
      renderDiffText(diff),
      renderMarkdown(head),
      renderText(head),
    ])
      expect(text).not.toMatch(/\$Infinity|\$NaN|\bNaN\b|Infinity/);
  });
});
