/** Every trace of the run, those with findings first, each opening its timeline when embedded. */
import { fileLine, fmtInt, formatMs, formatUsd } from '../model/format.js';
import { leftOutLines } from '../model/leftOut.js';
import type { ReportPage } from '../model/page.js';
import type { TraceIndex } from '../model/traces.js';
import { ShowMore } from './ShowMore.js';
import { TraceLink } from './TraceLink.js';

export function TracesTab({ page, index }: { page: ReportPage; index: TraceIndex }) {
  const entries = index.entries
    .filter((e) => e.summary)
    .map((e, i) => ({ e, i, findings: e.markers.filter((m) => m.status === 'finding').length }))
    .sort(
      (a, b) =>
        b.findings - a.findings || Number(Boolean(b.e.embedded)) - Number(Boolean(a.e.embedded)) || a.i - b.i,
    );
  const leftOut = leftOutLines(page.traces);
  return (
    <section aria-label="Traces">
      {leftOut.length > 0 && (
        <div class="notice" data-testid="left-out">
          {leftOut.map((l, i) => (
            <p key={i}>{l}</p>
          ))}
        </div>
      )}
      <table class="table">
        <thead>
          <tr>
            <th>Trace (or its test)</th>
            <th>File (or trace id)</th>
            <th>Agent</th>
            <th class="num">Steps</th>
            <th class="num">Cost</th>
            <th class="num">Duration</th>
            <th class="num">Findings</th>
            <th>Timeline</th>
          </tr>
        </thead>
        <tbody>
          <ShowMore
            items={entries}
            what="traces"
            render={({ e, findings }) => {
              const s = e.summary!;
              return (
                <tr key={e.key}>
                  {/* A trace of a Vitest run by its test, not a hex id and "captureTrace". */}
                  <td class={s.test !== undefined ? '' : 'mono'}>
                    <TraceLink traceId={e.id} file={e.file}>
                      {s.test ?? e.id}
                    </TraceLink>
                  </td>
                  <td class="mono muted">{s.test !== undefined ? e.id : fileLine(e.file, e.line)}</td>
                  <td>{s.agentId}</td>
                  <td class="num">{fmtInt(s.steps)}</td>
                  <td class="num">{formatUsd(s.costUsd)}</td>
                  <td class="num">{formatMs(s.durationMs)}</td>
                  <td class="num">{findings > 0 ? <strong>{findings}</strong> : '–'}</td>
                  <td>{e.embedded ? 'embedded' : <span class="muted">not embedded</span>}</td>
                </tr>
              );
            }}
          />
        </tbody>
      </table>
    </section>
  );
}
