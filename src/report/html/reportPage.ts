/** The report page's data (pageData.ts), built from a report and the traces collected for it. */
import { findDetector } from '../../detect/registry.js';
import type { Report } from '../schema.js';
import {
  baselinesLine,
  decisionsLine,
  formatCost,
  formatWaste,
  gateThreshold,
  outcomeLine,
  testGateLine,
} from '../summarise.js';
import type { CollectedTraces } from './collectTraces.js';
import type { DetectorInfo, PageTraces, ReportPage } from './pageData.js';

/** The meta of every built-in detector named in `ids`. */
export function detectorInfo(ids: Iterable<string>): Record<string, DetectorInfo> {
  const out: Record<string, DetectorInfo> = {};
  for (const id of ids) {
    const meta = findDetector(id)?.meta;
    if (meta && meta.id === id)
      out[id] = { id, failureMode: meta.failureMode, description: meta.description, fix: meta.fix };
  }
  return out;
}

/** The page's account of its traces: where each embedded one is, and what was left out. */
export function pageTraces(collected: CollectedTraces, howToGetAll?: string): PageTraces {
  return {
    embedded: collected.traces.map((t, block) => ({
      block,
      id: t.ref.id,
      file: t.ref.file,
      ...(t.ref.line !== undefined ? { line: t.ref.line } : {}),
      bytes: t.bytes,
      ...(t.ref.tests ? { tests: t.ref.tests } : {}),
    })),
    leftOut: collected.leftOut,
    ...(howToGetAll !== undefined ? { howToGetAll } : {}),
  };
}

export function reportPage(report: Report, collected: CollectedTraces, howToGetAll?: string): ReportPage {
  const decisions = decisionsLine(report);
  const baselines = baselinesLine(report);
  return {
    kind: 'report',
    title: `tracejury report — ${report.gate.passed ? 'gate passed' : 'gate FAILED'}`,
    report,
    lines: {
      cost: formatCost(report.totals),
      waste: formatWaste(report),
      // A Vitest run's gate is its tests, not the severities of its findings.
      gateThreshold: report.testRun ? testGateLine(report.testRun) : gateThreshold(report),
      ...(decisions !== undefined ? { decisions } : {}),
      ...(baselines !== undefined ? { baselines } : {}),
      ...(report.outcomes && report.outcomes.recorded > 0 ? { outcomes: outcomeLine(report.outcomes) } : {}),
    },
    detectors: detectorInfo([
      ...report.signals.map((s) => s.detector),
      ...report.review.flatMap((r) => (r.detector !== undefined ? [r.detector] : [])),
    ]),
    traces: pageTraces(collected, howToGetAll),
  };
}
