/**
 * tracejury's own format: JSONL of Trace objects, or a JSON array of them. An `outcome` without a
 * source, a bare boolean `outcome` or a top-level `success` boolean become `outcome` (outcome.ts).
 */
import { isRecord, type Importer } from '../importer.js';
import { normaliseNativeOutcome } from '../outcome.js';
import type { TraceInput } from '../schema.js';

function looksLikeTrace(value: unknown): boolean {
  return isRecord(value) && typeof value.id === 'string' && Array.isArray(value.steps);
}

export const nativeImporter: Importer = {
  format: 'native',
  sniff(value) {
    return Array.isArray(value) ? value.length > 0 && looksLikeTrace(value[0]) : looksLikeTrace(value);
  },
  createReader(sink) {
    return {
      push(value, line) {
        // Validation against TraceSchema happens in the loader, for every format alike.
        if (Array.isArray(value)) {
          return value.flatMap((v, i) => {
            if (!isRecord(v)) {
              sink.problem({ line, field: `[${i}]`, message: 'expected a trace object' });
              return [];
            }
            return [{ trace: normaliseNativeOutcome(v) as TraceInput, line, isPushedValue: true }];
          });
        }
        if (!isRecord(value)) {
          sink.problem({ line, message: 'expected a trace object' });
          return [];
        }
        return [{ trace: normaliseNativeOutcome(value) as TraceInput, line, isPushedValue: true }];
      },
      end: () => [],
    };
  },
};
