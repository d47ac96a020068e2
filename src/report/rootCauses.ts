/**
 * Failure attribution as the text report, the markdown report and the PR comment show it: one line
 * per failed run ("step 12, WebSurfer — the search it ran returned nothing; 3 later findings follow
 * from it"), and the tally ("WebSurfer caused 9 of 14 failures, Assistant 3; 2 unattributed").
 * Plain strings from the report: each renderer escapes them its own way. Pure.
 */
import type { Attributed, RootCause } from '../attribute/rootCause.js';
import { fmtInt, plural } from '../util/thousands.js';
import type { AttributionTally, Report } from './schema.js';

/** Agents named in the tally line; the rest are counted. */
const MAX_TALLY_AGENTS = 4;

export interface FailedRun {
  traceId: string;
  file: string;
  test?: string;
  rootCause: RootCause;
}

/** The failed runs of a report, attributed ones first (in report order), then the unattributed. */
export function failedRuns(report: Pick<Report, 'traces'>): FailedRun[] {
  const runs = report.traces.flatMap((t) =>
    t.rootCause
      ? [
          {
            traceId: t.id,
            file: t.file,
            ...(t.test !== undefined ? { test: t.test } : {}),
            rootCause: t.rootCause,
          },
        ]
      : [],
  );
  return [...runs.filter((r) => 'step' in r.rootCause), ...runs.filter((r) => !('step' in r.rootCause))];
}

/** "step 12, WebSurfer — <evidence>; → step 14: <effect>; 3 later findings follow from it" */
export function rootCauseText(cause: Attributed): string {
  const symptoms = cause.symptoms.length;
  return (
    `step ${cause.step}, ${cause.agent} — ${cause.evidence}` +
    (cause.effect ? `; step ${cause.effect.step}: ${cause.effect.evidence}` : '') +
    (symptoms > 0 ? `; ${plural(symptoms, 'later finding')} follow${symptoms === 1 ? 's' : ''} from it` : '')
  );
}

/** "BUSIEST_AGENT_PRIOR, 0.30; chosen by the judges": how the cause was chosen and how sure it is. */
export function rootCauseBasis(cause: Attributed): string {
  return `${cause.rule}, ${cause.confidence.toFixed(2)}${cause.decidedBy === 'tribunal' ? '; chosen by the judges' : ''}`;
}

/** "WebSurfer caused 9 of 14 failures, Assistant 3, 2 more agents; 2 unattributed" */
export function tallyText(tally: AttributionTally): string {
  const [first, ...rest] = tally.agents;
  const unattributed = tally.failedRuns - tally.attributed;
  const parts: string[] = [];
  if (first) {
    const shown = rest.slice(0, MAX_TALLY_AGENTS - 1);
    const more = rest.length - shown.length;
    parts.push(
      [
        `${first.agent} caused ${fmtInt(first.causes)} of ${plural(tally.failedRuns, 'failure')}`,
        ...shown.map((a) => `${a.agent} ${fmtInt(a.causes)}`),
        ...(more > 0 ? [`${plural(more, 'more agent')}`] : []),
      ].join(', '),
    );
  } else parts.push(`${plural(tally.failedRuns, 'failure')}, none attributed`);
  if (first && unattributed > 0) parts.push(`${fmtInt(unattributed)} unattributed`);
  return parts.join('; ');
}
