/**
 * The escalate stage: each trace's gray-zone signals go up the tiers — state deltas (tier 2, free
 * and deterministic), embeddings (tier 3), the tribunal (tier 4) — until one decides them; what no
 * tier decides is left for review. `prepareEscalation` makes the tiers a run uses once,
 * `escalateTrace` decides one trace, and `escalationOutcome` says what the tiers cost and what
 * the report should note about them.
 */
import type { Config } from '../../config/config.js';
import { GRAY_ZONE_LOWER, isGrayZone } from '../../detect/grayZone.js';
import { findDetector } from '../../detect/registry.js';
import type { DetectorRunner } from '../../detect/runner.js';
import type { Signal } from '../../detect/signal.js';
import { createEmbeddingCache, withCache } from '../../embed/cache.js';
import type { Embedder } from '../../embed/embedder.js';
import { createLexicalEmbedder } from '../../embed/lexicalEmbedder.js';
import { createOpenAIEmbedder } from '../../embed/openaiEmbedder.js';
import { cassetteModeFromEnv, type CassetteMode } from '../../judge/cassette.js';
import {
  assertJudgesAllowed,
  createTribunalSession,
  type TribunalSession,
  type TribunalStats,
} from '../../judge/tribunal.js';
import type { Verdict } from '../../judge/verdict.js';
import type { Pricer } from '../../pricing/pricer.js';
import { tribunalSettingsFor } from '../../runSetup.js';
import { escalateWithEmbeddings } from '../../tiers/embeddings.js';
import { budgetReason, escalateGrayZone } from '../../tiers/escalate.js';
import { judgesFor, routedJudges, type RoutingConfig } from '../../tiers/routing.js';
import { applyStateDeltas } from '../../tiers/stateDeltas.js';
import type { TraceResult } from '../protocol.js';
import type { Decided } from './decided.js';

/** The empty list every trace without dismissals or verdicts shares (thousands may be held). */
const NONE: readonly never[] = [];

export interface EscalationInput {
  config: Config;
  stateDir: string;
  cwd: string;
  /** false: tiers 3 and 4 do not run (`baseline update`); tier 2 still does. */
  escalate: boolean;
  /** A tribunal session to share (one circuit breaker per run); made from config when absent. */
  tribunal?: TribunalSession;
  /** Tier 3's embedder instead of the one config names. */
  embedder?: Embedder;
  /** Where judges read API keys, and TRACEJURY_CASSETTE its mode (default process.env). */
  env?: Record<string, string | undefined>;
  /** The judge cassette's mode, over TRACEJURY_CASSETTE and the config's. */
  cassette?: CassetteMode;
  /** The command that runs this again, for the message of a cassette miss. */
  rerunCommand?: string;
}

/** The tiers a run escalates through, and what they have done so far. */
export interface Escalation {
  /** Detectors whose gray-zone signals tier 2 (state deltas) decides. */
  stateDeltas: ReadonlySet<string>;
  embedder?: Embedder;
  tribunal?: TribunalSession;
  noDowngrade: ReadonlySet<string>;
  routing: RoutingConfig;
  budgetUsd?: number;
  /** Every verdict of the run, in the order the traces were decided. */
  verdicts: Verdict[];
  tier3: { checked: number; failures: { count: number; first?: string } };
  /** Gray-zone cases not escalated because the judges' budget was spent. */
  overBudget: number;
  /**
   * The judges failure attribution asks in its gray zone: a session of their own, so that their
   * answers (or a cassette without them yet) never trip the detectors' circuit breaker; the same
   * cassette file, and their spend is added to the run's.
   */
  attributionTribunal?: TribunalSession;
}

/** The tribunal session for a run, when judges are configured and escalation is on. */
function tribunalFor(given: EscalationInput): TribunalSession | undefined {
  const { config } = given;
  if (!config.tribunal || !config.tiers.escalate) return undefined;
  const routed = routedJudges(config.tribunal);
  if (config.tribunal.judges.length === 0 && routed.length === 0) return undefined;
  // Route judges are checked before the run, as `judges` are, not at their first case.
  assertJudgesAllowed(routed, config.tribunal.allowedModels);
  const { env } = given;
  const settings = tribunalSettingsFor(config, given.stateDir, given.cwd);
  // The run's own choice (--cassette, then TRACEJURY_CASSETTE) over the config's: recording is one command.
  const mode = given.cassette ?? cassetteModeFromEnv(env ?? process.env);
  return createTribunalSession({
    ...settings,
    ...(mode && settings.cassette ? { cassette: { ...settings.cassette, mode } } : {}),
    ...(env ? { env } : {}),
    ...(given.rerunCommand ? { rerunCommand: given.rerunCommand } : {}),
  });
}

/** Tier 3's embedder: config's `embeddings:` endpoint behind the cache, or the free offline one. */
function embedderFor(config: Config, stateDir: string, env?: Record<string, string | undefined>): Embedder {
  if (!config.embeddings) return createLexicalEmbedder();
  return withCache(
    createOpenAIEmbedder({ ...config.embeddings, ...(env ? { env } : {}) }),
    createEmbeddingCache({ stateDir }),
  );
}

export function prepareEscalation(given: EscalationInput): Escalation {
  const { config } = given;
  const tribunal = given.escalate ? (given.tribunal ?? tribunalFor(given)) : undefined;
  const attributionTribunal =
    tribunal && config.attribution.enabled && config.attribution.tribunal
      ? (tribunalFor(given) ?? tribunal)
      : undefined;
  // Tier 3 runs whenever escalation is on: the offline embedder is free.
  const embedder =
    !given.escalate || !config.tiers.escalate
      ? undefined
      : (given.embedder ?? embedderFor(config, given.stateDir, given.env));
  return {
    // Tier 2 is free and deterministic: it runs whatever `escalate` says, for the detectors listed.
    stateDeltas: new Set(config.tiers.stateDeltas),
    ...(embedder ? { embedder } : {}),
    ...(tribunal ? { tribunal } : {}),
    ...(attributionTribunal ? { attributionTribunal } : {}),
    noDowngrade: new Set(config.tiers.noDowngrade),
    routing: config.tribunal ?? {},
    ...(config.tiers.budgetUsd !== undefined ? { budgetUsd: config.tiers.budgetUsd } : {}),
    verdicts: [],
    tier3: { checked: 0, failures: { count: 0 } },
    overBudget: 0,
  };
}

/** Whether a gray-zone trace must travel with its results: some tier will read it. */
export function readsGrayZoneTraces(e: Escalation): boolean {
  return e.stateDeltas.size > 0 || e.tribunal !== undefined || e.embedder !== undefined;
}

const describe = (id: string) => findDetector(id)?.meta;

/** One trace through the tiers: its final signals, what the tiers dismissed, its verdicts. */
export async function escalateTrace(
  result: TraceResult,
  e: Escalation,
  runner: DetectorRunner,
): Promise<Decided> {
  let signals = result.signals;
  let dismissed: readonly Signal[] = NONE;
  let traceVerdicts: readonly Verdict[] = NONE;
  const escalatable = result.trace ?? result.loaded?.trace;
  if (e.stateDeltas.size > 0 && escalatable && signals.some(isGrayZone)) {
    // Signals tier 2 resolved below the gray zone are no failure: they are not in t2.signals.
    const t2 = applyStateDeltas(escalatable, signals, e.stateDeltas);
    signals = t2.signals;
    if (t2.cleared.length > 0) dismissed = [...dismissed, ...t2.cleared];
  }
  if (e.embedder && escalatable && signals.some(isGrayZone)) {
    const t3 = await escalateWithEmbeddings(escalatable, signals, {
      embedder: e.embedder,
      noDowngrade: e.noDowngrade,
      describe,
    });
    e.tier3.checked += t3.checked;
    if (t3.error) {
      e.tier3.failures.count++;
      e.tier3.failures.first ??= t3.error;
    }
    // Signals tier 3 resolved below the gray zone are no failure: they are not in t3.signals.
    signals = t3.signals;
    if (t3.cleared.length > 0) dismissed = [...dismissed, ...t3.cleared];
  }
  if (e.tribunal && escalatable && signals.some(isGrayZone)) {
    const escalated = await escalateGrayZone(escalatable, signals, {
      session: e.tribunal,
      noDowngrade: e.noDowngrade,
      describe,
      route: (failureMode) => judgesFor(failureMode, e.routing),
      ...(e.budgetUsd !== undefined ? { budgetUsd: e.budgetUsd } : {}),
    });
    e.overBudget += escalated.overBudget;
    // A judge that clears a signal below the gray zone resolves it: the verdict stays, the signal goes.
    signals = escalated.signals.filter((s) => s.confidence >= GRAY_ZONE_LOWER);
    const cleared = escalated.signals.filter((s) => s.confidence < GRAY_ZONE_LOWER);
    if (cleared.length > 0) dismissed = [...dismissed, ...cleared];
    for (const v of escalated.verdicts) e.verdicts.push(v);
    traceVerdicts = escalated.verdicts;
  }
  // Escalation decided gray-zone signals: who charges each wasted call follows what it decided
  // (a loop that became a finding charges its calls, unless one before it in priority does).
  if (escalatable && signals !== result.signals) signals = runner.settleWaste(escalatable, signals);
  // What the report still needs of the trace: a held result must not keep the trace itself
  // (sent along for escalation), only the caller's onTrace may.
  const { trace: _escalated, signals: _detected, order: _order, baselineRun: _run, ...kept } = result;
  return { result: kept, signals, dismissed, verdicts: traceVerdicts };
}

/** What tier 3 cost, and the notes that go with it (which embedder; unpriced tokens; failures). */
function tier3Outcome(
  embedder: Embedder,
  pricer: Pricer,
  { checked, failures }: Escalation['tier3'],
): { usd?: number; notes: string[] } {
  if (checked === 0) return { notes: [] };
  const notes: string[] = [];
  let usd = 0;
  if (embedder.offline) {
    notes.push('tier 3 used the offline lexical embedder; configure embeddings: for a model');
  } else {
    const tokens = embedder.usage?.().tokens ?? 0;
    const rates = embedder.model ? pricer.rates(embedder.model) : undefined;
    if (rates) usd = tokens * rates.inputPerToken;
    else if (tokens > 0)
      notes.push(
        `tier 3 spent ${tokens} embedding tokens on ${embedder.model ?? embedder.name}, which the price table does not price ` +
          '(add it under prices: to count it); cost.byTier.3 counts it as 0',
      );
  }
  if (failures.count > 0)
    notes.push(
      `tier 3 embeddings failed on ${failures.count} trace${failures.count === 1 ? '' : 's'} (${failures.first}); ` +
        'their gray-zone signals went on without it',
    );
  return { usd, notes };
}

/**
 * Escalated cases whose judges never ran — every judge failed before any HTTP answer for want of a
 * key or a cassette entry — so the verdict is INDETERMINATE by configuration, not by judgement.
 */
function judgesThatNeverRan(verdicts: readonly Verdict[]): {
  judgesNotRun?: { cases: number; reason: string };
} {
  const notRun = verdicts.filter(
    (v) =>
      v.indeterminate &&
      v.judges.length > 0 &&
      v.judges.every((j) => j.httpStatus === 0 && /^(?:no cassette entry|cannot record)/.test(j.error ?? '')),
  );
  if (notRun.length === 0) return {};
  return { judgesNotRun: { cases: notRun.length, reason: notRun[0]!.judges[0]!.error! } };
}

/**
 * The run's judge statistics with another session's spend added (attribution's judges): calls,
 * cached calls and dollars per model. Verdict counts and the breaker stay the first session's:
 * they are about the detectors' gray zone, which the report's notes describe.
 */
function withSpendOf(
  stats: TribunalStats | undefined,
  other: TribunalStats | undefined,
): TribunalStats | undefined {
  if (!stats || !other || other.judgeCalls === 0) return stats;
  const costByModel = { ...stats.costByModel };
  for (const [key, m] of Object.entries(other.costByModel)) {
    const into = costByModel[key];
    costByModel[key] = into
      ? {
          ...into,
          calls: into.calls + m.calls,
          cachedCalls: into.cachedCalls + m.cachedCalls,
          usd: into.usd + m.usd,
        }
      : { ...m };
  }
  return {
    ...stats,
    judgeCalls: stats.judgeCalls + other.judgeCalls,
    cachedJudgeCalls: stats.cachedJudgeCalls + other.cachedJudgeCalls,
    judgeUsd: stats.judgeUsd + other.judgeUsd,
    costByModel,
  };
}

/** What escalation hands the report once every trace is decided. */
export interface EscalationOutcome {
  verdicts: Verdict[];
  judgeStats?: TribunalStats;
  /** What tier 3 cost, when it ran. */
  tier3Usd?: number;
  judgesNotRun?: { cases: number; reason: string };
  /** Tier 3's notes, the circuit breaker's and the budget's, in that order. */
  notes: string[];
}

/** Ends the run's escalation: the tribunal's cassette written, its costs and notes. */
export async function escalationOutcome(e: Escalation, pricer: Pricer): Promise<EscalationOutcome> {
  const tier3 = e.embedder ? tier3Outcome(e.embedder, pricer, e.tier3) : { notes: [] };
  const notes = [...tier3.notes];
  const judgeStats = withSpendOf(
    e.tribunal?.stats(),
    e.attributionTribunal === e.tribunal ? undefined : e.attributionTribunal?.stats(),
  );
  if (e.tribunal) await e.tribunal.flush();
  if (e.attributionTribunal && e.attributionTribunal !== e.tribunal) await e.attributionTribunal.flush();
  if (judgeStats?.circuitOpen) {
    notes.push(
      `tribunal circuit breaker opened: ${judgeStats.indeterminate} of ${judgeStats.verdicts} verdicts were INDETERMINATE (over 10 %); ` +
        `${judgeStats.circuitOpenVerdicts} later case(s) got stages 0–1 only and are listed for review`,
    );
  }
  if (e.overBudget > 0 && e.budgetUsd !== undefined) {
    notes.push(
      `${budgetReason(e.budgetUsd)} (tiers.budgetUsd; judges spent $${(judgeStats?.judgeUsd ?? 0).toFixed(4)}): ` +
        `${e.overBudget} later gray-zone case${e.overBudget === 1 ? ' was' : 's were'} not escalated and ${e.overBudget === 1 ? 'is' : 'are'} listed for review`,
    );
  }
  return {
    verdicts: e.verdicts,
    ...(judgeStats ? { judgeStats } : {}),
    ...(tier3.usd !== undefined ? { tier3Usd: tier3.usd } : {}),
    ...judgesThatNeverRan(e.verdicts),
    notes,
  };
}
