/**
 * Tier 5 at the edge: after a run, the review list (what no automatic tier decided) is POSTed as
 * JSON to `review.webhook.url`, redacted, with retries and exponential backoff. It never fails the
 * run or the gate: the outcome is a note. `fetch` is a dependency, so tests and embedders can swap it.
 *
 * ```yaml
 * review:
 *   webhook:
 *     url: https://hooks.example.com/tracejury
 *     headers: { authorization: "Bearer …" }
 *     timeoutMs: 5000   # per attempt
 *     retries: 2        # after the first attempt, on a network error, a timeout, 429 or 5xx
 * ```
 */
import { z } from 'zod';
import { redact, redactDeep } from '../redact/redact.js';
import type { Report } from './schema.js';

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5000;
export const DEFAULT_WEBHOOK_RETRIES = 2;
export const DEFAULT_WEBHOOK_BACKOFF_MS = 500;

export const ReviewWebhookSchema = z
  .object({
    url: z.string().url().describe('Where the review list is POSTed (JSON) after a run'),
    headers: z.record(z.string(), z.string()).optional().describe('Extra request headers'),
    timeoutMs: z
      .number()
      .int()
      .positive()
      .default(DEFAULT_WEBHOOK_TIMEOUT_MS)
      .describe('Per-attempt timeout'),
    retries: z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(DEFAULT_WEBHOOK_RETRIES)
      .describe('Retries after the first attempt (network error, timeout, 429, 5xx), with backoff'),
  })
  .strict()
  .describe(
    'A URL that receives the review list (redacted) after each run; a failed POST is a note, never a failure',
  );
export type ReviewWebhook = z.infer<typeof ReviewWebhookSchema>;

export const ReviewSectionSchema = z
  .object({ webhook: ReviewWebhookSchema.optional() })
  .strict()
  .describe('Tier 5: where the review list goes after a run');
export type ReviewSection = z.infer<typeof ReviewSectionSchema>;

export interface WebhookDeps {
  fetch: typeof globalThis.fetch;
  /** First backoff step in ms, doubled per retry (default 500). */
  backoffBaseMs?: number;
}

/** What the webhook receives. */
export interface ReviewPayload {
  tool: Report['tool'];
  generatedAt: string;
  gate: { passed: boolean };
  traces: number;
  review: Report['review'];
}

export interface WebhookResult {
  delivered: boolean;
  attempts: number;
  /** Why it was not delivered (the last attempt's error). */
  error?: string;
}

/** Where the webhook is, without its path or query (which may hold a token), for notes. */
export function webhookOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '<invalid url>';
  }
}

export function reviewPayload(report: Report): ReviewPayload {
  return {
    tool: report.tool,
    generatedAt: report.generatedAt,
    gate: { passed: report.gate.passed },
    traces: report.inputs.traces,
    review: redactDeep(report.review),
  };
}

const retryable = (status: number) => status === 429 || status >= 500;

/** POSTs the report's review list; resolves (never rejects) with the outcome. */
export async function postReview(
  report: Report,
  webhook: ReviewWebhook,
  deps: WebhookDeps,
): Promise<WebhookResult> {
  const body = JSON.stringify(reviewPayload(report));
  const attemptsAllowed = 1 + (webhook.retries ?? DEFAULT_WEBHOOK_RETRIES);
  const timeoutMs = webhook.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const base = deps.backoffBaseMs ?? DEFAULT_WEBHOOK_BACKOFF_MS;
  let error = 'not attempted';
  for (let attempt = 1; attempt <= attemptsAllowed; attempt++) {
    if (attempt > 1) await new Promise((r) => setTimeout(r, base * 2 ** (attempt - 2)));
    try {
      const res = await deps.fetch(webhook.url, {
        method: 'POST',
        headers: { ...webhook.headers, 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.body?.cancel().catch(() => undefined);
      if (res.ok) return { delivered: true, attempts: attempt };
      error = `HTTP ${res.status}`;
      if (!retryable(res.status)) return { delivered: false, attempts: attempt, error };
    } catch (e) {
      const name = (e as Error).name;
      error =
        name === 'TimeoutError' || name === 'AbortError'
          ? `no answer within ${timeoutMs} ms`
          : redact(
              [(e as Error).message, ((e as Error).cause as { code?: string } | undefined)?.code]
                .filter(Boolean)
                .join(': '),
            );
    }
  }
  return { delivered: false, attempts: attemptsAllowed, error };
}

/** The note a failed delivery becomes. */
export function webhookNote(report: Report, webhook: ReviewWebhook, result: WebhookResult): string {
  const n = report.review.length;
  return (
    `review webhook ${webhookOrigin(webhook.url)} not reached after ${result.attempts} attempt${result.attempts === 1 ? '' : 's'} ` +
    `(${result.error}): the ${n} case${n === 1 ? '' : 's'} for review are in this report only; the gate is unaffected`
  );
}
