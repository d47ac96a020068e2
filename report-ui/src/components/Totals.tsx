/** The run in numbers: traces, cost, waste, findings by severity, review and input errors. */
import { findingCount } from '../model/findings.js';
import { fmtInt } from '../model/format.js';
import { SEVERITY_ORDER, type ReportPage, type Severity } from '../model/page.js';
import { SeverityBadge } from './SeverityBadge.js';

export function Totals({ page }: { page: ReportPage }) {
  const r = page.report;
  const counts: Record<Severity, number> = { critical: 0, high: 0, medium: 0, low: 0 };
  for (const s of r.signals) if (s.status === 'finding') counts[s.severity]++;
  // The same count as the Findings tab's.
  const findings = findingCount(r.signals);
  return (
    <section class="totals" aria-label="Totals">
      <Card
        label="Traces"
        value={fmtInt(r.inputs.traces)}
        note={`${fmtInt(r.totals.llmCalls)} LLM calls · ${fmtInt(r.totals.toolCalls)} tool calls`}
      />
      <Card
        label="Cost"
        value={page.lines.cost}
        note={`${fmtInt(r.totals.inputTokens + r.totals.outputTokens)} tokens`}
      />
      <Card label="Waste" value={page.lines.waste} note={`${fmtInt(r.waste.totalTokens)} tokens`} />
      <div class="card">
        <div class="card-label">Findings</div>
        <div class="card-value">{fmtInt(findings)}</div>
        <div class="card-note sev-row">
          {SEVERITY_ORDER.filter((s) => counts[s] > 0).map((s) => (
            <span key={s} class="sev-count">
              <SeverityBadge severity={s} /> {fmtInt(counts[s])}
            </span>
          ))}
          {findings === 0 && 'none'}
        </div>
      </div>
      <Card
        label="For review"
        value={fmtInt(r.review.length)}
        note={r.judgesNotRun ? 'judges never ran' : 'gray zone after every tier'}
      />
      {r.inputs.errorCount > 0 && (
        <Card label="Input errors" value={fmtInt(r.inputs.errorCount)} note="see Run" alert />
      )}
    </section>
  );
}

export function Card({
  label,
  value,
  note,
  alert,
}: {
  label: string;
  value: string;
  note?: string;
  alert?: boolean;
}) {
  return (
    <div class={alert ? 'card alert' : 'card'}>
      <div class="card-label">{label}</div>
      <div class="card-value">{value}</div>
      {note !== undefined && <div class="card-note">{note}</div>}
    </div>
  );
}
