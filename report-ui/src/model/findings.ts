/**
 * The findings list: every signal of the report as a row, the filters (detector, severity, status,
 * agent, test) and their choices with counts, and the rows grouped by detector, worst first, so
 * each detector's fix hint is said once above its rows.
 */
import type { ReportPage, Severity } from './page.js';
import { severityRank } from './page.js';
import type { TraceIndex } from './traces.js';

export interface FindingRow {
  /** Its place in report.signals. */
  index: number;
  detector: string;
  severity: Severity;
  status: string;
  message: string;
  traceId: string;
  file?: string | undefined;
  line?: number | undefined;
  test?: string | undefined;
  agent?: string | undefined;
  steps: number[];
  wasteUsd?: number | undefined;
  confidence: number;
  /** Whether the trace's timeline is in the page. */
  embedded: boolean;
}

export const FILTER_KEYS = ['detector', 'severity', 'status', 'agent', 'test'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
/** One value per key; absent means any. */
export type Filters = Partial<Record<FilterKey, string>>;

export const STATUS_ORDER = ['finding', 'review', 'suppressed', 'shadow'];

/**
 * How many findings the report holds: signals with status `finding`, as the report counts them
 * (its gate, its text and its Findings card). The Findings tab lists every signal — cases for
 * review, suppressed and shadow signals too, under the status filter — but its count is this one,
 * so the tab and the card never disagree.
 */
export function findingCount(signals: readonly { status: string }[]): number {
  let n = 0;
  for (const s of signals) if (s.status === 'finding') n++;
  return n;
}

export function findingRows(page: ReportPage, traces: TraceIndex): FindingRow[] {
  return page.report.signals.map((s, index) => {
    const entry = traces.find(s.traceId, s.file);
    return {
      index,
      detector: s.detector,
      severity: s.severity,
      status: s.status,
      message: s.message,
      traceId: s.traceId,
      file: s.file,
      line: entry?.line,
      test: s.test,
      agent: entry?.summary?.agentId,
      steps: s.steps,
      wasteUsd: s.wasteUsd,
      confidence: s.confidence,
      embedded: entry?.embedded !== undefined,
    };
  });
}

export function matches(row: FindingRow, filters: Filters): boolean {
  return FILTER_KEYS.every((k) => filters[k] === undefined || row[k] === filters[k]);
}

export function filterRows(rows: readonly FindingRow[], filters: Filters): FindingRow[] {
  return rows.filter((r) => matches(r, filters));
}

export interface FilterChoice {
  value: string;
  count: number;
}

/**
 * Each filter's choices, with how many rows each would show given the other filters: a choice
 * that would empty the list reads 0 rather than disappearing.
 */
export function filterChoices(
  rows: readonly FindingRow[],
  filters: Filters,
): Record<FilterKey, FilterChoice[]> {
  const out = {} as Record<FilterKey, FilterChoice[]>;
  for (const key of FILTER_KEYS) {
    const others: Filters = { ...filters };
    delete others[key];
    const counts = new Map<string, number>();
    for (const r of rows) {
      const v = r[key];
      if (v === undefined) continue;
      if (!counts.has(v)) counts.set(v, 0);
      if (matches(r, others)) counts.set(v, counts.get(v)! + 1);
    }
    const order = (v: string) =>
      key === 'severity' ? -severityRank(v as Severity) : key === 'status' ? STATUS_ORDER.indexOf(v) : 0;
    out[key] = [...counts]
      .map(([value, count]) => ({ value, count }))
      .sort(
        (a, b) =>
          order(a.value) - order(b.value) ||
          (key === 'detector' ? b.count - a.count : 0) ||
          a.value.localeCompare(b.value),
      );
  }
  return out;
}

export interface DetectorGroup {
  detector: string;
  /** The worst severity among its rows. */
  severity: Severity;
  rows: FindingRow[];
  wasteUsd: number;
}

/** Rows by detector, worst group first; inside a group findings before other statuses, worst first. */
export function groupByDetector(rows: readonly FindingRow[]): DetectorGroup[] {
  const groups = new Map<string, DetectorGroup>();
  for (const r of rows) {
    let g = groups.get(r.detector);
    if (!g)
      groups.set(r.detector, (g = { detector: r.detector, severity: r.severity, rows: [], wasteUsd: 0 }));
    g.rows.push(r);
    if (severityRank(r.severity) > severityRank(g.severity)) g.severity = r.severity;
    if (r.status === 'finding') g.wasteUsd += r.wasteUsd ?? 0;
  }
  for (const g of groups.values())
    g.rows.sort(
      (a, b) =>
        STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status) ||
        severityRank(b.severity) - severityRank(a.severity) ||
        a.index - b.index,
    );
  return [...groups.values()].sort(
    (a, b) =>
      severityRank(b.severity) - severityRank(a.severity) ||
      b.rows.filter((r) => r.status === 'finding').length -
        a.rows.filter((r) => r.status === 'finding').length ||
      a.detector.localeCompare(b.detector),
  );
}

/** Findings (status finding) by severity, for the totals. */
export function severityCounts(rows: readonly FindingRow[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { critical: 0, high: 0, medium: 0, low: 0 };
  for (const r of rows) if (r.status === 'finding') counts[r.severity]++;
  return counts;
}
