/**
 * RAG_EMPTY_RETRIEVAL: a retrieval came back with nothing useful, and the agent answered anyway.
 *
 * - Nothing useful: 0 results, or every result has a score and all scores are below
 *   `min_relevance`. Results without scores are not judged (a store that does not score them says
 *   nothing about relevance).
 * - Recovery: a later retrieval that did return relevant results means the agent retried and got
 *   context, so only failed retrievals after the last good one count. Retrievals done as tool
 *   steps are not recognised (only retrieval steps carry results and scores).
 * - Answered anyway: after the failed retrieval, an LLM call produced text (not only tool calls), or
 *   the run has an output.
 *
 * One signal per run, naming the failed retrievals and the answering LLM step.
 */
import { z } from 'zod';
import { defineDetector } from '../../detector.js';
import type { RetrievalStep } from '../../../trace/schema.js';
import { hasTraceOutput, llmOutputKind, plural, stepNo } from './shared.js';

type Verdict = 'empty' | 'irrelevant' | 'ok';

/**
 * The highest score of a retrieval judged irrelevant (all its results are scored). A loop, not
 * Math.max(...scores): a retrieval can return more results than the call stack has room for as
 * spread arguments.
 */
function bestScore(r: RetrievalStep): number {
  let best = -Infinity;
  for (const x of r.results) if (x.score! > best) best = x.score!;
  return best;
}

export const ragEmptyRetrieval = defineDetector({
  meta: {
    id: 'RAG_EMPTY_RETRIEVAL',
    configKey: 'rag_empty_retrieval',
    tier: 1,
    kind: 'structural',
    severity: 'medium',
    failureMode: 'grounding',
    description: 'Retrieval returned 0 results or relevance <0.3, agent answered anyway',
    fix: 'when retrieval finds nothing relevant, say so or ask a follow-up instead of answering ungrounded',
    rule: 'A retrieval step returned no results, or only results scored below `min_relevance`, and the agent answered anyway: a later LLM call wrote text, or the run has an output. A later retrieval that found relevant results is a recovery; results without scores are not judged.',
    config: z.object({
      min_relevance: z
        .number()
        .default(0.3)
        .describe('A retrieval whose results all score below this is treated as returning nothing relevant'),
    }),
  },
  detect(trace, ctx) {
    const { min_relevance } = ctx.config;
    const judge = (r: RetrievalStep): Verdict => {
      if (r.results.length === 0) return 'empty';
      const scored = r.results.every((x) => typeof x.score === 'number');
      return scored && r.results.every((x) => x.score! < min_relevance) ? 'irrelevant' : 'ok';
    };
    let pending: { no: number; verdict: Verdict; step: RetrievalStep }[] | undefined;
    for (let i = 0; i < trace.steps.length; i++) {
      const s = trace.steps[i]!;
      if (s.type !== 'retrieval') continue;
      const verdict = judge(s);
      if (verdict === 'ok') pending = undefined;
      else (pending ??= []).push({ no: stepNo(i), verdict, step: s });
    }
    if (pending === undefined) return [];
    const failed = pending;

    const firstIndex = failed[0]!.no - 1;
    let answerNo: number | undefined;
    trace.steps.forEach((s, i) => {
      if (i > firstIndex && s.type === 'llm' && llmOutputKind(s) === 'text') answerNo = stepNo(i);
    });
    const outputted = hasTraceOutput(trace);
    if (answerNo === undefined && !outputted) return [];

    const steps = [...failed.map((f) => f.no), ...(answerNo !== undefined ? [answerNo] : [])];
    const describe = (f: (typeof failed)[number]) =>
      f.verdict === 'empty'
        ? `step ${f.no} returned 0 results`
        : `step ${f.no} returned ${plural(f.step.results.length, 'result')}, best score ${Number(
            bestScore(f.step).toFixed(2),
          )} < ${min_relevance}`;
    const allEmpty = failed.every((f) => f.verdict === 'empty');
    return [
      {
        severity: 'medium',
        // Zero results is unambiguous; low scores depend on the store's scale, so a little less sure.
        confidence: allEmpty ? 0.86 : 0.78,
        steps,
        message:
          `retrieval found nothing relevant (${failed.map(describe).join('; ')}) and the agent answered anyway` +
          (answerNo !== undefined ? ` (step ${answerNo})` : ' (run output)'),
        evidence: {
          minRelevance: min_relevance,
          retrievals: failed.map((f) => ({
            step: f.no,
            query: f.step.query ?? null,
            results: f.step.results.length,
            verdict: f.verdict,
          })),
          answerStep: answerNo ?? null,
        },
      },
    ];
  },
});
