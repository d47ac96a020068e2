/**
 * New, resolved or persisting findings, worst first. New and persisting ones are head's and open
 * head's timeline; resolved ones are base's, whose traces the page does not hold.
 */
import { formatUsd, plural, stepsText } from '../model/format.js';
import type { DiffPage, DiffSignal } from '../model/page.js';
import type { TraceIndex } from '../model/traces.js';
import { FindingWhere } from './FindingWhere.js';
import { SeverityBadge } from './SeverityBadge.js';
import { ShowMore } from './ShowMore.js';
import { TraceLink } from './TraceLink.js';

interface Props {
  signals: readonly DiffSignal[];
  kind: 'new' | 'resolved' | 'persisting';
  page: DiffPage;
  index: TraceIndex;
  /** How many there are, when the page lists fewer (persisting without both reports). */
  total?: number;
}

const EMPTY = {
  new: 'No finding is new in head.',
  resolved: 'No finding of base is gone from head.',
  persisting: 'No finding is in both.',
};

export function DiffFindingList({ signals, kind, page, index, total }: Props) {
  if (signals.length === 0)
    return (
      <p class="empty">
        {total
          ? `${plural(total, 'finding')} ${total === 1 ? 'persists' : 'persist'}; this page was written without the two reports, so it does not list them.`
          : EMPTY[kind]}
      </p>
    );
  return (
    <section aria-label={`${kind} findings`}>
      <ul class="rows">
        <ShowMore
          items={signals.map((s, i) => ({ s, i }))}
          what="findings"
          render={({ s, i }) => {
            const entry = kind === 'resolved' ? undefined : index.find(s.traceId, s.file);
            const info = page.detectors[s.detector];
            const body = (
              <>
                <span class="row-badges">
                  <SeverityBadge severity={s.severity} />
                </span>
                <span class="row-main">
                  <span class="row-message">
                    <strong class="detector-id">{s.detector}</strong> {s.message}
                  </span>
                  <FindingWhere traceId={s.traceId} file={s.file} line={s.line} test={s.test} />
                  {info && kind === 'new' && <span class="row-fix">Fix: {info.fix}</span>}
                </span>
                <span class="row-side">
                  {s.steps.length > 0 && <span class="steps">{stepsText(s.steps)}</span>}
                  {s.wasteUsd !== undefined && s.wasteUsd > 0 && (
                    <span class="waste">{formatUsd(s.wasteUsd)}</span>
                  )}
                  {kind !== 'resolved' && !entry?.embedded && <span class="no-timeline">no timeline</span>}
                </span>
              </>
            );
            return (
              <li key={i} class="row" data-testid={`${kind}-finding`}>
                {kind === 'resolved' ? (
                  <div class="row-plain">{body}</div>
                ) : (
                  <TraceLink traceId={s.traceId} file={s.file} detector={s.detector} step={s.steps[0]}>
                    {body}
                  </TraceLink>
                )}
              </li>
            );
          }}
        />
      </ul>
    </section>
  );
}
