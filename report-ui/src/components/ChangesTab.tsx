/** What changed per trace and whether it is real or noise, and waste and findings per detector. */
import { fmtInt, formatUsd } from '../model/format.js';
import type { DiffPage } from '../model/page.js';
import { NoteList } from './NoteList.js';

const LABEL_CLASS: Record<string, string> = {
  up: 'noise-up',
  down: 'noise-down',
  'within noise': 'noise-within',
};

export function ChangesTab({ page }: { page: DiffPage }) {
  const { diff } = page;
  const v = diff.verdicts;
  const rate = (x: number | null) => (x === null ? '–' : x.toFixed(2));
  return (
    <section aria-label="Changes" class="run">
      <h3>Per trace</h3>
      <p class="muted">{page.lines.method}</p>
      <table class="table" data-testid="noise">
        <thead>
          <tr>
            <th>Measure</th>
            <th class="num">Base</th>
            <th class="num">Head</th>
            <th class="num">Change</th>
            <th class="num">95% interval</th>
            <th>Verdict</th>
          </tr>
        </thead>
        <tbody>
          {page.noise.map((n) => (
            <tr key={n.name}>
              <td>{n.name}</td>
              <td class="num">{n.base}</td>
              <td class="num">{n.head}</td>
              <td class="num">{n.change}</td>
              <td class="num">{n.interval}</td>
              <td>
                <span class={`noise ${LABEL_CLASS[n.label] ?? 'noise-few'}`}>{n.label}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
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
          {v.head.passed}/{v.head.total}){v.noise ? `, ${v.noise.label}` : ''}
        </p>
      )}
      <NoteList notes={diff.notes} />
    </section>
  );
}
