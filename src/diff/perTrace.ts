/**
 * A report's per-trace values, for the noise intervals: each trace's cost (traces[].costUsd), its
 * waste (wasteUsd of its findings) and its findings of each detector. Signals are joined to traces
 * by file + trace id, as the report keys them (the same id in two files is two traces); a signal
 * without a file joins the first trace of its id. Traces repeated under one id in one file are one
 * unit here: their signals cannot be told apart.
 */
import type { Report } from '../report/schema.js';
import { sparse, sparseFromMap, type SparseValues } from './bootstrap.js';

export interface PerTrace {
  /** Units (distinct file + trace id). */
  n: number;
  cost: SparseValues;
  waste: SparseValues;
  /** Findings of each detector per trace. */
  findings: Map<string, SparseValues>;
  /** Findings whose trace is not in traces[] (not in the per-trace values). */
  unjoined: number;
}

const key = (file: string, id: string) => `${file}\u0000${id}`;

export function perTraceValues(report: Pick<Report, 'traces' | 'signals'>): PerTrace {
  const byKey = new Map<string, number>();
  const byId = new Map<string, number>();
  const cost: number[] = [];
  for (const t of report.traces) {
    const k = key(t.file, t.id);
    let i = byKey.get(k);
    if (i === undefined) {
      i = cost.length;
      byKey.set(k, i);
      cost.push(0);
    }
    if (!byId.has(t.id)) byId.set(t.id, i);
    cost[i]! += t.costUsd;
  }
  const waste = new Map<number, number>();
  const findings = new Map<string, Map<number, number>>();
  let unjoined = 0;
  for (const s of report.signals) {
    if (s.status !== 'finding') continue;
    const i = s.file !== undefined ? byKey.get(key(s.file, s.traceId)) : byId.get(s.traceId);
    if (i === undefined) {
      unjoined++;
      continue;
    }
    if (s.wasteUsd) waste.set(i, (waste.get(i) ?? 0) + s.wasteUsd);
    let counts = findings.get(s.detector);
    if (!counts) findings.set(s.detector, (counts = new Map()));
    counts.set(i, (counts.get(i) ?? 0) + 1);
  }
  return {
    n: cost.length,
    cost: sparse(cost),
    waste: sparseFromMap(waste),
    findings: new Map([...findings].map(([d, m]) => [d, sparseFromMap(m)])),
    unjoined,
  };
}
