/** A trace as the stages after escalation carry it: what the report needs, never the trace itself. */
import type { RootCause } from '../../attribute/rootCause.js';
import type { Signal } from '../../detect/signal.js';
import type { Verdict } from '../../judge/verdict.js';
import type { TraceResult } from '../protocol.js';

/** A trace's results once escalation has decided its gray-zone signals. */
export interface Decided {
  /** The trace's results, without the trace sent for escalation, the signals before it or its order. */
  result: Omit<TraceResult, 'trace' | 'signals' | 'order' | 'baselineRun'>;
  /** Its final signals. */
  signals: Signal[];
  /** Signals a tier dismissed as no failure (for the report's decisions). */
  dismissed: readonly Signal[];
  verdicts: readonly Verdict[];
  /** A failed run's root cause, once the attribution stage has chosen it. */
  rootCause?: RootCause;
}
