/**
 * TOOL_LOOP: the agent asks again what it just asked. A loop is judged by what is repeated, not by
 * the tool's name (repetition.ts): a single-tool agent calls `bash` every step, and three lookups of
 * three reservations are iteration, not a loop.
 *
 * - A repeat is a call with the same (or a near-same) tool and arguments as one made at most
 *   `window − 1` tool calls before, against the same state: a write that took effect between them
 *   (an edit, a patch, `sed -i`, a booking cancelled — callStates.ts) makes the later call a new
 *   attempt, not a repeat, so editing and re-running the tests is no loop. The same edit rejected
 *   again and again changes nothing, and is. Repeats chained that closely form a stretch; it is a loop when one
 *   request was made ≥ `threshold` times in it (the reference's "≥3 in a 5-call window", for the same
 *   call), or when ≥ `threshold` of its calls repeat earlier ones (a round of calls made again).
 * - Every repeat got the same outcome as the call it repeats (or, in a stretch mixing requests,
 *   every repeat of the requests made ≥ `threshold` times did): a finding — 0.94 with identical
 *   arguments and nothing new asked in between, 0.88 with near-identical ones; 0.85 / 0.80 when new
 *   requests were made between the repeats (the agent tried something else, then asked again).
 * - Otherwise some repeat got a different outcome with nothing written in between (polling a
 *   status, a flaky test): the gray zone (0.5), for tier 2 to judge what each brought back.
 *
 * Where the trace records no arguments, what was repeated is unknown and the tool name is all there
 * is: ≥ `threshold` calls of one tool in a window of `window` tool calls are a finding (0.82; 0.88
 * when more than the threshold), as the reference's rule. Where arguments are recorded but no call
 * repeats another, the calls are iteration or exploration — no signal when at least half of those
 * after the first brought back something new (calls that returned no value, an action done, are
 * left out); the gray zone (0.55) when most came back empty or with a result or error an earlier
 * call of the same state had, or results were not recorded (for tier 2 to judge).
 *
 * One loop, one signal: loops of different tools over overlapping stretches of tool calls merge.
 *
 * Waste: the LLM calls that issued the repeats — every call of the loop that asks again what an
 * earlier one asked (beyond the first of each repeated request), except, in a loop that is a
 * finding, a repeat that came back with a different result (a retry that finally worked, a poll
 * that saw a change: it brought something new). A gray-zone loop carries the waste it would have
 * if a later tier confirmed it. A loop read by name (arguments unrecorded or all different) counts
 * each tool's calls after its first in the loop. The issuers are found as issuingCalls.ts says: a
 * call that also issued needed calls in the same batch is not charged. The runner prices them.
 */
import { z } from 'zod';
import { defineDetector, type SignalDraft } from '../../detector.js';
import {
  callFacts,
  findRepeats,
  newResults,
  repeatLoops,
  type CallFacts,
  type RepeatLoop,
} from './repetition.js';
import { callStates, type CallStates } from './callStates.js';
import { chargeEvidence, issuingCalls } from './issuingCalls.js';
import { argsSummary, fmtInt, plural, stepSpan, toolCalls, type ToolCall } from './shared.js';
import { wastePriority } from '../../wastePriority.js';

/** Calls of one tool (positions in the tool-call sequence) that make one name-only loop. */
interface NameLoop {
  tool: string;
  positions: number[];
}

/**
 * The reference's rule by name: per tool, occurrences i … i+threshold−1 within one window qualify;
 * overlapping qualifying groups merge, and loops of different tools over overlapping stretches merge.
 */
function nameLoops(calls: readonly ToolCall[], threshold: number, window: number): NameLoop[][] {
  const byName = new Map<string, number[]>();
  for (let pos = 0; pos < calls.length; pos++) {
    const name = calls[pos]!.step.name;
    const list = byName.get(name);
    if (list) list.push(pos);
    else byName.set(name, [pos]);
  }
  const loops: NameLoop[] = [];
  for (const [tool, positions] of byName) {
    if (positions.length < threshold) continue;
    let a = -1;
    let b = -1;
    for (let i = 0; i + threshold - 1 < positions.length; i++) {
      const j = i + threshold - 1;
      if (positions[j]! - positions[i]! + 1 > window) continue;
      if (a >= 0 && i <= b) b = j;
      else {
        if (a >= 0) loops.push({ tool, positions: positions.slice(a, b + 1) });
        a = i;
        b = j;
      }
    }
    if (a >= 0) loops.push({ tool, positions: positions.slice(a, b + 1) });
  }
  loops.sort((x, y) => x.positions[0]! - y.positions[0]!);
  const clusters: NameLoop[][] = [];
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
  return clusters;
}

/**
 * Facts of the calls that could repeat or be repeated: those with recorded arguments and a call of
 * the same tool within the window. Others stay undefined, so a run of distinct tools (or of calls
 * whose arguments were not recorded) costs no argument normalising.
 */
function factsNearRepeats(calls: readonly ToolCall[], window: number): (CallFacts | undefined)[] {
  const facts: (CallFacts | undefined)[] = new Array(calls.length);
  for (let p = 1; p < calls.length; p++) {
    const { name, args } = calls[p]!.step;
    // A call whose arguments were not recorded repeats nothing anyone can tell.
    if (args === undefined) continue;
    for (let i = p - 1; i >= 0 && i > p - window; i--) {
      if (calls[i]!.step.name !== name || calls[i]!.step.args === undefined) continue;
      facts[i] ??= callFacts(calls[i]!, i);
      facts[p] ??= callFacts(calls[p]!, p);
    }
  }
  return facts;
}

/** "search called 3× and read called 2×": per tool, in order of first call. */
function perToolText(names: readonly string[]): { text: string; tools: { tool: string; calls: number }[] } {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  const tools = [...counts].map(([tool, calls]) => ({ tool, calls }));
  return { text: tools.map((t) => `${t.tool} called ${fmtInt(t.calls)}×`).join(' and '), tools };
}

function repeatSignal(
  loop: RepeatLoop,
  facts: readonly (CallFacts | undefined)[],
  repeats: ReturnType<typeof findRepeats>,
  threshold: number,
  window: number,
): SignalDraft & { redundant: number[] } {
  const calls = loop.calls.map((p) => facts[p]!);
  const steps = calls.map((c) => c.no);
  const spanned = loop.calls[loop.calls.length - 1]! - loop.calls[0]! + 1;
  const found = loop.repeats.map((p) => repeats[p]!);
  const changed = found.filter((r) => !r.same).length;
  // A finding when every repeat came back the same, or one request did threshold times (its core).
  const finding = changed === 0 || loop.core.length > 0;
  const deciding = changed === 0 || !finding ? found : loop.core.map((p) => repeats[p]!);
  const allExact = deciding.every((r) => r.exact);
  const oneRequest = calls.every((c) => c.key === calls[0]!.key);
  const outcomesRecorded = calls.every((c) => c.outcome.kind !== 'unrecorded');
  const fresh = loop.fresh.length;
  const { text, tools } = perToolText(calls.map((c) => c.name));
  const how = allExact ? 'identical' : 'near-identical';
  const detail = !finding
    ? `: ${plural(found.length, 'call')} repeated an earlier one (${how} arguments), ` +
      (outcomesRecorded
        ? `${fmtInt(changed)} with a different result though nothing was written in between (polling a changing status?)`
        : 'what came back was not recorded')
    : changed === 0 && oneRequest && allExact
      ? `, each time with identical arguments${outcomesRecorded ? ' and the same result' : ''}`
      : `: ${plural(deciding.length, 'call')} repeated an earlier one (${how} arguments)` +
        (outcomesRecorded ? ' and got the same result' : '') +
        (changed > 0 ? `, ${fmtInt(changed)} then got a different one` : '');
  const between = fresh > 0 ? `; ${plural(fresh, 'other call')} in between` : '';
  // The repeats charged: in a finding, not those that brought back something new.
  const redundant = loop.repeats.filter((p) => !finding || repeats[p]!.same).map((p) => facts[p]!.no);
  return {
    redundant,
    severity: 'high',
    confidence: !finding ? 0.5 : allExact ? (fresh === 0 ? 0.94 : 0.85) : fresh === 0 ? 0.88 : 0.8,
    steps,
    message: `${text} in ${plural(spanned, 'tool call')} (${stepSpan(steps)})${detail}${between}`,
    evidence: {
      tool: tools[0]!.tool,
      tools: tools.map((t) => t.tool),
      calls: calls.length,
      toolCallsSpanned: spanned,
      threshold,
      window,
      repeatedBy: 'arguments',
      identicalArgs: allExact,
      repeats: found.length,
      sameOutcome: changed === 0,
      outcomesRecorded,
      outcomesChanged: changed,
      callsInBetween: fresh,
      perTool: tools,
    },
  };
}

/**
 * A name-only loop that no repeat explains: by name when arguments were not recorded, in the gray
 * zone when they differ but their results were not recorded, nothing when both were (iteration).
 */
function nameSignal(
  cluster: NameLoop[],
  calls: readonly ToolCall[],
  threshold: number,
  window: number,
  states: CallStates | undefined,
) {
  const positions =
    cluster.length === 1
      ? cluster[0]!.positions.slice()
      : cluster.flatMap((l) => l.positions).sort((x, y) => x - y);
  const argsRecorded = positions.every((p) => calls[p]!.step.args !== undefined);
  const resultsRecorded = positions.every((p) => {
    const s = calls[p]!.step;
    return s.result !== undefined || s.status === 'error';
  });
  // Iteration or exploration: different requests, most of which brought back something new.
  const results = newResults(
    positions.map((p) => calls[p]!),
    states ? positions.map((p) => states.before[p]!) : undefined,
  );
  if (argsRecorded && resultsRecorded && 2 * results.fresh >= results.of) return undefined;
  const perTool = cluster.map((loop) => {
    const summary = argsSummary(loop.positions.map((p) => calls[p]!.step.args));
    return {
      tool: loop.tool,
      calls: loop.positions.length,
      identicalArgs: summary.identical,
      distinctArgs: summary.distinct,
      argsRecorded: summary.recorded,
    };
  });
  const steps = positions.map((p) => calls[p]!.no);
  // Without arguments that tell requests apart, each tool's calls after its first in the loop.
  const redundant = cluster.flatMap((loop) => loop.positions.slice(1).map((p) => calls[p]!.no));
  const spanned = positions[positions.length - 1]! - positions[0]! + 1;
  const allDistinct = perTool.every((t) => t.distinctArgs === t.calls && t.argsRecorded);
  const over = perTool.some((t) => t.calls > threshold);
  return {
    redundant,
    severity: 'high',
    confidence: argsRecorded ? 0.55 : over ? 0.88 : 0.82,
    steps,
    message:
      `${perTool.map((t) => `${t.tool} called ${fmtInt(t.calls)}×`).join(' and ')} in ${plural(spanned, 'tool call')} ` +
      `(${stepSpan(steps)})` +
      (!argsRecorded
        ? ''
        : !resultsRecorded
          ? allDistinct
            ? ', each time with different arguments (may be legitimate iteration)'
            : ', results not recorded (may be legitimate iteration)'
          : `, ${allDistinct ? 'each time with different arguments' : 'with varying arguments'}, but ${fmtInt(results.of - results.fresh)} of ${plural(results.of, 'later call')} came back empty or with an earlier result`),
    evidence: {
      tool: perTool[0]!.tool,
      tools: perTool.map((t) => t.tool),
      calls: positions.length,
      toolCallsSpanned: spanned,
      threshold,
      window,
      repeatedBy: 'name',
      identicalArgs: false,
      perTool,
    },
  } satisfies SignalDraft & { redundant: number[] };
}

export const toolLoop = defineDetector({
  meta: {
    id: 'TOOL_LOOP',
    configKey: 'tool_loop',
    tier: 1,
    kind: 'structural',
    severity: 'high',
    failureMode: 'loop',
    description:
      'The same call (same or near-same arguments) ≥3× in a 5-tool-call window, with the same result',
    priority: wastePriority('TOOL_LOOP'),
    wasteRule:
      'the LLM calls that issued the repeats (beyond the first of each request); not a repeat that got a new result, nor a call that also issued needed calls',
    fix: 'cache tool results by name + arguments and cap calls per tool, so the agent stops re-asking the same thing',
    rule: 'A repeat is a tool call with the same or nearly the same arguments as one made at most `window` − 1 tool calls before, with nothing written in between: an edit, a patch, `sed -i`, a file written, an API call that changes state makes the next run of a test a new attempt, not a repeat (the same edit rejected again changes nothing, and repeats). A loop is one request made `threshold` times that close together, or a round of `threshold` calls made again. When every repeat came back with the same result it is a finding; when some came back different (polling a job) it is the gray zone, for tier 2 to judge. Calls with different arguments are iteration, not a loop. Results are compared without their envelope (message wrappers, call ids, timestamps). Where a trace records no arguments, `threshold` calls of one tool within `window` tool calls fire.',
    config: z.object({
      threshold: z
        .number()
        .int()
        .min(2)
        .default(3)
        .describe('Times one request is made (or calls repeated) within the window that make a loop'),
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

    const facts = factsNearRepeats(calls, window);
    // The run's states matter only where some call could repeat another (most runs: nowhere).
    const states = facts.some((f) => f !== undefined) ? callStates(trace) : undefined;
    const repeats = findRepeats(facts, window, states);
    const loops = repeatLoops(repeats, facts, threshold, window);
    const found: (SignalDraft & { first: number; redundant: number[] })[] = loops.map((loop) => ({
      first: loop.calls[0]!,
      ...repeatSignal(loop, facts, repeats, threshold, window),
    }));

    const covered = new Set(loops.flatMap((l) => l.calls));
    for (const cluster of nameLoops(calls, threshold, window)) {
      if (cluster.some((l) => l.positions.some((p) => covered.has(p)))) continue;
      const s = nameSignal(cluster, calls, threshold, window, states);
      if (s) found.push({ first: Math.min(...cluster.map((l) => l.positions[0]!)), ...s });
    }
    return found
      .sort((a, b) => a.first - b.first)
      .map(({ first: _first, redundant, ...s }) => ({
        ...s,
        evidence: { ...s.evidence, ...chargeEvidence(issuingCalls(trace, redundant)) },
      }));
  },
});
