/** A step opened: its facts (model, tokens, cost, status, timing) and its texts, and the findings on it. */
import type { Step, StepMarker } from '../model/page.js';
import { stepDetail } from '../model/stepDetail.js';
import { SeverityBadge } from './SeverityBadge.js';
import { TextBlock } from './TextBlock.js';

interface Props {
  step: Step;
  n: number;
  markers: readonly StepMarker[];
  onClose: () => void;
}

export function StepPanel({ step, n, markers, onClose }: Props) {
  const detail = stepDetail(step);
  return (
    <aside class="step-panel" aria-label={`Step ${n}`} data-testid="step-panel">
      <header class="step-head">
        <h3>
          Step {n} <span class={`kind-tag kind-${step.type}`}>{step.type === 'llm' ? 'LLM' : step.type}</span>
        </h3>
        <button type="button" class="link-button" onClick={onClose}>
          close
        </button>
      </header>
      {markers.map((m, i) => (
        <p key={i} class="step-finding">
          <SeverityBadge severity={m.severity} /> <strong>{m.detector}</strong> {m.message}
        </p>
      ))}
      <dl class="facts">
        {detail.facts.map((f) => (
          <div key={f.label} class="fact">
            <dt>{f.label}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
      {detail.sections.map((s, i) => (
        <section key={`${n}-${i}`} class={s.error ? 'step-section error' : 'step-section'}>
          <h4>{s.title}</h4>
          {s.text !== undefined && <TextBlock text={s.text} />}
          {s.messages?.map((m, j) => (
            <div key={j} class={`message role-${m.role.split(' ')[0]}`}>
              <div class="message-role">{m.role}</div>
              {m.text !== '' && <TextBlock text={m.text} />}
              {m.toolCalls.map((c, k) => (
                <div key={k} class="tool-call">
                  <span class="mono">→ {c.name}</span>
                  {c.args !== '' && <TextBlock text={c.args} />}
                </div>
              ))}
            </div>
          ))}
        </section>
      ))}
    </aside>
  );
}
