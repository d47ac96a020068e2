/** A diff in numbers: waste, cost, findings and judge spend, each base → head. */
import { fmtInt } from '../model/format.js';
import type { DiffPage } from '../model/page.js';

export function DiffTotals({ page }: { page: DiffPage }) {
  const { diff, lines } = page;
  const wasteNoise = diff.noise.wastePerTrace.label;
  return (
    <section class="totals diff" aria-label="Totals">
      <div class="card">
        <div class="card-label">Waste</div>
        <div class="card-value small">{lines.waste}</div>
        <div class="card-note">per trace: {wasteNoise}</div>
      </div>
      <div class="card">
        <div class="card-label">Cost</div>
        <div class="card-value small">{lines.cost}</div>
        <div class="card-note">per trace: {diff.noise.costPerTrace.label}</div>
      </div>
      <div class="card">
        <div class="card-label">Findings</div>
        <div class="card-value small">{lines.findings}</div>
        <div class="card-note">{fmtInt(diff.review.length)} for review in head</div>
      </div>
      <div class="card">
        <div class="card-label">Judge spend</div>
        <div class="card-value small">{lines.judges}</div>
      </div>
    </section>
  );
}
