/**
 * One judge, one prompt → one JudgeEval. Looks the call up in the memory cache and the cassette,
 * calls the provider when the cassette mode allows it, retries 429/5xx inside the judge's time,
 * and turns every failure into a JudgeEval with `error` set (never a throw), so the tribunal can
 * fail closed.
 */
import { redact } from '../redact/redact.js';
import { isRunnerVariable, runnerVariableProblem } from '../util/runnerVariables.js';
import type { Pricer } from '../pricing/pricer.js';
import { parseJudgeAnswer } from './answer.js';
import { judgeCacheKey, type LruCache } from './cache.js';
import type { ModelCapabilities } from './capabilities.js';
import { relative, isAbsolute } from 'node:path';
import { CASSETTE_ENV, type Cassette, type CassetteEntry, type CassetteMode } from './cassette.js';
import type { JudgePrompt } from './prompt.js';
import {
  buildRequest,
  JudgeHttpError,
  loadSdk,
  sendRequest,
  type JudgeSpec,
  type ProviderAnswer,
} from './providers.js';
import { backoffDelay, isRetryableStatus, parseRetryAfter, sleep } from './retry.js';
import type { JudgeEval } from './verdict.js';

/** An answer held in memory: `replayed` when it was read from the cassette, not asked in this run. */
export type CachedAnswer = Omit<CassetteEntry, 'recordedAt'> & { replayed?: boolean };

export interface JudgeCallContext {
  judge: JudgeSpec;
  prompt: JudgePrompt;
  caps: ModelCapabilities;
  mode: CassetteMode;
  cassette?: Cassette;
  memory?: LruCache<CachedAnswer>;
  env: Record<string, string | undefined>;
  judgeTimeoutMs: number;
  budgetMs: number;
  /** Aborts when the tribunal's total budget is spent. */
  budgetSignal: AbortSignal;
  pricer: Pricer;
  /** Retries after the first attempt (429/5xx only). */
  maxRetries: number;
  backoffBaseMs?: number;
  /**
   * The command that runs this again (`npx vitest run evals/x.test.ts`), for the message of a
   * cassette miss: it says to run exactly that with the judge's key and TRACEJURY_CASSETTE=record.
   */
  rerunCommand?: string;
  /** What the answer decides (the trace, the test or detector, the rubric): written beside it in the cassette. */
  subject?: { traceId?: string; name?: string; rubric: string };
}

const DEFAULT_KEY_ENV = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' } as const;

export function apiKeyFor(judge: JudgeSpec, env: Record<string, string | undefined>): string | undefined {
  if (judge.apiKey) return judge.apiKey;
  const name = judge.apiKeyEnv ?? DEFAULT_KEY_ENV[judge.provider];
  // A judge given by code (runTribunal) is not checked by the config's schema: checked here too.
  if (isRunnerVariable(name)) return undefined;
  const v = env[name];
  return v && v.trim() !== '' ? v : undefined;
}

export function judgeLabel(judge: Pick<JudgeSpec, 'provider' | 'model'>): string {
  return `${judge.provider}:${judge.model}`;
}

class TimeoutReason extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TimeoutReason';
  }
}

export async function callJudge(ctx: JudgeCallContext): Promise<JudgeEval> {
  const started = performance.now();
  const { judge } = ctx;
  const req = buildRequest(judge, ctx.prompt, ctx.caps);
  const key = judgeCacheKey({
    provider: judge.provider,
    model: judge.model,
    prompt: ctx.prompt,
    options: req.options,
  });
  const base = {
    provider: judge.provider,
    model: judge.model,
    usedStructuredOutput: req.usedStructuredOutput,
  };
  // Provider error bodies can echo request headers or keys; they end up in reports and PR comments.
  const failed = (error: string, httpStatus = 0): JudgeEval => ({
    ...base,
    httpStatus,
    error: redact(error),
    latencyMs: performance.now() - started,
    costUsd: 0,
  });

  if (ctx.cassette) {
    await ctx.cassette.load();
    // A directory, a device, an unreadable file: the judge's error, naming the path.
    if (ctx.cassette.unusable)
      return failed(
        `cannot use the cassette ${shownPath(ctx.cassette.path)}: ${ctx.cassette.unusable}; point tribunal.cassette.path at a file (or where one can be written)`,
      );
  }
  if (ctx.mode !== 'record') {
    let hit = ctx.memory?.get(key);
    if (!hit && ctx.cassette) {
      const recorded = ctx.cassette.get(key);
      if (recorded) {
        const { recordedAt: _at, ...answer } = recorded;
        hit = { ...answer, replayed: true };
        ctx.memory?.set(key, hit);
      }
    }
    if (hit) return fromAnswer(hit, base, started, 0, true);
  }

  const envName = judge.apiKeyEnv ?? DEFAULT_KEY_ENV[judge.provider];
  const where = ctx.cassette ? ` in ${shownPath(ctx.cassette.path)}` : '';
  const record = recordHint(envName, ctx.rerunCommand);
  if (ctx.mode === 'replay') {
    return failed(
      `no cassette entry for ${judge.model} (${judge.provider})${where} (replay mode); ${record}`,
    );
  }
  if (!judge.apiKey && isRunnerVariable(envName))
    return failed(
      `cannot call ${judge.model} (${judge.provider}): apiKeyEnv ${runnerVariableProblem(envName)}`,
    );
  const apiKey = apiKeyFor(judge, ctx.env);
  if (!apiKey) {
    return failed(
      ctx.mode === 'auto'
        ? `no cassette entry for ${judge.model} (${judge.provider})${where} and no API key (${envName}); ${record}`
        : `cannot record ${judge.model} (${judge.provider}): no API key (${envName}); ${record}`,
    );
  }

  // The judge's time is the judge's: the SDKs load (once) before it starts.
  await loadSdk();
  const deadline = Date.now() + ctx.judgeTimeoutMs;
  const timer = new AbortController();
  const timeout = setTimeout(
    () => timer.abort(new TimeoutReason(`timed out after ${ctx.judgeTimeoutMs} ms (judgeTimeoutMs)`)),
    ctx.judgeTimeoutMs,
  );
  const signal = AbortSignal.any([timer.signal, ctx.budgetSignal]);
  let lastStatus = 0;
  let answer: ProviderAnswer | undefined;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        answer = await sendRequest(
          req,
          { apiKey, ...(judge.baseURL ? { baseURL: judge.baseURL } : {}) },
          signal,
        );
        break;
      } catch (err) {
        if (signal.aborted) throw err;
        if (!(err instanceof JudgeHttpError))
          return failed(`request failed: ${(err as Error).message}`, lastStatus);
        lastStatus = err.status;
        if (!isRetryableStatus(err.status)) return failed(`HTTP ${err.status}: ${err.message}`, err.status);
        if (attempt >= ctx.maxRetries) {
          return failed(`HTTP ${err.status} after ${attempt + 1} attempts: ${err.message}`, err.status);
        }
        const retryAfter = parseRetryAfter(err.headers);
        const wait = backoffDelay(attempt, retryAfter, { baseMs: ctx.backoffBaseMs ?? 200 });
        const remaining = deadline - Date.now();
        if (wait >= remaining) {
          return failed(
            `HTTP ${err.status}: ${retryAfter !== undefined ? 'Retry-After' : 'backoff'} of ${Math.round(wait)} ms ` +
              `exceeds the judge's remaining ${Math.max(0, Math.round(remaining))} ms`,
            err.status,
          );
        }
        await sleep(wait, signal);
      }
    }
  } catch (err) {
    if (timer.signal.aborted) return failed(String((timer.signal.reason as Error).message), lastStatus);
    if (ctx.budgetSignal.aborted) {
      return failed(`tribunal budget of ${ctx.budgetMs} ms exhausted before the judge answered`, lastStatus);
    }
    return failed(`request failed: ${(err as Error).message}`, lastStatus);
  } finally {
    clearTimeout(timeout);
  }

  const entry: CachedAnswer = {
    key,
    ...(ctx.subject?.traceId !== undefined ? { traceId: ctx.subject.traceId } : {}),
    ...(ctx.subject?.name !== undefined ? { name: ctx.subject.name } : {}),
    ...(ctx.subject ? { rubric: ctx.subject.rubric } : {}),
    provider: judge.provider,
    model: judge.model,
    answer: answer.text,
    usage: answer.usage,
    httpStatus: answer.httpStatus,
    usedStructuredOutput: req.usedStructuredOutput,
  };
  ctx.memory?.set(key, entry);
  if (ctx.cassette) void ctx.cassette.record({ ...entry, recordedAt: new Date().toISOString() });
  const cost = ctx.pricer.quote(judge.model, answer.usage, judge.provider)?.usd ?? 0;
  return fromAnswer(entry, base, started, cost, false);
}

/** The cassette's path as the user would type it: relative to where they run, when inside it. */
function shownPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

/**
 * How to record the missing answer: the whole command when the caller said what it runs. The key
 * is named, never written as `NAME=…`: redaction takes that form for a secret.
 */
function recordHint(envName: string, rerunCommand: string | undefined): string {
  return rerunCommand
    ? `record it with ${envName} set: ${CASSETTE_ENV}=record ${rerunCommand}`
    : `record it: run again with ${envName} set and ${CASSETTE_ENV}=record (or cassette mode 'record')`;
}

function fromAnswer(
  entry: CachedAnswer,
  base: { provider: JudgeSpec['provider']; model: string },
  started: number,
  costUsd: number,
  cached: boolean,
): JudgeEval {
  const parsed = parseJudgeAnswer(entry.answer);
  const common = {
    ...base,
    httpStatus: entry.httpStatus,
    usedStructuredOutput: entry.usedStructuredOutput,
    latencyMs: performance.now() - started,
    costUsd,
    ...(cached ? { cached: true } : {}),
    ...(cached && entry.replayed ? { replayed: true } : {}),
  };
  if (!parsed.ok) return { ...common, error: parsed.error };
  return { ...common, ...parsed.answer };
}
