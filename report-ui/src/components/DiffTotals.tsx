/** A diff in numbers: success, waste, cost, findings and judge spend, each base → head. */
import { fmtInt } from '../model/format.js';
import type { DiffPage } from '../model/page.js';

export function DiffTotals({ page }: { page: DiffPage }) {
  const { diff, lines } = page;
  const word = (id: string) => {
    const q = page.quantities.find((x) => x.id === id);
    return q ? q.verdict : undefined;
  };
  return (
    <section class="totals diff" aria-label="Totals">
      {lines.success !== undefined && (
        <div class="card">
          <div class="card-label">Success</div>
          <div class="card-value small">{lines.success}</div>
          {word('success') !== undefined && <div class="card-note">{word('success')}</div>}
        </div>
      )}
      <div class="card">
        <div class="card-label">Waste</div>
        <div class="card-value small">{lines.waste}</div>
      </div>
      <div class="card">
        <div class="card-label">Cost</div>
        <div class="card-value small">{lines.cost}</div>
      </div>
      <div class="card">
        <div class="card-label">Findings</div>
        <div class="card-value small">{lines.findings}</div>
        <div class="card-note">
          {word('findings') !== undefined ? `share of runs: ${word('findings')} · ` : ''}
          {fmtInt(diff.review.length)} for review in head
        </div>
      </div>
      <div class="card">
        <div class="card-label">Judge spend</div>
        <div class="card-value small">{lines.judges}</div>
      </div>
    </section>
  );
}
