/**
 * The judges' verdicts on a test or a trace: each one's outcome, consensus score and confidence
 * against the threshold, judges passed, disagreement, cost, latency and whether the cassette
 * decided it, then each judge's model, score, confidence and reasoning (or error). The words are
 * src/report/verdictText.ts's, the same the text report prints. Reasoning is a judge's text about
 * hostile input: it is rendered as text, never markup.
 */
import type { ReportVerdict } from '../model/page.js';
import { judgeFacts, judgeSaid, verdictFacts, verdictOutcome } from '../../../src/report/verdictText.js';
import { TextBlock } from './TextBlock.js';

export function VerdictList({ verdicts }: { verdicts: readonly ReportVerdict[] }) {
  if (verdicts.length === 0) return null;
  return (
    <ul class="verdicts" aria-label="The judges' verdicts">
      {verdicts.map((v, i) => {
        const outcome = verdictOutcome(v);
        return (
          <li key={i} class={`verdict verdict-${outcome}`} data-testid="verdict" data-outcome={outcome}>
            <div class="verdict-head">
              <span class={`badge verdict-badge verdict-${outcome}`}>judges: {outcome}</span>{' '}
              <span class="verdict-facts" data-testid="verdict-facts">
                {verdictFacts(v)}
              </span>
            </div>
            {v.judges.length > 0 && (
              <ul class="judges">
                {v.judges.map((j, k) => (
                  <li key={k} class="judge" data-testid="judge">
                    <span class="judge-facts mono">{judgeFacts(j)}</span>
                    {judgeSaid(j) !== '' && <TextBlock text={judgeSaid(j)} />}
                  </li>
                ))}
              </ul>
            )}
          </li>
        );
      })}
    </ul>
  );
}
