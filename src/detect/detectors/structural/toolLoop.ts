/**
 * TOOL_LOOP: the same tool called ≥ threshold times within any window of `window` consecutive tool
 * calls (only tool steps count; LLM and other steps in between do not widen the window).
 *
 * One loop, one signal: overlapping qualifying windows of one tool merge into one loop (a tool
 * called ten times in a row is one signal, not eight), and loops of different tools over
 * overlapping stretches of tool calls (A,B,A,B,A,B: a two-tool cycle) merge too. Loops that do not
 * overlap are separate signals. Identical arguments are not required by the rule but raise
 * confidence and are reported in the evidence. A loop in which every call had different recorded
 * arguments (three lookups of three reservations) is often legitimate iteration: it is reported in
 * the gray zone, so the tribunal or a reviewer decides instead of the gate (on τ-bench airline runs
 * most name-only loops are of this kind).
 */
import { z } from 'zod';
import { defineDetector, type SignalDraft } from '../../detector.js';
import { argsSummary, fmtInt, plural, stepSpan, toolCalls } from './shared.js';

interface Loop {
  tool: string;
  /** Positions in the tool-call sequence of this tool's calls in the loop. */
  positions: number[];
}

export const toolLoop = defineDetector({
  meta: {
    id: 'TOOL_LOOP',
    configKey: 'tool_loop',
    tier: 1,
    kind: 'structural',
    severity: 'high',
    failureMode: 'loop',
    description: 'Same tool called ≥3× in a 5-tool-call window',
    fix: 'cache tool results by name + arguments and cap calls per tool, so the agent stops re-asking the same thing',
    config: z.object({
      threshold: z
        .number()
        .int()
        .min(2)
        .default(3)
        .describe('Calls of one tool within the window that make a loop'),
      window: z
        .number()
        .int()
        .min(2)
        .default(5)
        .describe('Window size in consecutive tool calls (raised to threshold if smaller)'),
    }),
  },
  detect(trace, ctx) {
    const { threshold } = ctx.config;
    const window = Math.max(ctx.config.window, threshold);
    const calls = toolCalls(trace);
    if (calls.length < threshold) return [];

    // Positions (in the tool-call sequence) of each tool's calls.
    const byName = new Map<string, number[]>();
    for (let pos = 0; pos < calls.length; pos++) {
      const name = calls[pos]!.step.name;
      const list = byName.get(name);
      if (list) list.push(pos);
      else byName.set(name, [pos]);
    }

    // Per tool: group i = occurrences i … i+threshold−1 qualifies when they fit in one window;
    // overlapping qualifying groups merge into one loop.
    let loops: Loop[] | undefined;
    for (const [tool, positions] of byName) {
      if (positions.length < threshold) continue;
      let a = -1;
      let b = -1;
      for (let i = 0; i + threshold - 1 < positions.length; i++) {
        const j = i + threshold - 1;
        if (positions[j]! - positions[i]! + 1 > window) continue;
        if (a >= 0 && i <= b) b = j;
        else {
          if (a >= 0) (loops ??= []).push({ tool, positions: positions.slice(a, b + 1) });
          a = i;
          b = j;
        }
      }
      if (a >= 0) (loops ??= []).push({ tool, positions: positions.slice(a, b + 1) });
    }
    if (loops === undefined) return [];

    // Loops of different tools over overlapping stretches of tool calls are one loop.
    loops.sort((x, y) => x.positions[0]! - y.positions[0]!);
    const clusters: Loop[][] = [];
    let end = -1;
    for (const loop of loops) {
      const first = loop.positions[0]!;
      const last = loop.positions[loop.positions.length - 1]!;
      const cluster = clusters.length > 0 ? clusters[clusters.length - 1] : undefined;
      if (cluster && first <= end) {
        cluster.push(loop);
        end = Math.max(end, last);
      } else {
        clusters.push([loop]);
        end = last;
      }
    }

    return clusters.map((cluster): SignalDraft => {
      const perTool = cluster.map((loop) => {
        const args = loop.positions.map((p) => calls[p]!.step.args);
        const summary = argsSummary(args);
        return {
          tool: loop.tool,
          calls: loop.positions.length,
          identicalArgs: summary.identical,
          distinctArgs: summary.distinct,
          argsRecorded: summary.recorded,
        };
      });
      const positions =
        cluster.length === 1
          ? cluster[0]!.positions.slice()
          : cluster.flatMap((l) => l.positions).sort((x, y) => x - y);
      const steps = positions.map((p) => calls[p]!.no);
      const spanned = positions[positions.length - 1]! - positions[0]! + 1;
      const identicalArgs = perTool.every((t) => t.identicalArgs);
      const allDistinct = perTool.every((t) => t.distinctArgs === t.calls && t.argsRecorded);
      const over = perTool.some((t) => t.calls > threshold);
      return {
        severity: 'high',
        // Identical arguments each time: clearly stuck. More calls than the threshold: clearly a
        // loop. Exactly at the threshold with varying arguments (e.g. three different searches) is
        // the weakest case, still above the gray zone — unless no call repeated another's arguments.
        confidence: identicalArgs ? 0.94 : allDistinct ? 0.55 : over ? 0.88 : 0.82,
        steps,
        message:
          `${perTool.map((t) => `${t.tool} called ${fmtInt(t.calls)}×`).join(' and ')} in ${plural(spanned, 'tool call')} ` +
          `(${stepSpan(steps)})` +
          (identicalArgs
            ? ', each time with identical arguments'
            : allDistinct
              ? ', each time with different arguments (may be legitimate iteration)'
              : ''),
        evidence: {
          tool: perTool[0]!.tool,
          tools: perTool.map((t) => t.tool),
          calls: positions.length,
          toolCallsSpanned: spanned,
          threshold,
          window,
          identicalArgs,
          perTool,
        },
      };
    });
  },
});
