/**
 * The tribunal: stage 0 (consistency), stage 1 (schema), stage 2 (N judges, consensus), fail-closed.
 *
 * A session is one run (one `analyze` call, one Vitest run): it owns the circuit breaker, the cost
 * tally and the concurrency limit. `runTribunal` is a one-verdict session.
 */
import { randomUUID } from 'node:crypto';
import pLimit, { type LimitFunction } from 'p-limit';
import { createPricer, type Pricer } from '../pricing/pricer.js';
import { LruCache } from './cache.js';
import {
  capabilitiesFor,
  isModelAllowed,
  DEFAULT_ALLOWED_MODELS,
  type CapabilityOverrides,
} from './capabilities.js';
import { DEFAULT_CASSETTE_PATH, openCassette, type Cassette, type CassetteMode } from './cassette.js';
import { consensus } from './consensus.js';
import { callJudge, judgeLabel, type CachedAnswer } from './judgeCall.js';
import { buildJudgePrompt } from './prompt.js';
import type { JudgeSpec } from './providers.js';
import { resolveRubric } from './rubrics.js';
import { checkConsistency } from './stage0Consistency.js';
import { validateResponse, type ResponseSchema } from './stage1Schema.js';
import type { JudgeEval, Verdict } from './verdict.js';
import { dict } from '../util/dict.js';
import { redactAndCut } from '../redact/safeText.js';

export const DEFAULT_THRESHOLD = 0.8;
export const DEFAULT_JUDGE_TIMEOUT_MS = 8000;
export const DEFAULT_BUDGET_MS = 25_000;
/** The breaker trips only after this many verdicts … */
export const BREAKER_MIN_VERDICTS = 10;
/** … once more than this share of them was INDETERMINATE. */
export const BREAKER_MAX_INDETERMINATE_RATE = 0.1;

export type Finding = NonNullable<Verdict['findings']>[number];

export interface CassetteOptions {
  path?: string;
  mode?: CassetteMode;
}

/** Options shared by a session and each of its verdicts. */
export interface TribunalSettings {
  judges?: JudgeSpec[];
  threshold?: number;
  /** A built-in rubric name, a name from `rubrics`, or rubric text. */
  rubric?: string;
  /** Custom named rubrics (config's `tribunal.rubrics`). */
  rubrics?: Record<string, string>;
  judgeTimeoutMs?: number;
  budgetMs?: number;
  /** Default `{ path: '.tracejury/cassette.jsonl', mode: 'auto' }`; `false` for memory only. */
  cassette?: CassetteOptions | false;
  /** Glob patterns of allowed judge models; replaces DEFAULT_ALLOWED_MODELS. */
  allowedModels?: string[];
  capabilities?: CapabilityOverrides;
  /** Judge calls in flight at once across the session (default 8). */
  concurrency?: number;
  /** Retries after the first attempt on 429/5xx (default 3). */
  maxRetries?: number;
  /** First backoff step in ms (default 200), doubled per retry unless Retry-After says otherwise. */
  backoffBaseMs?: number;
  /** Where API keys are read (default process.env). */
  env?: Record<string, string | undefined>;
  pricer?: Pricer;
  /** In-memory LRU of answers (default: a process-wide one of 1000 entries); `false` for none. */
  memoryCache?: LruCache<CachedAnswer> | false;
  /**
   * The command that runs this again (`npx vitest run evals/x.test.ts`): a cassette miss then says
   * to run exactly it with TRACEJURY_CASSETTE=record and the judge's key.
   */
  rerunCommand?: string;
}

export interface EvaluateOptions extends TribunalSettings {
  /** The response under test: text or a JSON value. */
  response: unknown;
  /** What the judges should know: task, tool results, documents. Fenced as untrusted data. */
  context?: unknown;
  /** A zod schema or a JSON Schema the response must satisfy (stage 1). */
  schema?: ResponseSchema;
  traceId?: string;
  /** Test or rubric name, carried into the verdict. */
  name?: string;
  /**
   * What the verdict decides, written beside the answer in the cassette for a reviewer (a test's
   * full name); default `name`.
   */
  subject?: string;
}

export type TribunalOptions = EvaluateOptions & { judges: JudgeSpec[] };

export interface ModelCost {
  provider: string;
  model: string;
  calls: number;
  cachedCalls: number;
  usd: number;
}

export interface TribunalStats {
  verdicts: number;
  indeterminate: number;
  indeterminateRate: number;
  circuitOpen: boolean;
  /** Verdicts made with stages 0–1 only because the breaker was open. */
  circuitOpenVerdicts: number;
  judgeCalls: number;
  cachedJudgeCalls: number;
  judgeUsd: number;
  /** Keyed `provider:model`. */
  costByModel: Record<string, ModelCost>;
}

export interface TribunalSession {
  evaluate(options: EvaluateOptions): Promise<Verdict>;
  stats(): TribunalStats;
  /** Resolves when every cassette write of this session is on disk. */
  flush(): Promise<void>;
}

/** A judge model outside the allow-list: a configuration error, raised before any call. */
export class JudgeNotAllowedError extends Error {
  constructor(
    readonly model: string,
    readonly allowed: readonly string[],
  ) {
    super(
      `judge model "${model}" is not in the allowed judge models (${allowed.join(', ')}); ` +
        `add it to tribunal.allowedModels to use it`,
    );
    this.name = 'JudgeNotAllowedError';
  }
}

const sharedMemory = new LruCache<CachedAnswer>(1000);
let sharedPricer: Pricer | undefined;

/** Throws JudgeNotAllowedError for the first judge outside the allow-list (default: the built-in one). */
export function assertJudgesAllowed(
  judges: readonly JudgeSpec[],
  allowed: readonly string[] = DEFAULT_ALLOWED_MODELS,
): void {
  assertAllowed(judges, allowed);
}

function assertAllowed(judges: readonly JudgeSpec[], allowed: readonly string[]): void {
  for (const j of judges)
    if (!isModelAllowed(j.model, allowed)) throw new JudgeNotAllowedError(j.model, allowed);
}

function responseText(response: unknown): string {
  if (typeof response === 'string') return response;
  return JSON.stringify(response) ?? '';
}

function describeFailures(evals: JudgeEval[]): string {
  return evals
    .filter((e) => e.error)
    .map((e) => `${judgeLabel(e)}${e.httpStatus ? ` (HTTP ${e.httpStatus})` : ''}: ${e.error}`)
    .join('; ');
}

const fmt = (n: number) => n.toFixed(2);

export function createTribunalSession(settings: TribunalSettings = {}): TribunalSession {
  const allowed = settings.allowedModels ?? DEFAULT_ALLOWED_MODELS;
  if (settings.judges) assertAllowed(settings.judges, allowed);
  const limit: LimitFunction = pLimit(settings.concurrency ?? 8);
  const cassettes = new Set<Cassette>();
  const counts = {
    verdicts: 0,
    indeterminate: 0,
    circuitOpenVerdicts: 0,
    judgeCalls: 0,
    cachedJudgeCalls: 0,
  };
  const costByModel = dict<ModelCost>();
  let judgeUsd = 0;
  let open = false;

  function breakerOpen(): boolean {
    if (!open && counts.verdicts >= BREAKER_MIN_VERDICTS) {
      open = counts.indeterminate / counts.verdicts > BREAKER_MAX_INDETERMINATE_RATE;
    }
    return open;
  }

  function tally(evals: JudgeEval[]): void {
    for (const e of evals) {
      const id = judgeLabel(e);
      const c = (costByModel[id] ??= {
        provider: e.provider,
        model: e.model,
        calls: 0,
        cachedCalls: 0,
        usd: 0,
      });
      c.calls++;
      counts.judgeCalls++;
      if (e.cached) {
        c.cachedCalls++;
        counts.cachedJudgeCalls++;
      }
      c.usd += e.costUsd;
      judgeUsd += e.costUsd;
    }
  }

  async function evaluate(options: EvaluateOptions): Promise<Verdict> {
    const o: EvaluateOptions = { ...settings, ...options };
    const started = performance.now();
    const traceId = o.traceId ?? randomUUID();
    const threshold = o.threshold ?? DEFAULT_THRESHOLD;
    const judges = o.judges ?? [];
    assertAllowed(judges, o.allowedModels ?? allowed);
    // Before anything is judged: an unknown rubric name is a mistake in the call, not a verdict.
    const rubric = resolveRubric(o.rubric, o.rubrics);

    const findings: Finding[] = checkConsistency(responseText(o.response)).map((f) => ({
      stage: 0,
      kind: f.kind,
      message: f.message,
      spans: f.spans,
    }));
    const stages = [0];
    const base = {
      traceId,
      threshold,
      modelsUsed: [] as string[],
      judges: [] as JudgeEval[],
      costUsd: 0,
      disagreement: 0,
      highDisagreement: false,
      ...(o.name ? { name: o.name } : {}),
    };
    const done = (
      v: Pick<Verdict, 'passed' | 'indeterminate' | 'score' | 'confidence' | 'reason'> & {
        circuitOpen?: boolean;
      },
    ): Verdict => ({ ...base, ...v, latencyMs: performance.now() - started, stages, findings });

    if (o.schema !== undefined) {
      stages.push(1);
      const result = validateResponse(o.response, o.schema);
      if (!result.ok) {
        for (const e of result.errors)
          findings.push({ stage: 1, kind: 'schema', message: `${e.path}: ${e.message}` });
        counts.verdicts++;
        const shown = result.errors.slice(0, 3).map((e) => `${e.path}: ${e.message}`);
        const more = result.errors.length > 3 ? ` (+${result.errors.length - 3} more)` : '';
        return done({
          passed: false,
          indeterminate: false,
          score: 0,
          confidence: 1,
          reason: `schema validation failed: ${shown.join('; ')}${more}`,
        });
      }
    }

    if (breakerOpen()) {
      counts.circuitOpenVerdicts++;
      return done({
        passed: false,
        indeterminate: true,
        circuitOpen: true,
        score: 0,
        confidence: 0,
        reason:
          `circuit breaker open: ${counts.indeterminate} of ${counts.verdicts} verdicts in this run were INDETERMINATE ` +
          `(> ${BREAKER_MAX_INDETERMINATE_RATE * 100} %); judges not called, only stages ${stages.join('–')} ran`,
      });
    }

    if (judges.length === 0) {
      counts.verdicts++;
      counts.indeterminate++;
      return done({
        passed: false,
        indeterminate: true,
        score: 0,
        confidence: 0,
        reason: `no judges configured; only stages ${stages.join('–')} ran`,
      });
    }

    stages.push(2);
    const prompt = buildJudgePrompt({ rubric: rubric.text, response: o.response, context: o.context });
    const cassetteOpts = o.cassette === false ? undefined : (o.cassette ?? {});
    const cassette = cassetteOpts ? openCassette(cassetteOpts.path ?? DEFAULT_CASSETTE_PATH) : undefined;
    if (cassette) cassettes.add(cassette);
    const mode: CassetteMode = cassetteOpts?.mode ?? 'auto';
    const judgeTimeoutMs = o.judgeTimeoutMs ?? DEFAULT_JUDGE_TIMEOUT_MS;
    const budgetMs = o.budgetMs ?? DEFAULT_BUDGET_MS;
    const budget = new AbortController();
    const budgetTimer = setTimeout(() => budget.abort(new Error('budget exhausted')), budgetMs);
    const memory = o.memoryCache === false ? undefined : (o.memoryCache ?? sharedMemory);
    const pricer = o.pricer ?? (sharedPricer ??= createPricer());
    let evals: JudgeEval[];
    try {
      evals = await Promise.all(
        judges.map((judge) =>
          limit(() =>
            budget.signal.aborted
              ? Promise.resolve<JudgeEval>({
                  provider: judge.provider,
                  model: judge.model,
                  httpStatus: 0,
                  usedStructuredOutput: false,
                  error: `tribunal budget of ${budgetMs} ms exhausted before the judge was called`,
                  latencyMs: 0,
                  costUsd: 0,
                })
              : callJudge({
                  judge,
                  prompt,
                  caps: capabilitiesFor(judge.provider, judge.model, o.capabilities),
                  mode,
                  ...(cassette ? { cassette } : {}),
                  ...(memory ? { memory } : {}),
                  env: o.env ?? process.env,
                  judgeTimeoutMs,
                  budgetMs,
                  budgetSignal: budget.signal,
                  pricer,
                  maxRetries: o.maxRetries ?? 3,
                  ...(o.backoffBaseMs !== undefined ? { backoffBaseMs: o.backoffBaseMs } : {}),
                  ...(o.rerunCommand ? { rerunCommand: o.rerunCommand } : {}),
                  subject: {
                    // A traceId the caller gave, not the random one a verdict without one gets.
                    ...(options.traceId !== undefined ? { traceId: options.traceId } : {}),
                    ...((o.subject ?? o.name) !== undefined ? { name: (o.subject ?? o.name)! } : {}),
                    // Rubric text given inline is named by its start (redacted), a reviewer's handle on it.
                    rubric:
                      rubric.name === 'custom' ? `custom: ${redactAndCut(rubric.text, 80)}` : rubric.name,
                  },
                }),
          ),
        ),
      );
    } finally {
      clearTimeout(budgetTimer);
    }
    tally(evals);

    const answered = evals.filter(
      (e): e is JudgeEval & { score: number; confidence: number; passed: boolean } =>
        !e.error && e.score !== undefined && e.confidence !== undefined && e.passed !== undefined,
    );
    const c = consensus(answered, threshold);
    base.judges = evals;
    base.modelsUsed = [...new Set(evals.map((e) => e.model))];
    base.costUsd = evals.reduce((s, e) => s + e.costUsd, 0);
    base.disagreement = c.disagreement;
    base.highDisagreement = c.highDisagreement;
    // No judge was asked in this run: the cassette decided (renderers say "replayed").
    if (evals.every((e) => e.replayed)) Object.assign(base, { replayed: true });
    counts.verdicts++;
    const disagreementNote = c.highDisagreement
      ? `; HIGH DISAGREEMENT ${fmt(c.disagreement)} (> 0.3): review`
      : '';

    if (answered.length < evals.length) {
      counts.indeterminate++;
      return done({
        passed: false,
        indeterminate: true,
        score: c.score,
        confidence: c.confidence,
        reason: `INDETERMINATE (fail-closed): ${evals.length - answered.length} of ${evals.length} judges failed: ${describeFailures(evals)}${disagreementNote}`,
      });
    }
    const why = [
      `consensus score ${fmt(c.score)} ${c.score >= threshold ? '≥' : '<'} ${threshold}`,
      `confidence ${fmt(c.confidence)} ${c.confidence >= threshold ? '≥' : '<'} ${threshold}`,
      `${c.passes}/${evals.length} judges passed (${c.majority ? 'majority' : 'no majority'})`,
    ].join(', ');
    return done({
      passed: c.passed,
      indeterminate: false,
      score: c.score,
      confidence: c.confidence,
      reason: `${c.passed ? 'passed' : 'failed'}: ${why} [rubric ${rubric.name}]${disagreementNote}`,
    });
  }

  return {
    evaluate,
    stats: () => ({
      verdicts: counts.verdicts,
      indeterminate: counts.indeterminate,
      indeterminateRate: counts.verdicts ? counts.indeterminate / counts.verdicts : 0,
      circuitOpen: breakerOpen(),
      circuitOpenVerdicts: counts.circuitOpenVerdicts,
      judgeCalls: counts.judgeCalls,
      cachedJudgeCalls: counts.cachedJudgeCalls,
      judgeUsd,
      costByModel: structuredClone(costByModel),
    }),
    flush: async () => {
      await Promise.all([...cassettes].map((c) => c.flush()));
    },
  };
}

/**
 * Evaluates one response: stage 0 findings, stage 1 schema (a failure fails the verdict without
 * calling judges), then the judges. Any judge failure makes the verdict INDETERMINATE.
 */
export async function runTribunal(options: TribunalOptions): Promise<Verdict> {
  const session = createTribunalSession(options);
  const verdict = await session.evaluate(options);
  await session.flush();
  return verdict;
}
