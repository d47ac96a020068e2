/**
 * Outcomes of a diff: success on each side (overall and per agent, with 95 % intervals), and the
 * tasks whose outcome flipped, each opening head's runs of it.
 */
import { fmtInt } from '../model/format.js';
import type { DiffPage, FlippedTask, SuccessRate } from '../model/page.js';
import type { TraceIndex } from '../model/traces.js';
import { ShowMore } from './ShowMore.js';
import { TraceLink } from './TraceLink.js';

const pct = (x: number) => `${Math.round(x * 1000) / 10} %`;

function Rate({ r }: { r: SuccessRate | null }) {
  if (r === null) return <span class="muted">not recorded</span>;
  return (
    <span>
      {pct(r.rate)}{' '}
      <span class="muted">
        ({fmtInt(r.succeeded)}/{fmtInt(r.runs)}; 95% {pct(r.interval[0])}–{pct(r.interval[1])})
      </span>
    </span>
  );
}

function Flipped({
  title,
  tasks,
  count,
  index,
}: {
  title: string;
  tasks: FlippedTask[];
  count: number;
  index: TraceIndex;
}) {
  if (count === 0) return null;
  return (
    <>
      <h3>
        {title} ({fmtInt(count)})
      </h3>
      <ul class="rows" data-testid={`flipped-${title.startsWith('Pass') ? 'to-fail' : 'to-pass'}`}>
        <ShowMore
          items={tasks}
          what="tasks"
          render={(t) => (
            <li class="row" key={t.task}>
              <span class="row-main">
                <span class="row-message mono">{t.task}</span>
                <span class="row-where">
                  {t.base.passed}/{t.base.runs} → {t.head.passed}/{t.head.runs} passed
                  {t.traces.map((tr) =>
                    index.find(tr.id, tr.file) ? (
                      <>
                        {' · '}
                        <TraceLink traceId={tr.id} file={tr.file} />
                      </>
                    ) : (
                      <span class="muted"> · {tr.id}</span>
                    ),
                  )}
                </span>
              </span>
            </li>
          )}
        />
      </ul>
      {count > tasks.length && <p class="muted">… {fmtInt(count - tasks.length)} more (see the JSON diff)</p>}
    </>
  );
}

export function OutcomesTab({ page, index }: { page: DiffPage; index: TraceIndex }) {
  const o = page.diff.outcomes;
  if (!o) return <p class="empty">Neither report records success (no outcome, test or verdict).</p>;
  return (
    <section aria-label="Outcomes" class="run">
      <h3>Success</h3>
      <table class="table" data-testid="success">
        <thead>
          <tr>
            <th></th>
            <th class="num">Base</th>
            <th class="num">Head</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              all runs (
              {o.source === 'tests'
                ? 'test attempts'
                : o.source === 'outcomes'
                  ? 'recorded outcomes'
                  : "judges' verdicts"}
              )
            </td>
            <td class="num">
              <Rate r={o.base} />
            </td>
            <td class="num">
              <Rate r={o.head} />
            </td>
          </tr>
          {o.byAgent.map((a) => (
            <tr key={a.agent}>
              <td class="mono">{a.agent}</td>
              <td class="num">
                <Rate r={a.base} />
              </td>
              <td class="num">
                <Rate r={a.head} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Flipped title="Pass → fail" tasks={o.flipped.toFail} count={o.flipped.toFailCount} index={index} />
      <Flipped title="Fail → pass" tasks={o.flipped.toPass} count={o.flipped.toPassCount} index={index} />
      {o.flipped.toFailCount + o.flipped.toPassCount === 0 && <p class="empty">No task's outcome flipped.</p>}
    </section>
  );
}
