/** How the run went: where signals were decided, which baselines were used, notes, input errors, traces left out. */
import { fmtInt, formatUsd } from '../model/format.js';
import { leftOutLines } from '../model/leftOut.js';
import type { ReportPage } from '../model/page.js';
import { NoteList } from './NoteList.js';

export function RunTab({ page }: { page: ReportPage }) {
  const r = page.report;
  const leftOut = leftOutLines(page.traces);
  return (
    <section aria-label="Run" class="run">
      <h3>Decisions</h3>
      <p data-testid="decisions">
        {page.lines.decisions ??
          'This report does not say where signals were decided (written before schema 1.3).'}
      </p>
      {page.lines.outcomes !== undefined && <p>{page.lines.outcomes}</p>}
      <h3>Baselines</h3>
      <p data-testid="baselines">{page.lines.baselines ?? 'No baseline detector ran.'}</p>
      {r.baselines && r.baselines.length > 0 && (
        <table class="table">
          <thead>
            <tr>
              <th>Agent version</th>
              <th class="num">Traces</th>
              <th>Detectors (source, runs)</th>
            </tr>
          </thead>
          <tbody>
            {r.baselines.map((b) => (
              <tr key={b.agent}>
                <td class="mono">{b.agent}</td>
                <td class="num">{fmtInt(b.traces)}</td>
                <td>
                  {Object.entries(b.detectors)
                    .map(([d, u]) => `${d}: ${u.source} (${u.runs})`)
                    .join(' · ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Spend on detection</h3>
      <p>
        judges {formatUsd(r.cost.judgeUsd)}
        {r.cost.perTraceUsd !== undefined && ` · ${formatUsd(r.cost.perTraceUsd)} per trace`}
        {r.judgesNotRun &&
          ` · judges never ran on ${fmtInt(r.judgesNotRun.cases)} cases: ${r.judgesNotRun.reason}`}
      </p>
      <NoteList notes={r.notes} />
      {r.inputs.errorCount > 0 && (
        <>
          <h3>Input errors ({fmtInt(r.inputs.errorCount)})</h3>
          <ul class="plain-list mono">
            {r.inputs.errors.map((e, i) => (
              <li key={i}>
                {e.file}
                {e.line !== undefined ? `:${e.line}` : ''}: {e.field !== undefined ? `${e.field}: ` : ''}
                {e.message}
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>Traces in this page</h3>
      {leftOut.length === 0 ? (
        <p>Every trace the report names is embedded ({fmtInt(page.traces.embedded.length)}).</p>
      ) : (
        leftOut.map((l, i) => <p key={i}>{l}</p>)
      )}
    </section>
  );
}
