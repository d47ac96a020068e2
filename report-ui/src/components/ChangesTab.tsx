/**
 * Every quantity the diff compared, with its test, interval and what the gate made of it; waste
 * and findings per detector.
 */
import { fmtInt, formatUsd } from '../model/format.js';
import type { DiffPage } from '../model/page.js';
import { NoteList } from './NoteList.js';

const TONE_CLASS: Record<string, string> = {
  failed: 'noise-up',
  worse: 'noise-worse',
  better: 'noise-down',
  neutral: 'noise-within',
};

export function ChangesTab({ page }: { page: DiffPage }) {
  const { diff } = page;
  const v = diff.verdicts;
  const rate = (x: number | null) => (x === null ? '–' : x.toFixed(2));
  return (
    <section aria-label="Changes" class="run">
      <h3>Quantities</h3>
      <p class="muted">{page.lines.method}</p>
      <table class="table" data-testid="quantities">
        <thead>
          <tr>
            <th>Quantity</th>
            <th class="num">Base</th>
            <th class="num">Head</th>
            <th class="num">Change</th>
            <th class="num">95% interval</th>
            <th>Test</th>
            <th class="num">p</th>
            <th>Verdict</th>
          </tr>
        </thead>
        <tbody>
          {page.quantities.map((q) => (
            <tr key={q.id} data-quantity={q.id}>
              <td>{q.name}</td>
              <td class="num">{q.base}</td>
              <td class="num">{q.head}</td>
              <td class="num">{q.change}</td>
              <td class="num">{q.interval}</td>
              <td>{q.test}</td>
              <td class="num">{q.p}</td>
              <td>
                <span class={`noise ${TONE_CLASS[q.tone] ?? 'noise-within'}`}>{q.verdict}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {page.lines.detectable !== undefined && <p class="muted">{page.lines.detectable}</p>}
      {diff.detectors.length > 0 && (
        <>
          <h3>By detector</h3>
          <table class="table">
            <thead>
              <tr>
                <th>Detector</th>
                <th class="num">Findings</th>
                <th class="num">Waste</th>
              </tr>
            </thead>
            <tbody>
              {diff.detectors.map((d) => (
                <tr key={d.detector}>
                  <td class="mono">{d.detector}</td>
                  <td class="num">
                    {fmtInt(d.findings.base)} → {fmtInt(d.findings.head)}
                  </td>
                  <td class="num">
                    {formatUsd(d.wasteUsd.base)} → {formatUsd(d.wasteUsd.head)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {(v.base.total > 0 || v.head.total > 0) && (
        <p>
          Judges' pass rate {rate(v.base.rate)} → {rate(v.head.rate)} ({v.base.passed}/{v.base.total} →{' '}
          {v.head.passed}/{v.head.total})
        </p>
      )}
      <NoteList notes={diff.notes} />
    </section>
  );
}
