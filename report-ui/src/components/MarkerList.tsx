/** The findings on one trace; the one the address names is highlighted, each opens its first step. */
import { stepsText } from '../model/format.js';
import type { StepMarker } from '../model/page.js';
import { SignalBadges } from './SeverityBadge.js';
import { TraceLink } from './TraceLink.js';

interface Props {
  markers: readonly StepMarker[];
  highlight: string | undefined;
  traceId: string;
  file: string | undefined;
  /** How many of the judges' verdicts are on the trace: no finding is not "nothing was said of it". */
  verdicts?: number;
}

export function MarkerList({ markers, highlight, traceId, file, verdicts = 0 }: Props) {
  if (markers.length === 0)
    return (
      <p class="quiet" data-testid="no-findings">
        {verdicts > 0
          ? `No detector fired on this trace; the judges gave ${verdicts === 1 ? 'a verdict' : `${verdicts} verdicts`} (below).`
          : 'No detector fired on this trace.'}
      </p>
    );
  return (
    <ul class="markers" aria-label="Findings on this trace">
      {markers.map((m, i) => (
        <li
          key={i}
          class={m.detector === highlight ? 'marker highlighted' : 'marker'}
          data-testid="trace-finding"
        >
          <TraceLink traceId={traceId} file={file} detector={m.detector} step={m.steps[0]}>
            <SignalBadges severity={m.severity} status={m.status} />
            <span class="detector-id">{m.detector}</span>
            <span class="marker-message">{m.message}</span>
            {m.steps.length > 0 && <span class="steps">{stepsText(m.steps)}</span>}
          </TraceLink>
        </li>
      ))}
    </ul>
  );
}
