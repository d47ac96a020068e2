/**
 * Every trace the page knows of, keyed as the report names them (file + id), with its summary,
 * where its timeline is embedded (if it is) and the findings to draw on it. A Vitest run's page
 * embeds the copies its tests saved (`tests[].savedTraces`): a trace or finding of a test reaches
 * its copy through the test's name and the trace id.
 */
import type { DiffSignal, EmbeddedTraceInfo, Page, StepMarker, TraceSummary } from './page.js';

export interface TraceEntry {
  /** `file\0id`, the report's names for it. */
  key: string;
  id: string;
  file?: string | undefined;
  line?: number | undefined;
  summary?: TraceSummary | undefined;
  embedded?: EmbeddedTraceInfo | undefined;
  /** The findings (and other signals) to draw on its steps. */
  markers: StepMarker[];
}

export interface TraceIndex {
  entries: TraceEntry[];
  /** The entry a finding or an address names: by file and id, or by id alone without a file. */
  find(id: string, file?: string | undefined): TraceEntry | undefined;
}

export const traceKey = (file: string | undefined, id: string): string => `${file ?? ''}\u0000${id}`;

/** The embedded copy of a trace: by a test that saved it, else by its file, line and id. */
function embeddedLookup(embedded: readonly EmbeddedTraceInfo[]) {
  const byWhere = new Map<string, EmbeddedTraceInfo>();
  const byFileId = new Map<string, EmbeddedTraceInfo>();
  const byTest = new Map<string, EmbeddedTraceInfo>();
  for (const e of embedded) {
    byWhere.set(`${e.file}\u0000${e.line ?? ''}\u0000${e.id}`, e);
    if (!byFileId.has(traceKey(e.file, e.id))) byFileId.set(traceKey(e.file, e.id), e);
    for (const t of e.tests ?? []) byTest.set(`${t}\u0000${e.id}`, e);
  }
  return (t: {
    id: string;
    file?: string | undefined;
    line?: number | undefined;
    test?: string | undefined;
  }) =>
    (t.test !== undefined ? byTest.get(`${t.test}\u0000${t.id}`) : undefined) ??
    (t.line !== undefined ? byWhere.get(`${t.file ?? ''}\u0000${t.line}\u0000${t.id}`) : undefined) ??
    byFileId.get(traceKey(t.file, t.id));
}

export function buildTraceIndex(page: Page): TraceIndex {
  const embeddedOf = embeddedLookup(page.traces.embedded);
  const byKey = new Map<string, TraceEntry>();
  const entries: TraceEntry[] = [];
  const entryOf = (
    t: { id: string; file?: string | undefined; line?: number | undefined; test?: string | undefined },
    summary?: TraceSummary,
  ): TraceEntry => {
    const key = traceKey(t.file, t.id);
    const known = byKey.get(key);
    if (known) return known;
    const e: TraceEntry = {
      key,
      id: t.id,
      file: t.file,
      line: t.line,
      summary,
      embedded: embeddedOf(t),
      markers: [],
    };
    byKey.set(key, e);
    entries.push(e);
    return e;
  };

  if (page.kind === 'report') {
    for (const s of page.report.traces) entryOf(s, s);
    for (const s of page.report.signals)
      entryOf({ id: s.traceId, file: s.file, test: s.test }).markers.push({
        detector: s.detector,
        severity: s.severity,
        steps: s.steps,
        message: s.message,
        status: s.status,
      });
  } else {
    const mark = (signals: readonly DiffSignal[], status: string) => {
      for (const s of signals)
        entryOf({ id: s.traceId, file: s.file, line: s.line, test: s.test }).markers.push({
          detector: s.detector,
          severity: s.severity,
          steps: s.steps,
          message: s.message,
          status,
        });
    };
    mark(page.diff.signals.new, 'new');
    mark(page.persisting, 'persisting');
  }
  // Embedded traces no summary or finding names (a copy saved by a passing test) still open.
  const reached = new Set(entries.map((e) => e.embedded));
  for (const e of page.traces.embedded) if (!reached.has(e)) entryOf(e);

  const byId = new Map<string, TraceEntry>();
  for (const e of entries) if (!byId.has(e.id)) byId.set(e.id, e);
  return {
    entries,
    find: (id, file) => (file !== undefined ? (byKey.get(traceKey(file, id)) ?? undefined) : byId.get(id)),
  };
}
