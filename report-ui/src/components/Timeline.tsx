/**
 * The waterfall: a time axis, then one row per step (number, kind, label, the findings on it) with
 * its bar. Parallel tool calls of one response are bracketed as a batch; failed steps are red and
 * show their error's first line; a highlighted finding's steps are shaded. In a multi-agent run
 * each row names its agent in that agent's lane colour; a failed run's root-cause step is marked,
 * with the step it led to, and findings that follow from it say so.
 */
import { oneLine } from '../model/format.js';
import type { Step } from '../model/page.js';
import type { Timeline as TimelineModel, TimelineRow } from '../model/timeline.js';

interface Props {
  timeline: TimelineModel;
  steps: readonly Step[];
  selected: number | undefined;
  onSelect: (n: number) => void;
}

const KIND_LABEL: Record<TimelineRow['kind'], string> = {
  llm: 'LLM',
  tool: 'tool',
  retrieval: 'retrieval',
  state: 'state',
  message: 'message',
};

const pct = (x: number) => `${(x * 100).toFixed(3)}%`;

/** Lane colours in the stylesheet; a ninth agent shares the first's. */
const LANES = 8;

function errorOf(step: Step | undefined): string | undefined {
  if (!step) return undefined;
  if (step.type === 'llm' || step.type === 'tool') return step.error;
  return undefined;
}

export function Timeline({ timeline, steps, selected, onSelect }: Props) {
  return (
    <div class="timeline" data-mode={timeline.mode} data-testid="timeline">
      <div class="tl-axis">
        <div class="tl-label-col">
          {timeline.mode === 'time' ? 'step' : 'step (no times recorded: in order)'}
        </div>
        <div class="tl-track">
          {timeline.ticks.map((t, i) => (
            <span key={i} class="tl-tick" style={{ left: pct(t.x) }}>
              {t.label}
            </span>
          ))}
        </div>
      </div>
      {timeline.rows.map((r) => {
        const error = r.failed ? errorOf(steps[r.n - 1]) : undefined;
        const classes = ['tl-row', `kind-${r.kind}`];
        if (r.failed) classes.push('failed');
        if (r.highlighted) classes.push('highlighted');
        if (r.n === selected) classes.push('selected');
        if (r.cause) classes.push(r.cause.role === 'root' ? 'root-cause' : 'cause-effect');
        if (r.batch)
          classes.push(
            'in-batch',
            r.batch.position === 0
              ? 'batch-first'
              : r.batch.position === r.batch.size - 1
                ? 'batch-last'
                : 'batch-mid',
          );
        return (
          <button
            type="button"
            key={r.n}
            class={classes.join(' ')}
            onClick={() => onSelect(r.n)}
            data-step={r.n}
            data-agent={r.agent?.name}
            aria-pressed={r.n === selected}
          >
            <span class="tl-label-col" style={{ paddingLeft: `${8 + r.indent * 18}px` }}>
              <span class="tl-n">{r.n}</span>
              {r.agent && (
                <span class={`agent-tag lane-${r.agent.lane % LANES}`} data-testid="agent-lane">
                  {r.agent.name}
                </span>
              )}
              <span class={`kind-tag kind-${r.kind}`}>{KIND_LABEL[r.kind]}</span>
              <span class="tl-name">{r.label}</span>
              {r.failed && <span class="failed-tag">failed</span>}
              {r.cause && (
                <span
                  class={`cause-tag ${r.cause.role}`}
                  title={r.cause.text}
                  data-testid={`cause-${r.cause.role}`}
                >
                  {r.cause.role === 'root' ? 'root cause' : 'effect'}
                </span>
              )}
              {r.detail !== '' && <span class="tl-detail">{r.detail}</span>}
              {r.batch && r.batch.position === 0 && (
                <span class="batch-tag" title="tool calls issued together in one model response">
                  parallel ×{r.batch.size} · from step {r.batch.issuedBy}
                </span>
              )}
              {(r.markers.length > 0 || error !== undefined || r.followsFrom !== undefined) && (
                <span class="tl-sub">
                  {r.markers.map((m, i) => (
                    <span key={i} class={`tl-marker sev-${m.severity}`} title={`${m.severity}: ${m.message}`}>
                      {m.detector}
                    </span>
                  ))}
                  {error !== undefined && <span class="tl-error">{oneLine(error, 140)}</span>}
                  {r.followsFrom !== undefined && (
                    <span class="follows-tag" data-testid="follows-from">
                      follows from step {r.followsFrom}
                    </span>
                  )}
                </span>
              )}
            </span>
            <span class="tl-track">
              <span class="tl-bar" style={{ left: pct(r.left), width: pct(r.width) }} />
            </span>
          </button>
        );
      })}
    </div>
  );
}
