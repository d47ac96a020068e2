/**
 * Session scores as rows (reliability and consistency side by side, worst first) with the traces
 * that drag each session down: the per-trace risks the scores recorded (`step_risk` for
 * reliability, `weighted_uncertainty` for consistency), highest first, and the flagged traces.
 */
import type { SessionScore } from './page.js';

export interface SessionMetric {
  score: number;
  threshold: number;
  passed: boolean;
  reason: string;
}

export interface DraggingTrace {
  traceId: string;
  risk: number;
  flagged: boolean;
}

export interface SessionRow {
  sessionId: string;
  test?: string | undefined;
  traces: number;
  reliability?: SessionMetric | undefined;
  consistency?: SessionMetric | undefined;
  passed: boolean;
  /** The lowest score − threshold: the most negative is the worst session. */
  margin: number;
  dragging: DraggingTrace[];
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The traces a score's metadata names with a risk above 0, worst first. */
export function draggingTraces(metadata: Record<string, unknown>): DraggingTrace[] {
  const per = metadata.per_trace_signals;
  const flagged = new Set(
    Array.isArray(metadata.flagged_traces)
      ? metadata.flagged_traces.filter((x): x is string => typeof x === 'string')
      : [],
  );
  const out: DraggingTrace[] = [];
  if (per && typeof per === 'object')
    for (const [traceId, v] of Object.entries(per as Record<string, unknown>)) {
      const e = (v ?? {}) as Record<string, unknown>;
      const risk = num(e.step_risk) ?? num(e.weighted_uncertainty) ?? 0;
      if (risk > 0 || flagged.has(traceId)) out.push({ traceId, risk, flagged: flagged.has(traceId) });
    }
  for (const traceId of flagged)
    if (!out.some((d) => d.traceId === traceId)) out.push({ traceId, risk: 0, flagged: true });
  return out.sort((a, b) => Number(b.flagged) - Number(a.flagged) || b.risk - a.risk);
}

export function sessionRows(scores: readonly SessionScore[]): SessionRow[] {
  const rows = new Map<string, SessionRow & { order: number }>();
  for (const s of scores) {
    const key = `${s.sessionId}\u0000${s.test ?? ''}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        sessionId: s.sessionId,
        test: s.test,
        traces: 0,
        passed: true,
        margin: Infinity,
        dragging: [],
        order: rows.size,
      };
      rows.set(key, row);
    }
    const threshold = num(s.metadata.threshold) ?? 0.5;
    row.traces = Math.max(row.traces, num(s.metadata.total_traces_in_session) ?? 0);
    const metric = { score: s.score, threshold, passed: s.passed, reason: s.reason };
    if (s.metric === 'agent_reliability') row.reliability = metric;
    else row.consistency = metric;
    row.passed = row.passed && s.passed;
    row.margin = Math.min(row.margin, s.score - threshold);
    for (const d of draggingTraces(s.metadata)) {
      const known = row.dragging.find((x) => x.traceId === d.traceId);
      if (!known) row.dragging.push(d);
      else {
        known.risk = Math.max(known.risk, d.risk);
        known.flagged = known.flagged || d.flagged;
      }
    }
  }
  return [...rows.values()]
    .sort((a, b) => Number(a.passed) - Number(b.passed) || a.margin - b.margin || a.order - b.order)
    .map(({ order: _order, ...row }) => ({
      ...row,
      dragging: row.dragging.sort((a, b) => Number(b.flagged) - Number(a.flagged) || b.risk - a.risk),
    }));
}
