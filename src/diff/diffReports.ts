/**
 * `diffReports(base, head)`: a head report (the pull request) against its base (the target
 * branch). Pure: two Report v1 objects in, a ReportDiff out, the same on every run.
 *
 * Steps: match findings (new, resolved, persisting); read each side's runs per quantity (runs.ts);
 * decide which quantities can be compared; compare each (compare.ts) at the level the gate will
 * hold it to; decide the gate (gate.ts); gather outcomes, totals and notes.
 */
import { attributionDiff } from './attribution.js';
import { severityRank, type Severity } from '../detect/signal.js';
import type { Report } from '../report/schema.js';
import { traceLines } from '../report/traceLines.js';
import { VERSION } from '../version.js';
import { plural } from '../util/thousands.js';
import { regressionPolicy, type RegressionPolicy, type RegressionSection } from './config.js';
import { compareQuantity, finiteRuns, notCompared } from './compare.js';
import { firstStepAlpha, regressionGate } from './gate.js';
import { matchSignals, taskLookup, type DiffSignal } from './match.js';
import { outcomesDiff } from './outcomes.js';
import { quantityMeaning, type Quantity, type QuantityMeaning } from './quantity.js';
import { detectorRuns, sideRuns, traceTask, type CostCoverage, type Run, type SideRuns } from './runs.js';
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

function side(r: Report): ReportDiff['base'] {
  return {
    generatedAt: r.generatedAt,
    toolVersion: r.tool.version,
    traces: r.inputs.traces,
    files: r.inputs.files,
    gatePassed: r.gate.passed,
    ...(!r.gate.passed && r.gate.reasons[0] !== undefined ? { gateReason: r.gate.reasons[0] } : {}),
    ...(r.testRun ? { tests: { total: r.testRun.tests, failed: r.testRun.failed } } : {}),
  };
}

/** A quantity ready to compare (its runs on each side), or why it cannot be. */
interface Candidate {
  id: string;
  meaning: QuantityMeaning;
  base: readonly Run[];
  head: readonly Run[];
  unavailable?: { status: 'unknown' | 'missing'; why: string };
  /** Where success came from (both sides, or the side that has it). */
  source?: Quantity['source'];
}

const SUCCESS_NAMES = { tests: 'test attempts', outcomes: 'recorded outcomes', verdicts: "judges' verdicts" };

/** Why a side's money cannot be compared: "head's 1,090 LLM calls carry no token counts or recorded cost". */
function unknownCostWhy(name: 'base' | 'head', c: CostCoverage): string {
  const parts = [
    ...(c.unmeasured > 0
      ? [`${plural(c.unmeasured, 'LLM call')} with no token counts or recorded cost`]
      : []),
    ...(c.unpriced > 0 ? [`${plural(c.unpriced, 'LLM call')} of models with no price`] : []),
  ];
  return `no LLM call of ${name} could be priced (${parts.join(', ')})`;
}

function candidates(
  b: SideRuns,
  h: SideRuns,
  base: Report,
  head: Report,
  policy: RegressionPolicy,
): Candidate[] {
  const meaning = (id: string) => quantityMeaning(id, policy.minSeverity);
  const out: Candidate[] = [];
  // Success: one source per report; sides that record it differently are not compared.
  if (b.success || h.success) {
    const c: Candidate = {
      id: 'success',
      meaning: meaning('success'),
      base: b.success?.runs ?? [],
      head: h.success?.runs ?? [],
      source: (h.success ?? b.success)!.source,
    };
    if (!b.success || !h.success)
      c.unavailable = {
        status: 'missing',
        why: `${b.success ? 'head' : 'base'} records no success (no outcome, test or verdict)`,
      };
    else if (b.success.source !== h.success.source)
      c.unavailable = {
        status: 'missing',
        why: `base's success comes from ${SUCCESS_NAMES[b.success.source]}, head's from ${SUCCESS_NAMES[h.success.source]}`,
      };
    out.push(c);
  }
  out.push({ id: 'findings', meaning: meaning('findings'), base: b.findings, head: h.findings });
  const money = (id: 'waste' | 'cost'): Candidate => {
    const c: Candidate = { id, meaning: meaning(id), base: b[id], head: h[id] };
    const unknown = b.coverage.known === 'none' ? 'base' : h.coverage.known === 'none' ? 'head' : undefined;
    if (unknown)
      c.unavailable = {
        status: 'unknown',
        why: unknownCostWhy(unknown, unknown === 'base' ? b.coverage : h.coverage),
      };
    return c;
  };
  out.push(money('waste'), money('cost'));
  if (b.judgeScore.length > 0 || h.judgeScore.length > 0)
    out.push({ id: 'judgeScore', meaning: meaning('judgeScore'), base: b.judgeScore, head: h.judgeScore });
  const detectors = new Set<string>();
  for (const r of [base, head])
    for (const s of r.signals) if (s.status === 'finding') detectors.add(s.detector);
  for (const d of [...detectors].sort())
    out.push({ id: d, meaning: meaning(d), base: detectorRuns(b, d), head: detectorRuns(h, d) });
  return out;
}

const comparable = (c: Candidate) =>
  !c.unavailable && c.base.length > 0 && c.head.length > 0 && finiteRuns(c.base) && finiteRuns(c.head);

function measure(all: Candidate[], policy: RegressionPolicy): Quantity[] {
  const family = all.filter((c) => policy.gate.includes(c.id) && comparable(c)).map((c) => c.id);
  return all.map((c) => {
    const q = c.unavailable
      ? notCompared(c.id, c.meaning, c.base, c.head, c.unavailable.status, c.unavailable.why)
      : compareQuantity(c.id, c.meaning, c.base, c.head, firstStepAlpha(family, c.id, policy.alpha));
    return c.source ? { ...q, source: c.source } : q;
  });
}

/** Base's tasks with a finding at `min` or worse (what `newSignals` calls not clean). */
function flaggedTasks(base: Report): (min: Severity) => ReadonlySet<string> {
  return (min) => {
    const bad = new Set<string>();
    const tasks = new Map(
      base.traces.map((t) => [`${t.file}\u0000${t.id}\u0000${t.test ?? ''}`, traceTask(t)]),
    );
    for (const s of base.signals)
      if (s.status === 'finding' && severityRank(s.severity) >= severityRank(min)) {
        const task = tasks.get(`${s.file ?? ''}\u0000${s.traceId}\u0000${s.test ?? ''}`);
        if (task !== undefined) bad.add(task);
      }
    return bad;
  };
}

/** Head's new findings with the task of their run. */
function withTasks(signals: readonly DiffSignal[], head: Report): (DiffSignal & { task: string })[] {
  const tasks = new Map(
    head.traces.map((t) => [`${t.file}\u0000${t.id}\u0000${t.test ?? ''}`, traceTask(t)]),
  );
  return signals.map((s) => ({
    ...s,
    task:
      tasks.get(`${s.file ?? ''}\u0000${s.traceId}\u0000${s.test ?? ''}`) ??
      traceTask({ file: s.file ?? '', id: s.traceId, ...(s.test !== undefined ? { test: s.test } : {}) }),
  }));
}

function notesOf(b: SideRuns, h: SideRuns, quantities: readonly Quantity[]): string[] {
  const notes: string[] = [];
  for (const [name, s] of [
    ['base', b],
    ['head', h],
  ] as const)
    if (s.coverage.known === 'some')
      notes.push(
        `${name}: ${plural(s.coverage.unpriced + s.coverage.unmeasured, 'LLM call')} of ${s.coverage.llmCalls} could not be priced (no price, or no token counts): counted as $0 in cost and waste per run`,
      );
  const left = quantities.find((q) => q.id === 'success')?.pairing?.leftOut;
  if (left)
    notes.push(
      `success: ${plural(left.base, 'base run')} and ${plural(left.head, 'head run')} of tasks found on one side only were left out of the paired comparison`,
    );
  // One note per reason, naming every quantity it kept from being compared (waste and cost share one).
  const why = new Map<string, Quantity[]>();
  for (const q of quantities)
    if (q.status !== 'compared') why.set(q.why ?? 'no runs', [...(why.get(q.why ?? 'no runs') ?? []), q]);
  for (const [reason, qs] of why) {
    const names = qs.map((q) => `${q.label}${q.gated ? ' (gated)' : ''}`);
    notes.push(`${names.join(' and ')} not compared: ${reason}`);
  }
  return notes;
}

function withAttribution(base: Report, head: Report): Pick<ReportDiff, 'attribution'> {
  const attribution = attributionDiff(base, head);
  return attribution ? { attribution } : {};
}

export function diffReports(base: Report, head: Report, options: DiffOptions = {}): ReportDiff {
  const policy = regressionPolicy(options.regression);
  const matched = matchSignals(base.signals, head.signals, {
    base: traceLines(base),
    head: traceLines(head),
    baseTask: taskLookup(base),
    headTask: taskLookup(head),
  });
  matched.new.sort(bySeverity);
  matched.resolved.sort(bySeverity);
  const b = sideRuns(base, policy.minSeverity);
  const h = sideRuns(head, policy.minSeverity);
  const gate = regressionGate(
    {
      quantities: measure(candidates(b, h, base, head, policy), policy),
      newSignals: withTasks(matched.new, head),
      baseFlaggedTasks: flaggedTasks(base),
    },
    policy,
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
    costs: { base: b.coverage, head: h.coverage },
    outcomes: outcomesDiff(b.success, h.success, head, base) ?? null,
    quantities: gate.quantities,
    signals: matched,
    verdicts: verdictDiff(base, head),
    sessions: sessionDiffs(base, head),
    review: head.review,
    ...withAttribution(base, head),
    gate: {
      passed: gate.passed,
      reasons: gate.reasons,
      failures: gate.failures,
      decidedBy: gate.decidedBy,
      alpha: policy.alpha,
    },
    notes: notesOf(b, h, gate.quantities),
  };
}
