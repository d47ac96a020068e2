/** A confirmed high TOOL_LOOP signal on step 1 of trace `t`, with the given fields instead. */
import type { Signal } from '../../src/detect/signal.js';

export const signal = (fields: Partial<Signal> = {}): Signal => ({
  detector: 'TOOL_LOOP',
  traceId: 't',
  severity: 'high',
  confidence: 0.9,
  tier: 1,
  shadow: false,
  steps: [1],
  message: 'm',
  ...fields,
});
