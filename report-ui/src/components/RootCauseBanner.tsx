/**
 * A failed run's root cause above its timeline: the step (a button that opens it), its agent, what
 * happened, the rule and its confidence, who chose it; then the step it led to and the findings
 * that follow from it, each a button to its step. A run with no credible cause says why.
 */
import type { RootCause } from '../model/timeline.js';

interface Props {
  cause: RootCause;
  onSelect: (n: number) => void;
}

export function RootCauseBanner({ cause, onSelect }: Props) {
  if (!('step' in cause))
    return (
      <p class="root-cause-banner unattributed" data-testid="root-cause">
        <strong>No root cause named:</strong> {cause.unattributed}
      </p>
    );
  return (
    <div class="root-cause-banner" data-testid="root-cause" data-step={cause.step}>
      <p>
        <strong>Root cause:</strong>{' '}
        <button
          type="button"
          class="step-link"
          onClick={() => onSelect(cause.step)}
          data-testid="root-cause-step"
        >
          step {cause.step}
        </button>
        , <span class="agent-name">{cause.agent}</span> — {cause.evidence}{' '}
        <span class="muted">
          ({cause.rule}, {cause.confidence.toFixed(2)}
          {cause.decidedBy === 'tribunal' ? '; chosen by the judges' : ''})
        </span>
      </p>
      {cause.effect && (
        <p>
          It led to{' '}
          <button type="button" class="step-link" onClick={() => onSelect(cause.effect!.step)}>
            step {cause.effect.step}
          </button>
          : {cause.effect.evidence}
        </p>
      )}
      {cause.symptoms.length > 0 && (
        <p data-testid="symptoms">
          Follows from it:{' '}
          {cause.symptoms.map((s, i) => (
            <span key={i}>
              {i > 0 ? ', ' : ''}
              <button type="button" class="step-link" onClick={() => onSelect(s.step)}>
                {s.detector} at step {s.step}
              </button>
            </span>
          ))}
        </p>
      )}
    </div>
  );
}
