/** Session scores, worst first, each with the traces that drag it down. */
import { score2 } from '../model/format.js';
import type { ReportPage } from '../model/page.js';
import { sessionRows, type SessionMetric } from '../model/sessions.js';
import type { TraceIndex } from '../model/traces.js';
import { ShowMore } from './ShowMore.js';
import { TraceLink } from './TraceLink.js';

function Score({ m }: { m: SessionMetric | undefined }) {
  if (!m) return <span class="muted">–</span>;
  return (
    <span class={m.passed ? 'score ok' : 'score bad'} title={m.reason}>
      {score2(m.score)} {m.passed ? '≥' : '<'} {score2(m.threshold)}
    </span>
  );
}

export function SessionsTab({ page, index }: { page: ReportPage; index: TraceIndex }) {
  const rows = sessionRows(page.report.sessions);
  const without = page.report.sessionCoverage?.withoutSession ?? 0;
  return (
    <section aria-label="Sessions">
      {without > 0 && (
        <p class="muted" data-testid="without-session">
          {without} trace{without === 1 ? '' : 's'} named no session (no session or conversation id):{' '}
          {without === 1 ? 'it is' : 'they are'} scored in no session.
        </p>
      )}
      <table class="table">
        <thead>
          <tr>
            <th>Session</th>
            <th class="num">Traces</th>
            <th>Reliability</th>
            <th>Consistency</th>
            <th>Traces that drag it down</th>
          </tr>
        </thead>
        <tbody>
          <ShowMore
            items={rows}
            what="sessions"
            render={(r) => (
              <tr key={`${r.sessionId}\u0000${r.test ?? ''}`} class={r.passed ? '' : 'row-bad'}>
                <td>
                  <span class="mono">{r.sessionId}</span>
                  {r.test !== undefined && <div class="muted">{r.test}</div>}
                </td>
                <td class="num">{r.traces}</td>
                <td>
                  <Score m={r.reliability} />
                </td>
                <td>
                  <Score m={r.consistency} />
                </td>
                <td>
                  {r.dragging.length === 0 && <span class="muted">none</span>}
                  {r.dragging.slice(0, 5).map((d) => {
                    const entry = index.find(d.traceId);
                    return (
                      <span key={d.traceId} class="drag">
                        <TraceLink traceId={d.traceId} file={entry?.file} />
                        <span class="muted">
                          {' '}
                          risk {d.risk.toFixed(2)}
                          {d.flagged ? ', flagged' : ''}
                        </span>
                      </span>
                    );
                  })}
                  {r.dragging.length > 5 && <span class="muted"> … {r.dragging.length - 5} more</span>}
                </td>
              </tr>
            )}
          />
        </tbody>
      </table>
    </section>
  );
}
