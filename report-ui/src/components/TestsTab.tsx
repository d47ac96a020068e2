/** A Vitest run's tests, failed first: attempts, pass^k and pass@k, errors and the traces each captured. */
import { fileLine, fmtInt, plural } from '../model/format.js';
import type { ReportPage, TestResult } from '../model/page.js';
import { attemptsText, passKText, testsInOrder } from '../model/tests.js';
import type { TraceIndex } from '../model/traces.js';
import { SeverityBadge, StatusBadge } from './SeverityBadge.js';
import { ShowMore } from './ShowMore.js';
import { TraceLink } from './TraceLink.js';
import { VerdictList } from './VerdictList.js';

function TestTraces({ test, index }: { test: TestResult; index: TraceIndex }) {
  if (test.traces.length === 0) return <span class="muted">no trace</span>;
  return (
    <span class="test-traces">
      {test.traces.map((id) => {
        const entry =
          index.entries.find((e) => e.id === id && e.summary?.test === test.name) ?? index.find(id);
        return (
          <span key={id} class="test-trace" data-testid="test-trace">
            <TraceLink traceId={id} file={entry?.file} />
            {entry?.embedded ? (
              <span class="muted"> (saved, timeline)</span>
            ) : (
              <span class="muted"> (summary only)</span>
            )}
          </span>
        );
      })}
    </span>
  );
}

/** The findings on a test's traces, each opening its trace at its steps. */
function TestFindings({ test, page }: { test: TestResult; page: ReportPage }) {
  const findings = page.report.signals.filter((s) => s.test === test.name && s.status === 'finding');
  if (findings.length === 0) return null;
  return (
    <span class="test-findings">
      {findings.map((s, i) => (
        <TraceLink key={i} traceId={s.traceId} file={s.file} detector={s.detector} step={s.steps[0]}>
          <SeverityBadge severity={s.severity} /> <span class="mono">{s.detector}</span>
        </TraceLink>
      ))}
    </span>
  );
}

export function TestsTab({ page, index }: { page: ReportPage; index: TraceIndex }) {
  const r = page.report;
  const run = r.testRun;
  return (
    <section aria-label="Tests">
      {run && (
        <p class="lede">
          {plural(run.tests, 'test')}: {fmtInt(run.passed)} passed, {fmtInt(run.failed)} failed,{' '}
          {fmtInt(run.skipped)} skipped
          {run.repeated > 0 &&
            ` · ${fmtInt(run.repeated)} run more than once: pass^k ${passKText(run.passHatK)}; pass@k ${passKText(run.passAtK)}`}
        </p>
      )}
      <ul class="rows tests">
        <ShowMore
          items={testsInOrder(r.tests ?? [])}
          what="tests"
          render={(t) => (
            <li key={t.name} class={`row test-row ${t.state}`} data-testid="test">
              <div class="row-plain">
                <StatusBadge status={t.state} />
                <div class="row-main">
                  <span class="row-message">{t.name}</span>
                  <span class="row-where">
                    <span class="file">{fileLine(t.file, t.line)}</span> · {attemptsText(t)}
                    {t.passRate &&
                      ` · pass rate ${t.passRate.required} ${t.passRate.met ? 'met' : 'not met'}`}
                  </span>
                  {t.passHatK && (
                    <span class="row-where">
                      pass^k {passKText(t.passHatK)} · pass@k {passKText(t.passAtK)}
                    </span>
                  )}
                  {(t.errors ?? []).map((e, i) => (
                    <span key={i} class="test-error">
                      {e}
                    </span>
                  ))}
                  <TestFindings test={t} page={page} />
                  <VerdictList verdicts={r.verdicts.filter((v) => v.test === t.name)} />
                  <TestTraces test={t} index={index} />
                </div>
              </div>
            </li>
          )}
        />
      </ul>
    </section>
  );
}
