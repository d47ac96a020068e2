/** What both renderers show: signals grouped by detector, worst first, with their waste. */
import { isConfirmed } from '../detect/grayZone.js';
import { SEVERITIES, severityRank, type Severity, type Signal } from '../detect/signal.js';
import type { Outcomes, Report } from './schema.js';
import { fmtInt, plural } from '../util/thousands.js';
import { stepsText } from '../util/steps.js';
import { formatUsd } from '../util/usd.js';

export { formatUsd, stepsText };

export interface DetectorGroup {
  detector: string;
  severity: Severity;
  /** Confirmed, non-suppressed signals. */
  count: number;
  /** `count` by severity: a detector's signals differ in severity (the column shows the worst). */
  bySeverity: Partial<Record<Severity, number>>;
  shadow: number;
  suppressed: number;
  grayZone: number;
  traces: number;
  wasteUsd: number;
  wasteTokens: number;
  examples: Signal[];
}

export function groupSignals(report: Pick<Report, 'signals'>, examplesPerGroup = 3): DetectorGroup[] {
  // `severity` is the worst of the confirmed signals (those the table counts); a group with none
  // (all suppressed or for review) shows the worst of what it has.
  const groups = new Map<string, DetectorGroup & { traceIds: Set<string>; anySeverity: Severity }>();
  for (const s of report.signals) {
    let g = groups.get(s.detector);
    if (!g) {
      g = {
        detector: s.detector,
        severity: s.severity,
        anySeverity: s.severity,
        count: 0,
        bySeverity: {},
        shadow: 0,
        suppressed: 0,
        grayZone: 0,
        traces: 0,
        wasteUsd: 0,
        wasteTokens: 0,
        examples: [],
        traceIds: new Set(),
      };
      groups.set(s.detector, g);
    }
    if (severityRank(s.severity) > severityRank(g.anySeverity)) g.anySeverity = s.severity;
    if (s.suppressedBy) {
      g.suppressed++;
      continue;
    }
    if (!isConfirmed(s)) {
      g.grayZone++;
      continue;
    }
    const firstConfirmed = g.count + g.shadow === 0;
    if (s.shadow) g.shadow++;
    else {
      g.count++;
      g.bySeverity[s.severity] = (g.bySeverity[s.severity] ?? 0) + 1;
    }
    if (firstConfirmed || severityRank(s.severity) > severityRank(g.severity)) g.severity = s.severity;
    g.traceIds.add(`${s.file ?? ''}\u0000${s.traceId}`);
    if (!s.shadow) {
      g.wasteUsd += s.wasteUsd ?? 0;
      g.wasteTokens += s.wasteTokens ?? 0;
    }
    if (g.examples.length < examplesPerGroup) g.examples.push(s);
  }
  return [...groups.values()]
    .map(({ traceIds, anySeverity, ...g }) => ({
      ...g,
      severity: g.count + g.shadow > 0 ? g.severity : anySeverity,
      traces: traceIds.size,
    }))
    .sort(
      (a, b) =>
        Number(a.count === 0) - Number(b.count === 0) ||
        severityRank(b.severity) - severityRank(a.severity) ||
        b.wasteUsd - a.wasteUsd ||
        b.count - a.count ||
        a.detector.localeCompare(b.detector),
    );
}

/**
 * "6 high, 26 medium" when a group's signals differ in severity, else '': beside a row that shows
 * only the worst severity, so its count is not read as that many signals of it (the gate counts
 * by severity).
 */
export function severityMix(g: Pick<DetectorGroup, 'bySeverity'>): string {
  const present = SEVERITIES.filter((sev) => (g.bySeverity[sev] ?? 0) > 0);
  return present.length > 1 ? present.map((sev) => `${g.bySeverity[sev]} ${sev}`).join(', ') : '';
}

type CostTotals = Pick<Report['totals'], 'costUsd' | 'llmCalls' | 'unknownModels' | 'unmeasuredLlmCalls'>;

/**
 * LLM calls whose cost is unknown: calls of models with no price and no recorded cost, and calls
 * with no token counts and no recorded cost (priced at $0 from nothing). `all` when no call's cost
 * is known, so that a total of $0.00 must not be shown as if it were measured.
 */
function unknownCostCalls(totals: CostTotals): { unpriced: number; unmeasured: number; all: boolean } {
  const unpriced = totals.unknownModels.reduce((n, u) => n + u.calls, 0);
  const unmeasured = totals.unmeasuredLlmCalls ?? 0;
  return { unpriced, unmeasured, all: totals.llmCalls > 0 && unpriced + unmeasured >= totals.llmCalls };
}

/**
 * The run's cost as both renderers state it: "$0.0563", "$0.0563 (+ 3 unpriced calls)", or
 * "unknown" when no LLM call could be priced (no price for its model, or no token counts), so that
 * "$0.00" never reads as free.
 */
export function formatCost(totals: CostTotals): string {
  const { unpriced, unmeasured, all } = unknownCostCalls(totals);
  if (all) return 'unknown';
  if (unpriced + unmeasured === 0) return formatUsd(totals.costUsd);
  return `${formatUsd(totals.costUsd)} (+ ${plural(unpriced + unmeasured, 'unpriced call')})`;
}

/** Waste in dollars, or "unknown" when no call's cost is known (waste is priced from call costs). */
export function formatWaste(report: Pick<Report, 'totals' | 'waste'>): string {
  return unknownCostCalls(report.totals).all ? 'unknown' : formatUsd(report.waste.totalUsd);
}

/**
 * "1,090 LLM calls carry no token counts and no recorded cost: their cost is unknown, not $0", or
 * undefined when every call carries one or the other.
 */
export function unmeasuredCallsLine(totals: CostTotals): string | undefined {
  const n = totals.unmeasuredLlmCalls ?? 0;
  if (n === 0) return undefined;
  return `${plural(n, 'LLM call')} ${n === 1 ? 'carries' : 'carry'} no token counts and no recorded cost: ${n === 1 ? 'its' : 'their'} cost is unknown, not $0`;
}

/** "Outcomes: 116 of 200 runs with a recorded outcome failed" — beside the gate line. */
export function outcomeLine(o: Outcomes): string {
  return `Outcomes: ${fmtInt(o.failed)} of ${plural(o.recorded, 'run')} with a recorded outcome failed`;
}

/** The per-detector precision table's rows, worst precision first; empty below 10 outcomes. */
export function precisionRows(
  report: Report,
): { detector: string; onFailed: number; onSucceeded: number; precision: string }[] {
  const by = report.outcomes?.byDetector;
  if (!by) return [];
  return Object.entries(by)
    .sort(([a, x], [b, y]) => x.precision - y.precision || a.localeCompare(b))
    .map(([detector, d]) => ({ ...d, detector, precision: d.precision.toFixed(2) }));
}

/** The gate's severities: as the report recorded them, else the default. */
export function gateSeverities(report: Pick<Report, 'gate'>): readonly Severity[] {
  return report.gate.failOn ?? ['critical', 'high'];
}

/** The findings that failed the gate (a finding at one of failOn's severities), worst first. */
export function failingFindings(report: Pick<Report, 'signals' | 'gate'>): Report['signals'] {
  const failOn = gateSeverities(report);
  return report.signals
    .filter((s) => s.status === 'finding' && failOn.includes(s.severity))
    .sort(
      (a, b) =>
        severityRank(b.severity) - severityRank(a.severity) ||
        a.detector.localeCompare(b.detector) ||
        (a.file ?? '').localeCompare(b.file ?? '') ||
        a.traceId.localeCompare(b.traceId),
    );
}

/** "(failOn: critical, high; 3 medium findings below it)": what the gate judged by. */
export function gateThreshold(report: Pick<Report, 'signals' | 'gate'>): string {
  const failOn = gateSeverities(report);
  const below = new Map<Severity, number>();
  for (const s of report.signals)
    if (s.status === 'finding' && !failOn.includes(s.severity))
      below.set(s.severity, (below.get(s.severity) ?? 0) + 1);
  const parts = [...below.entries()]
    .sort((a, b) => severityRank(b[0]) - severityRank(a[0]))
    .map(([sev, n]) => `${fmtInt(n)} ${sev}`);
  const n = [...below.values()].reduce((a, x) => a + x, 0);
  return `failOn: ${failOn.join(', ')}${parts.length ? `; ${parts.join(', ')} finding${n === 1 ? '' : 's'} below it` : ''}`;
}

/**
 * A Vitest run's gate in words: its tests ("tests — 3 passed, 1 failed"), for the HTML badge. A test
 * run's gate is its tests (report/testRunReport.ts), so its findings' severities are not its rule: a
 * passing test may expect a retry storm.
 */
export function testGateLine(testRun: NonNullable<Report['testRun']>): string {
  const parts = [`${fmtInt(testRun.passed)} passed`, `${fmtInt(testRun.failed)} failed`];
  if (testRun.skipped > 0) parts.push(`${fmtInt(testRun.skipped)} skipped`);
  return `tests — ${parts.join(', ')}`;
}

/** One score of a session as the renderers and the gate show it. */
export interface SessionMetricView {
  score: number;
  /** From the score's metadata (analyze() records it); the default 0.5 otherwise. */
  threshold: number;
  passed: boolean;
}

/** A session's two scores on one row, for the renderers and the gate reason. */
export interface SessionRow {
  sessionId: string;
  /** The Vitest test the scores came from, in a test run's report. */
  test?: string;
  traces: number;
  reliability?: SessionMetricView;
  consistency?: SessionMetricView;
  passed: boolean;
  /** The lowest score − threshold of the row: the most negative is the worst session. */
  margin: number;
}

/** The report's sessions as one row each, worst first (lowest score below or nearest its threshold). */
export function sessionRows(report: Pick<Report, 'sessions'>): SessionRow[] {
  const rows = new Map<string, SessionRow & { order: number }>();
  for (const s of report.sessions) {
    const test = s.test;
    const key = `${s.sessionId}\u0000${test ?? ''}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        sessionId: s.sessionId,
        ...(test !== undefined ? { test } : {}),
        traces: 0,
        passed: true,
        margin: Infinity,
        order: rows.size,
      };
      rows.set(key, row);
    }
    const threshold = typeof s.metadata.threshold === 'number' ? s.metadata.threshold : 0.5;
    const total = s.metadata.total_traces_in_session;
    if (typeof total === 'number') row.traces = Math.max(row.traces, total);
    const view = { score: s.score, threshold, passed: s.passed };
    if (s.metric === 'agent_reliability') row.reliability = view;
    else row.consistency = view;
    row.passed &&= s.passed;
    row.margin = Math.min(row.margin, s.score - threshold);
  }
  return [...rows.values()]
    .sort((a, b) => Number(a.passed) - Number(b.passed) || a.margin - b.margin || a.order - b.order)
    .map(({ order: _order, ...row }) => row);
}

/**
 * "40 traces named no session (no session or conversation id): they are scored in no session";
 * undefined when every trace named one, or the report does not say (before schema 1.4).
 */
export function sessionCoverageText(report: Pick<Report, 'sessionCoverage'>): string | undefined {
  const c = report.sessionCoverage;
  if (!c || c.withoutSession === 0) return undefined;
  return (
    `${plural(c.withoutSession, 'trace')} named no session (no session or conversation id): ` +
    `${c.withoutSession === 1 ? 'it is' : 'they are'} scored in no session`
  );
}

/** "agent_reliability 0.10 < 0.50" (or ≥ when it passed). */
export function sessionScoreText(metric: string, v: SessionMetricView): string {
  return `${metric} ${v.score.toFixed(2)} ${v.passed ? '≥' : '<'} ${v.threshold.toFixed(2)}`;
}

const TIER_LABELS = {
  '1': 'tier 1 rules',
  '2': 'tier 2 state deltas',
  '3': 'tier 3 embeddings',
  '4': 'tier 4 judges',
} as const;

const pctOf = (n: number, of: number) => `${Math.round((100 * n) / of)} %`;

/**
 * "Decided: 124 signals — tier 1 rules 41 (33 %), tier 2 state deltas 0, tier 3 embeddings 16
 * (13 %, 6 dismissed), tier 4 judges 0, tier 5 review 67 (54 %); detection cost $0.00 per
 * trace"; undefined for a report without decisions (before schema 1.3).
 */
export function decisionsLine(report: Pick<Report, 'decisions' | 'cost'>): string | undefined {
  const d = report.decisions;
  if (!d) return undefined;
  const cost = `detection cost ${formatUsd(report.cost.perTraceUsd ?? 0)} per trace`;
  if (d.signals === 0) return `Decided: no signals; ${cost}`;
  const tiers = (Object.keys(TIER_LABELS) as (keyof typeof TIER_LABELS)[]).map((t) => {
    const n = d.byTier[t];
    if (n === 0) return `${TIER_LABELS[t]} 0`;
    const dismissed = d.dismissed[t] > 0 ? `, ${fmtInt(d.dismissed[t])} dismissed` : '';
    return `${TIER_LABELS[t]} ${fmtInt(n)} (${pctOf(n, d.signals)}${dismissed})`;
  });
  const review = `tier 5 review ${fmtInt(d.review)}${d.review > 0 ? ` (${pctOf(d.review, d.signals)})` : ''}`;
  return `Decided: ${plural(d.signals, 'signal')} — ${[...tiers, review].join(', ')}; ${cost}`;
}

const BASELINE_SOURCE_ORDER = ['store', 'base-report', 'input', 'static'] as const;
const BASELINE_SOURCE_TEXT: Record<(typeof BASELINE_SOURCE_ORDER)[number], string> = {
  store: 'baseline store',
  'base-report': "base branch's report",
  input: "the input's good runs",
  static: 'static fallback',
};

/**
 * Which baseline each baseline detector used, in one line: "Baselines: CONTEXT_BLOAT,
 * COST_SPIKE: the input's good runs (38 runs); SLOW_STEP: static fallback (no good run measured it)".
 * With several agent versions, each source says for how many. Undefined without `baselines`.
 */
export function baselinesLine(report: Pick<Report, 'baselines'>): string | undefined {
  const uses = report.baselines;
  if (!uses || uses.length === 0) return undefined;
  const byDetector = new Map<string, Map<string, { agents: number; min: number; max: number }>>();
  for (const u of uses)
    for (const [detector, { source, runs }] of Object.entries(u.detectors)) {
      const sources = byDetector.get(detector) ?? new Map();
      byDetector.set(detector, sources);
      const s = sources.get(source) ?? { agents: 0, min: runs, max: runs };
      sources.set(source, { agents: s.agents + 1, min: Math.min(s.min, runs), max: Math.max(s.max, runs) });
    }
  const span = (s: { min: number; max: number }) =>
    s.min === s.max ? fmtInt(s.max) : `${fmtInt(s.min)}–${fmtInt(s.max)}`;
  const textOf = (sources: Map<string, { agents: number; min: number; max: number }>) =>
    BASELINE_SOURCE_ORDER.filter((k) => sources.has(k))
      .map((k) => {
        const s = sources.get(k)!;
        const runs =
          k !== 'static'
            ? `${span(s)} runs`
            : s.max === 0
              ? 'no good run measured it'
              : `${span(s)} good runs, too few`;
        return `${BASELINE_SOURCE_TEXT[k]}${uses.length > 1 ? ` for ${plural(s.agents, 'agent')}` : ''} (${runs})`;
      })
      .join(', ');
  const groups = new Map<string, string[]>();
  for (const [detector, sources] of [...byDetector].sort(([a], [b]) => a.localeCompare(b))) {
    const text = textOf(sources);
    groups.set(text, [...(groups.get(text) ?? []), detector]);
  }
  const agents = uses.length > 1 ? ` (${plural(uses.length, 'agent version')})` : '';
  return `Baselines${agents}: ${[...groups].map(([text, ds]) => `${ds.join(', ')}: ${text}`).join('; ')}`;
}
