/**
 * One trace: what is known of it, its findings, its timeline with the findings on their steps, and
 * the step the address names (else the first step of the highlighted detector's finding, else the
 * first failed step) opened.
 */
import { useMemo } from 'preact/hooks';
import { readTrace } from '../data.js';
import { fileLine, fmtInt, formatMs, formatUsd, plural } from '../model/format.js';
import { whyNotEmbedded } from '../model/leftOut.js';
import type { Page, Trace } from '../model/page.js';
import type { Route } from '../model/route.js';
import { layoutTimeline } from '../model/timeline.js';
import type { TraceEntry, TraceIndex } from '../model/traces.js';
import type { Navigate } from './App.js';
import { MarkerList } from './MarkerList.js';
import { RootCauseBanner } from './RootCauseBanner.js';
import { StepPanel } from './StepPanel.js';
import { Timeline } from './Timeline.js';
import { VerdictList } from './VerdictList.js';

interface Props {
  page: Page;
  index: TraceIndex;
  route: Extract<Route, { view: 'trace' }>;
  navigate: Navigate;
}

function load(entry: TraceEntry | undefined): { trace?: Trace; error?: string } {
  if (!entry?.embedded) return {};
  try {
    return { trace: readTrace(entry.embedded.block) };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

export function TraceView({ page, index, route, navigate }: Props) {
  const entry = index.find(route.traceId, route.file);
  const { trace, error } = useMemo(() => load(entry), [entry]);
  const rootCause = entry?.summary?.rootCause;
  const timeline = useMemo(
    () => (trace && entry ? layoutTimeline(trace, entry.markers, route.detector, rootCause) : undefined),
    [trace, entry, route.detector, rootCause],
  );
  const firstTab = page.kind === 'report' ? 'findings' : 'new';
  const back = (
    <a class="back" href={`#${firstTab}`}>
      ← back to {firstTab === 'findings' ? 'findings' : 'new findings'}
    </a>
  );
  if (!entry)
    return (
      <section class="trace-view">
        {back}
        <h2 class="trace-title">Trace {route.traceId}</h2>
        <p class="notice">
          This page names no trace {route.traceId}
          {route.file !== undefined ? ` in ${route.file}` : ''}.
        </p>
      </section>
    );

  const highlighted = entry.markers.find((m) => m.detector === route.detector);
  const selected =
    route.step === 0
      ? undefined
      : (route.step ??
        highlighted?.steps[0] ??
        (rootCause && 'step' in rootCause ? rootCause.step : undefined) ??
        timeline?.rows.find((r) => r.failed)?.n);
  const step = selected !== undefined && trace ? trace.steps[selected - 1] : undefined;
  const s = entry.summary;
  // The judges' verdicts on this trace (of its test, in a Vitest run, where ids may repeat).
  const verdicts =
    page.kind === 'report'
      ? page.report.verdicts.filter(
          (v) =>
            v.traceId === entry.id && (s?.test === undefined || v.test === undefined || v.test === s.test),
        )
      : [];
  const select = (n: number) => navigate({ ...route, step: n }, { replace: true });

  return (
    <section class="trace-view" data-testid="trace-view" data-trace-id={entry.id}>
      {back}
      {/* A trace of a Vitest run is named by its test; its id is said beside it. */}
      {s?.test !== undefined ? (
        <h2 class="trace-title">
          {s.test} <span class="muted mono trace-title-id">trace {entry.id}</span>
        </h2>
      ) : (
        <h2 class="trace-title">
          Trace <span class="mono">{entry.id}</span>
        </h2>
      )}
      <div class="trace-meta">
        {entry.file !== undefined && <span class="mono">{fileLine(entry.file, entry.line)}</span>}
        {s && (
          <span>
            agent {s.agentId}
            {s.agentVersion !== undefined ? `@${s.agentVersion}` : ''}
          </span>
        )}
        {s && <span class={`trace-status ${s.status}`}>{s.status}</span>}
        {s?.outcome && (
          <span class={s.outcome.success ? 'outcome ok' : 'outcome failed'}>
            {s.outcome.success ? 'succeeded' : 'failed'} ({s.outcome.source})
          </span>
        )}
        {s && (
          <span>
            {plural(s.steps, 'step')} · {fmtInt(s.llmCalls)} LLM · {fmtInt(s.toolCalls)} tool
          </span>
        )}
        {s && <span>cost {formatUsd(s.costUsd)}</span>}
        {s?.durationMs !== undefined && <span>{formatMs(s.durationMs)}</span>}
        {s?.test !== undefined && <span>test {s.test}</span>}
        {!s && trace && (
          <span>
            {plural(trace.steps.length, 'step')} · agent {trace.agentId}
          </span>
        )}
      </div>
      {rootCause && <RootCauseBanner cause={rootCause} onSelect={select} />}
      <MarkerList
        markers={entry.markers}
        highlight={route.detector}
        traceId={entry.id}
        file={route.file}
        verdicts={verdicts.length}
      />
      <VerdictList verdicts={verdicts} />
      {error !== undefined && <p class="notice error">The embedded trace could not be read: {error}</p>}
      {!entry.embedded && (
        <p class="notice" data-testid="not-embedded">
          This trace's timeline is not embedded in this page. {whyNotEmbedded(page.traces, entry.file)}
        </p>
      )}
      {timeline && trace && (
        <div class="trace-body">
          <Timeline timeline={timeline} selected={selected} onSelect={select} steps={trace.steps} />
          {step && selected !== undefined && (
            <StepPanel
              step={step}
              n={selected}
              markers={entry.markers.filter((m) => m.steps.includes(selected))}
              onClose={() => select(0)}
            />
          )}
        </div>
      )}
    </section>
  );
}
