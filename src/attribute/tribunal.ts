/**
 * The tribunal for attribution's gray zone: when rules disagree or only the prior named a step,
 * judges hear each candidate step (never the whole trace: at most the chosen one and
 * MAX_ALTERNATIVES others, their text cut) and score how likely it is where the run went wrong.
 * The best-scored candidate wins if the judges lean to it; otherwise, and whenever no judge could
 * answer (offline, a cassette miss, the budget spent), the rules' answer stands with its own
 * confidence. Answers go through the session's cassette like every verdict, so CI replays them.
 */
import type { Signal } from '../detect/signal.js';
import type { TribunalSession } from '../judge/tribunal.js';
import type { Verdict } from '../judge/verdict.js';
import type { Candidate } from './candidates.js';
import { attributedTo } from './choose.js';
import type { Attributed } from './rootCause.js';

const ROOT_CAUSE_RUBRIC =
  'Root cause: the context describes a failed run of an AI agent (or a team of agents) and a few candidate steps, ' +
  'each with the agent that owns it. Score the step under evaluation 1 when it is where the run went wrong — the ' +
  'earliest step whose decision or output caused the failure, so that the later problems follow from it — and 0 ' +
  'when the failure did not start there (the step was sound, or only suffered from an earlier mistake). passed: ' +
  'whether this step is the root cause.';

/** A candidate wins over the rules' choice only when the judges' consensus leans to it. */
const MIN_SCORE = 0.5;

export interface RootCauseCase {
  traceId: string;
  /** Why the run counts as failed ("its recorded outcome failed", "2 high findings"). */
  failure: string;
  /** The task, cut, when the facts kept it. */
  task?: string;
  /** The chosen candidate first. */
  candidates: readonly Candidate[];
}

export interface JudgedRootCause {
  rootCause: Attributed;
  verdicts: Verdict[];
}

/** Asks the judges about every candidate; the rules' root cause when none is preferred. */
export async function judgeRootCause(
  session: TribunalSession,
  c: RootCauseCase,
  rules: Attributed,
  findings: readonly Signal[],
): Promise<JudgedRootCause> {
  const context = {
    failure: c.failure,
    ...(c.task !== undefined ? { task: c.task } : {}),
    candidates: c.candidates.map((k) => ({ step: k.step, agent: k.agent, rule: k.rule, why: k.evidence })),
  };
  const verdicts: Verdict[] = [];
  for (const k of c.candidates) {
    verdicts.push(
      await session.evaluate({
        response: { step: k.step, agent: k.agent, content: k.excerpt ?? '' },
        context,
        rubric: ROOT_CAUSE_RUBRIC,
        traceId: c.traceId,
        name: `root cause: step ${k.step}`,
      }),
    );
  }
  let best: number | undefined;
  verdicts.forEach((v, i) => {
    if (v.indeterminate || v.score < MIN_SCORE) return;
    if (best === undefined || v.score > verdicts[best]!.score) best = i;
  });
  if (best === undefined) return { rootCause: rules, verdicts };
  const chosen = c.candidates[best]!;
  const verdict = verdicts[best]!;
  const others = c.candidates.filter((k) => k !== chosen);
  const reasoning = verdict.judges.find((j) => j.reasoning)?.reasoning;
  return {
    rootCause: {
      ...attributedTo(chosen, others, findings),
      confidence: verdict.score,
      decidedBy: 'tribunal',
      tribunal: {
        score: verdict.score,
        judges: verdict.judges.length,
        ...(reasoning !== undefined ? { reasoning } : {}),
      },
    },
    verdicts,
  };
}
