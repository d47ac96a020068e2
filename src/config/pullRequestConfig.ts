/**
 * A pull request's tracejury.yml, held to the base branch's wherever it chooses where something
 * is sent or what it costs the job: a PR may narrow those keys, never widen them. A PR may change
 * thresholds, detectors, rubrics (its own head report is its author's to shape anyway, and a
 * reviewer sees the change); it may not make the Action send the job's keys, its traces or its
 * review list anywhere the base branch does not already send them.
 *
 * - Judges (`tribunal.judges`, `tribunal.routes.*.judges`): only those the base branch's config
 *   also has, identical (provider, model, baseURL, apiKeyEnv, apiKey); any other is dropped. A PR
 *   can remove a judge, not add one or change its endpoint, key or model.
 * - `tribunal.cassette.mode`: the narrower of the two (replay < auto < record), so a PR's `record`
 *   makes no live judge call the base branch's `replay` or `auto` would not; `replay` without a
 *   tribunal on the base branch.
 * - `embeddings:` and `review:` (the webhook): the PR's section when it equals the base branch's or
 *   is removed; otherwise the base branch's (none, when it has none).
 *
 * Why narrowing rather than the base branch's copy alone: a PR that legitimately drops a judge or
 * tightens the cassette to `replay` still runs as written, and every key that sends nothing stays
 * the PR's; what it cannot do is reach an endpoint, a key or a spend the base branch has not chosen.
 * Each key narrowed is a note, for the Action to log. Pure: the Action reads both files.
 */
import type { CassetteMode } from '../judge/cassette.js';
import type { JudgeSpec } from '../judge/providers.js';
import type { Config } from './config.js';

/** From the narrowest (no live call) to the widest (every judge called). */
const MODE_WIDTH: Record<CassetteMode, number> = { replay: 0, auto: 1, record: 2 };

/** The narrower of two cassette modes. */
export function narrowerMode(a: CassetteMode, b: CassetteMode): CassetteMode {
  return MODE_WIDTH[a] <= MODE_WIDTH[b] ? a : b;
}

/** A value as JSON with its keys sorted: equal for equal settings whatever order they were written in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** What identifies a judge's endpoint and spend: everything in its spec. */
const judgeKey = (j: JudgeSpec) =>
  canonical({
    provider: j.provider,
    model: j.model,
    baseURL: j.baseURL,
    apiKeyEnv: j.apiKeyEnv,
    apiKey: j.apiKey,
  });

/** Where a judge sends, for a note (never its key). */
const judgeLabel = (j: JudgeSpec) =>
  `${j.provider} ${j.model}${j.baseURL ? ` at ${j.baseURL}` : ''}${j.apiKeyEnv ? ` with $${j.apiKeyEnv}` : ''}${j.apiKey ? ' with a key of its own' : ''}`;

function allJudges(tribunal: Config['tribunal']): JudgeSpec[] {
  if (!tribunal) return [];
  const routes = tribunal.routes ?? {};
  return [...tribunal.judges, ...Object.values(routes).flatMap((r) => r?.judges ?? [])];
}

export interface NarrowedConfig {
  config: Config;
  /** One line per key narrowed, naming the file and the key. */
  notes: string[];
  /** Whether a judge of the PR's was dropped (its tribunal is not the base branch's). */
  judgesDropped: boolean;
}

/**
 * `head` (the PR's config) narrowed to `base` (the base branch's; undefined when it has none or it
 * could not be read, which allows nothing).
 */
export function narrowToBase(head: Config, base: Config | undefined): NarrowedConfig {
  const notes: string[] = [];
  const file = head.file ?? 'tracejury.yml';
  const baseName = "the base branch's config";
  let judgesDropped = false;
  let tribunal = head.tribunal;
  if (tribunal) {
    const allowed = new Set(allJudges(base?.tribunal).map(judgeKey));
    const keep = (judges: readonly JudgeSpec[], where: string): JudgeSpec[] =>
      judges.filter((j, i) => {
        if (allowed.has(judgeKey(j))) return true;
        judgesDropped = true;
        notes.push(
          `${file}: ${where}[${i}] (${judgeLabel(j)}) is not a judge of ${baseName}: dropped for this pull request (a pull request may remove a judge, not add or change one)`,
        );
        return false;
      });
    const routes = Object.fromEntries(
      Object.entries(tribunal.routes ?? {}).flatMap(([route, set]) => {
        const judges = keep(set?.judges ?? [], `tribunal.routes.${route}.judges`);
        return judges.length > 0 ? [[route, { judges }]] : [];
      }),
    );
    const baseMode: CassetteMode = base?.tribunal?.cassette.mode ?? 'replay';
    const mode = narrowerMode(tribunal.cassette.mode, baseMode);
    if (mode !== tribunal.cassette.mode)
      notes.push(
        `${file}: tribunal.cassette.mode: ${tribunal.cassette.mode} narrowed to ${mode}, ${base?.tribunal ? `${baseName}'s` : `as ${baseName} has no tribunal`} (no live judge call the base branch would not make)`,
      );
    tribunal = {
      ...tribunal,
      judges: keep(tribunal.judges, 'tribunal.judges'),
      ...(tribunal.routes ? { routes } : {}),
      cassette: { ...tribunal.cassette, mode },
    };
  }

  let embeddings = head.embeddings;
  if (embeddings && canonical(embeddings) !== canonical(base?.embeddings)) {
    notes.push(
      `${file}: embeddings: differs from ${baseName}'s: ${base?.embeddings ? `its ${base.embeddings.model}${base.embeddings.baseURL ? ` at ${base.embeddings.baseURL}` : ''} is used` : 'the offline embedder is used'} (a pull request may not choose an endpoint or a key)`,
    );
    embeddings = base?.embeddings;
  }
  let review = head.review;
  if (review?.webhook && canonical(review.webhook) !== canonical(base?.review?.webhook)) {
    notes.push(
      `${file}: review.webhook: differs from ${baseName}'s: ${base?.review?.webhook ? "the base branch's webhook is used" : 'no review list is sent'} (a pull request may not choose where it goes)`,
    );
    review = base?.review;
  }

  const { tribunal: _t, embeddings: _e, review: _r, ...rest } = head;
  return {
    config: {
      ...rest,
      ...(tribunal ? { tribunal } : {}),
      ...(embeddings ? { embeddings } : {}),
      ...(review ? { review } : {}),
    },
    notes,
    judgesDropped,
  };
}
