/**
 * Where the recording names the actions the task expected (τ-bench's `info.task.actions`, a test's
 * expected trajectory in `metadata.expectedActions`), the first call that departs from them. Only
 * calls that change something are compared (not `attribution.readTools`): reading more or in
 * another order rarely fails a task, a wrong booking always does. A departure is a write call the
 * expectation does not hold, or holds with other arguments; a run that departs nowhere but never
 * makes an expected write is weaker evidence, pinned on its last turn.
 */
import { isRecord } from '../../trace/importer.js';
import type { Trace } from '../../trace/schema.js';
import type { AttributionRule, CandidateDraft } from '../rule.js';

export interface ExpectedAction {
  name: string;
  /** Absent: any arguments match. */
  args?: unknown;
}

function actionsFrom(list: unknown): ExpectedAction[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const out: ExpectedAction[] = [];
  for (const a of list) {
    if (!isRecord(a) || typeof a.name !== 'string') continue;
    const args = a.args ?? a.arguments ?? a.kwargs;
    out.push({ name: a.name, ...(args !== undefined ? { args } : {}) });
  }
  return out;
}

/** The expected actions a recording names, when it names any. */
export function expectedActionsOf(trace: Trace): ExpectedAction[] | undefined {
  const m = trace.metadata;
  if (!m) return undefined;
  const info = isRecord(m.info) ? m.info : undefined;
  const task = info && isRecord(info.task) ? info.task : undefined;
  return (
    actionsFrom(m.expectedActions) ??
    actionsFrom(m.expected_actions) ??
    actionsFrom(m.expectedTrajectory) ??
    actionsFrom(task?.actions)
  );
}

/** A value with its object keys sorted, for equality that ignores key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    isRecord(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  );
}

/** The first argument whose value differs (or that one side lacks), to say how a call departs. */
function firstDifference(expected: unknown, actual: unknown): string {
  if (!isRecord(expected) || !isRecord(actual)) return 'its arguments';
  for (const key of [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort()) {
    if (canonical(expected[key]) !== canonical(actual[key])) return key;
  }
  return 'its arguments';
}

export const expectedActions: AttributionRule = {
  meta: {
    id: 'DEPARTS_FROM_EXPECTED',
    description:
      'Where the recording names the expected actions: the first call that changes something and departs from them',
    messages: {
      unexpected: 'it called {{name}}, which the task did not expect',
      wrongArgs: 'it called {{name}} with another {{argument}} than the task expected',
      missing: 'the run ended without the expected {{name}} call',
    },
  },
  find(ctx) {
    const expected = expectedActionsOf(ctx.trace);
    if (!expected) return [];
    const left = expected.filter((a) => !ctx.isReadTool(a.name));
    for (const [i, s] of ctx.trace.steps.entries()) {
      if (s.type !== 'tool' || ctx.isReadTool(s.name)) continue;
      const at = left.findIndex(
        (a) => a.name === s.name && (a.args === undefined || canonical(a.args) === canonical(s.args ?? {})),
      );
      if (at >= 0) {
        left.splice(at, 1);
        continue;
      }
      const sameName = left.find((a) => a.name === s.name);
      const departure: CandidateDraft = sameName
        ? {
            step: i + 1,
            messageId: 'wrongArgs',
            data: { name: s.name, argument: firstDifference(sameName.args, s.args) },
            confidence: 0.8,
            strength: 'evidence',
          }
        : {
            step: i + 1,
            messageId: 'unexpected',
            data: { name: s.name },
            confidence: 0.8,
            strength: 'evidence',
          };
      return [departure];
    }
    if (left.length === 0) return [];
    // Nothing departed, but an expected write never came: the agent's last turn ended it without.
    const last = ctx.trace.steps.findLastIndex(
      (s) => s.type === 'llm' || (s.type === 'message' && s.agent !== undefined),
    );
    if (last < 0) return [];
    return [
      {
        step: last + 1,
        messageId: 'missing',
        data: { name: left[0]!.name },
        confidence: 0.45,
        strength: 'weak',
      },
    ];
  },
};
