/** One detector's signals under what it looks for and how to fix it. */
import type { DetectorInfo } from '../../../src/report/html/pageData.js';
import type { DetectorGroup } from '../model/findings.js';
import { formatUsd, stepsText } from '../model/format.js';
import { FindingWhere } from './FindingWhere.js';
import { SeverityBadge, SignalBadges } from './SeverityBadge.js';
import { ShowMore } from './ShowMore.js';
import { TraceLink } from './TraceLink.js';

export function FindingGroup({ group, info }: { group: DetectorGroup; info: DetectorInfo | undefined }) {
  const findings = group.rows.filter((r) => r.status === 'finding').length;
  return (
    <article class="group" data-detector={group.detector}>
      <header class="group-head">
        <SeverityBadge severity={group.severity} />
        <h3 class="detector-id">{group.detector}</h3>
        {info && <span class="failure-mode">{info.failureMode}</span>}
        <span class="group-count">
          {findings} finding{findings === 1 ? '' : 's'}
          {group.rows.length > findings ? ` · ${group.rows.length - findings} other` : ''}
          {group.wasteUsd > 0 ? ` · waste ${formatUsd(group.wasteUsd)}` : ''}
        </span>
      </header>
      {info && (
        <div class="group-info">
          <p class="description">{info.description}</p>
          <p class="fix">
            <strong>Fix:</strong> {info.fix}
          </p>
        </div>
      )}
      <ul class="rows">
        <ShowMore
          items={group.rows}
          what="signals"
          step={50}
          render={(r) => (
            <li key={r.index} class={`row status-row-${r.status}`} data-testid="finding">
              <TraceLink traceId={r.traceId} file={r.file} detector={r.detector} step={r.steps[0]}>
                <span class="row-badges">
                  <SignalBadges severity={r.severity} status={r.status} />
                </span>
                <span class="row-main">
                  <span class="row-message">{r.message}</span>
                  <FindingWhere
                    traceId={r.traceId}
                    file={r.file}
                    line={r.line}
                    test={r.test}
                    agent={r.agent}
                  />
                </span>
                <span class="row-side">
                  {r.steps.length > 0 && <span class="steps">{stepsText(r.steps)}</span>}
                  {r.wasteUsd !== undefined && r.wasteUsd > 0 && (
                    <span class="waste">{formatUsd(r.wasteUsd)}</span>
                  )}
                  {!r.embedded && <span class="no-timeline">no timeline</span>}
                </span>
              </TraceLink>
            </li>
          )}
        />
      </ul>
    </article>
  );
}
