/** The verdict first: the gate (or the regression gate) and the rules that decided it. */
import { plural } from '../model/format.js';
import type { Page } from '../model/page.js';

export function Header({ page }: { page: Page }) {
  const gate = page.kind === 'report' ? page.report.gate : page.diff.gate;
  const what = page.kind === 'report' ? 'Gate' : 'Regression gate';
  const sub =
    page.kind === 'report'
      ? `${plural(page.report.inputs.traces, 'trace')} from ${plural(page.report.inputs.files, 'file')}`
      : `base ${plural(page.diff.base.traces, 'trace')} → head ${plural(page.diff.head.traces, 'trace')}`;
  return (
    <header class="header">
      <div class="brand">
        <span class="logo">tracejury</span>
        <span class="kind">{page.kind === 'report' ? 'report' : 'diff'}</span>
        <span class="sub">{sub}</span>
      </div>
      <div class={gate.passed ? 'gate passed' : 'gate failed'} data-testid="gate">
        <span class="gate-word">
          {what} {gate.passed ? 'passed' : 'FAILED'}
        </span>
        {page.kind === 'report' && <span class="gate-rule">{page.lines.gateThreshold}</span>}
        {page.kind === 'diff' && (
          <span class="gate-rule" data-testid="verdict">
            {page.lines.verdict}
          </span>
        )}
        {gate.reasons.length > 0 && (
          <ul class="gate-reasons">
            {gate.reasons.map((r, i) => (
              <li key={i}>{r}</li>
            ))}
          </ul>
        )}
      </div>
    </header>
  );
}
