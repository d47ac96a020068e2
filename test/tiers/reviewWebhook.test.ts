/**
 * Tier 5: the review list POSTed to `review.webhook` after a run — redacted, retried with backoff,
 * bounded by its timeout, and never a reason for the gate to fail.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { parseConfig } from '../../src/config/config.js';
import { postReview, reviewPayload, type ReviewPayload } from '../../src/report/reviewWebhook.js';
import type { Report } from '../../src/report/schema.js';
import { makeTrace, tool } from '../helpers/traceBuilder.js';

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: ReviewPayload;
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

/** A 127.0.0.1 server answering each POST with `answer(n)`: a status, or `hang` to never answer. */
async function receiver(answer: (n: number) => number | 'hang') {
  const received: Received[] = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      const a = answer(received.length);
      if (a === 'hang') return;
      res.writeHead(a).end();
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook?token=s3cret`, received };
}

// TOOL_LOOP at 0.55 with no judges configured: a review case.
const gray = makeTrace(
  [
    tool('get_reservation_details', { args: { id: 'R1' } }),
    tool('get_reservation_details', { args: { id: 'R2' } }),
    tool('get_reservation_details', { args: { id: 'R3' } }),
  ],
  { id: 'hook-1', output: 'done' },
);

const config = (url: string, extra = '') =>
  parseConfig(`review:\n  webhook:\n    url: "${url}"\n    headers: { x-team: agents }\n${extra}`);

describe('review webhook', () => {
  it('receives the review list after the run, as JSON, with its headers', async () => {
    const hook = await receiver(() => 204);
    const report = await analyze([gray], { config: config(hook.url), baselines: false });
    expect(report.review).toHaveLength(1);
    expect(hook.received).toHaveLength(1);
    const { headers, body } = hook.received[0]!;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-team']).toBe('agents');
    expect(body.review).toEqual(report.review);
    expect(body).toMatchObject({ tool: { name: 'tracejury' }, gate: { passed: true }, traces: 1 });
    expect(body.review[0]).toMatchObject({ traceId: 'hook-1', detector: 'TOOL_LOOP', confidence: 0.55 });
    expect(report.notes.join('\n')).not.toMatch(/webhook/);
  });

  it('is not called when nothing is left for review, nor when notify is false', async () => {
    const hook = await receiver(() => 200);
    const clean = makeTrace([tool('search', { args: { q: 'x' } })], { id: 'clean', output: 'ok' });
    await analyze([clean], { config: config(hook.url), baselines: false });
    await analyze([gray], { config: config(hook.url), baselines: false, notify: false });
    expect(hook.received).toEqual([]);
  });

  it('a 500 is retried, then given up: a note, the gate unaffected', async () => {
    const hook = await receiver(() => 500);
    const report = await analyze([gray], {
      config: config(hook.url, '    retries: 2\n    timeoutMs: 1000\n'),
      baselines: false,
    });
    expect(hook.received).toHaveLength(3);
    expect(report.gate.passed).toBe(true);
    const note = report.notes.find((n) => n.startsWith('review webhook'))!;
    expect(note).toMatch(
      /^review webhook http:\/\/127\.0\.0\.1:\d+ not reached after 3 attempts \(HTTP 500\): the 1 case for review/,
    );
    expect(note).not.toContain('s3cret');
  });

  it('a 500 then a 200 is delivered on the retry', async () => {
    const hook = await receiver((n) => (n === 1 ? 503 : 200));
    const result = await postReview(
      fakeReport('x'),
      { url: hook.url, retries: 3, timeoutMs: 1000 },
      {
        fetch,
        backoffBaseMs: 5,
      },
    );
    expect(result).toEqual({ delivered: true, attempts: 2 });
  });

  it('a 4xx other than 429 is not retried', async () => {
    const hook = await receiver(() => 400);
    const result = await postReview(
      fakeReport('x'),
      { url: hook.url, retries: 3, timeoutMs: 1000 },
      {
        fetch,
        backoffBaseMs: 5,
      },
    );
    expect(result).toEqual({ delivered: false, attempts: 1, error: 'HTTP 400' });
  });

  it('a receiver that never answers is bounded by timeoutMs per attempt', async () => {
    // The receiver never answers: without the per-attempt timeout this would not end (the test's
    // timeout is the bound); the result says each attempt gave up at timeoutMs.
    const hook = await receiver(() => 'hang');
    const result = await postReview(
      fakeReport('x'),
      { url: hook.url, retries: 1, timeoutMs: 150 },
      {
        fetch,
        backoffBaseMs: 10,
      },
    );
    expect(result).toEqual({ delivered: false, attempts: 2, error: 'no answer within 150 ms' });
    expect(hook.received).toHaveLength(2);
  });

  it('an unreachable receiver is a note-worthy error, never a throw', async () => {
    const failing: typeof fetch = () => Promise.reject(new Error('connect ECONNREFUSED'));
    const result = await postReview(
      fakeReport('x'),
      { url: 'http://127.0.0.1:9/', retries: 1, timeoutMs: 100 },
      {
        fetch: failing,
        backoffBaseMs: 1,
      },
    );
    expect(result).toMatchObject({ delivered: false, attempts: 2, error: 'connect ECONNREFUSED' });
  });

  it('sends the review list redacted', () => {
    const payload = reviewPayload(fakeReport('api_key=sk-proj-abcdefghijklmnopqrstuvwx leaked'));
    const text = JSON.stringify(payload);
    expect(text).not.toContain('sk-proj-abcdefghijklmnopqrstuvwx');
    expect(text).toContain('[REDACTED]');
  });
});

function fakeReport(reason: string): Report {
  return {
    tool: { name: 'tracejury', version: '0.0.0' },
    generatedAt: '2026-01-01T00:00:00.000Z',
    inputs: { files: 0, traces: 1, records: 1, errors: [], errorCount: 0, formats: {} },
    gate: { passed: true, reasons: [] },
    review: [{ traceId: 't', detector: 'TOOL_LOOP', reason, evidence: { note: reason } }],
  } as unknown as Report;
}
