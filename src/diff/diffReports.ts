/**
 * `diffReports(base, head)`: a head report (the pull request) against its base (the target
 * branch). Pure: two Report v1 objects in, a ReportDiff out, the same on every run.
 */
import { attributionDiff } from './attribution.js';
import { severityRank } from '../detect/signal.js';
import type { Report } from '../report/schema.js';
import { VERSION } from '../version.js';
import { plural } from '../util/thousands.js';
import { regressionPolicy, type RegressionSection } from './config.js';
import { regressionGate } from './gate.js';
import { matchSignals, type DiffSignal } from './match.js';
import { traceLines } from '../report/traceLines.js';
import { noiseSection } from './noise.js';
import { perTraceValues } from './perTrace.js';
import { REPORT_DIFF_VERSION, type ReportDiff } from './schema.js';
import { sessionDiffs } from './sessions.js';
import { detectorDiffs, severityDiff, totalsDiff } from './totals.js';
import { verdictDiff } from './verdicts.js';

export interface DiffOptions {
  /** The `regression:` section (as written in tracejury.yml, or a filled-in policy). */
  regression?: RegressionSection;
}

/** Worst first, then most waste, then by detector, trace and step: a stable order for lists. */
function bySeverity(a: DiffSignal, b: DiffSignal): number {
  return (
    severityRank(b.severity) - severityRank(a.severity) ||
    (b.wasteUsd ?? 0) - (a.wasteUsd ?? 0) ||
    cmp(a.detector, b.detector) ||
    cmp(a.file ?? '', b.file ?? '') ||
    cmp(a.traceId, b.traceId) ||
    (a.steps[0] ?? 0) - (b.steps[0] ?? 0)
  );
}
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const side = (r: Report) => ({
  generatedAt: r.generatedAt,
  toolVersion: r.tool.version,
  traces: r.inputs.traces,
  files: r.inputs.files,
  gatePassed: r.gate.passed,
});

function withAttribution(base: Report, head: Report): Pick<ReportDiff, 'attribution'> {
  const attribution = attributionDiff(base, head);
  return attribution ? { attribution } : {};
}

export function diffReports(base: Report, head: Report, options: DiffOptions = {}): ReportDiff {
  const policy = regressionPolicy(options.regression);
  const matched = matchSignals(base.signals, head.signals, {
    base: traceLines(base),
    head: traceLines(head),
  });
  matched.new.sort(bySeverity);
  matched.resolved.sort(bySeverity);
  const basePer = perTraceValues(base);
  const headPer = perTraceValues(head);
  const noise = noiseSection(basePer, headPer);
  const verdicts = verdictDiff(base, head);
  const gate = regressionGate(
    { newSignals: matched.new, wastePerTrace: noise.wastePerTrace, verdicts },
    policy,
  );
  const notes = [...gate.notes];
  for (const [name, per] of [
    ['base', basePer],
    ['head', headPer],
  ] as const)
    if (per.unjoined > 0)
      notes.push(
        `${name}: ${plural(per.unjoined, 'finding')} name a trace not in its traces[]; left out of the per-trace noise intervals`,
      );
  return {
    diffVersion: REPORT_DIFF_VERSION,
    tool: { name: 'tracejury', version: VERSION },
    base: side(base),
    head: side(head),
    regression: policy,
    totals: totalsDiff(base, head),
    detectors: detectorDiffs(base, head),
    severities: severityDiff(base, head),
    noise,
    signals: matched,
    verdicts,
    sessions: sessionDiffs(base, head),
    review: head.review,
    ...withAttribution(base, head),
    gate: { passed: gate.passed, reasons: gate.reasons, failures: gate.failures },
    notes,
  };
}
