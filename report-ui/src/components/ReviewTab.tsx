/** What no automatic tier could decide: each case with its reason, confidence and trace. */
import type { ReviewItem } from '../model/page.js';
import type { TraceIndex } from '../model/traces.js';
import { ShowMore } from './ShowMore.js';
import { StatusBadge } from './SeverityBadge.js';
import { TraceLink } from './TraceLink.js';

export function ReviewTab({ items, index }: { items: readonly ReviewItem[]; index: TraceIndex }) {
  if (items.length === 0) return <p class="empty">Nothing was left for review.</p>;
  return (
    <section aria-label="Review">
      <ul class="rows">
        <ShowMore
          items={items.map((item, i) => ({ item, i }))}
          what="cases"
          render={({ item, i }) => {
            const entry = index.find(item.traceId, item.file);
            return (
              <li key={i} class="row" data-testid="review-item">
                <TraceLink traceId={item.traceId} file={item.file ?? entry?.file} detector={item.detector}>
                  <span class="row-badges">
                    <StatusBadge status={item.shadow ? 'shadow' : 'review'} />
                  </span>
                  <span class="row-main">
                    <span class="row-message">
                      {item.detector !== undefined && <strong>{item.detector} </strong>}
                      {item.reason}
                    </span>
                    <span class="row-where">
                      <span class="trace-id">{item.traceId}</span>
                      {item.file !== undefined && <span class="file"> · {item.file}</span>}
                    </span>
                  </span>
                  <span class="row-side">
                    {item.confidence !== undefined && (
                      <span class="steps">confidence {item.confidence.toFixed(2)}</span>
                    )}
                  </span>
                </TraceLink>
              </li>
            );
          }}
        />
      </ul>
    </section>
  );
}
