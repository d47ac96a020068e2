/**
 * The report stage: once every trace is in, the baselines account, the run's notes (config,
 * baselines, the input, detectors that failed, escalation) and the finished Report v1 with its
 * gate; then, when config names a review webhook, the review list is posted to it.
 */
import { baselineAccount } from '../../baseline/account.js';
import { baselineNotes, type BaselineFile } from '../../baseline/store.js';
import type { Config } from '../../config/config.js';
import { unmatchedAgentSections } from '../../config/unmatchedAgents.js';
import type { DetectorRunner } from '../../detect/runner.js';
import type { Severity } from '../../detect/signal.js';
import { redact } from '../../redact/redact.js';
import { postReview, webhookNote } from '../../report/reviewWebhook.js';
import type { Report } from '../../report/schema.js';
import { withReviewList } from '../../report/spilledReport.js';
import { STDIN_NAME, type LoadStats } from '../../trace/load.js';
import { fmtInt } from '../../util/thousands.js';
import type { RunOutcome } from '../protocol.js';
import type { RunCollector } from './collect.js';
import { MAX_HELD_TRACES, type DeferredBaselines } from './deferredBaselines.js';
import type { EscalationOutcome } from './escalate.js';

/** Detector failures listed one by one in the notes; each failing detector gets at least one. */
const MAX_FAILURES_LISTED = 20;

export interface ReportStageInput {
  config: Config;
  /** The baseline store, and the base report's good runs when one was given. */
  store: BaselineFile;
  baseReportBaselines?: BaselineFile;
  runner: DetectorRunner;
  collector: RunCollector;
  loaded: RunOutcome;
  deferred: DeferredBaselines;
  escalation: EscalationOutcome;
  /** Severities of findings that fail the gate (the CLI's --fail-on), over the config's. */
  failOn?: readonly Severity[];
  /** Input errors are listed but do not fail the gate, over the config's failOn.inputErrors. */
  allowInputErrors?: boolean;
}

/**
 * Input errors by file (in the order the paths expanded to) and line, and the loader's notes
 * sorted: the order errors were met in depends on which thread met them, the report must not.
 */
function inCanonicalOrder(stats: LoadStats, maxErrors = 1000): void {
  const rank = new Map(stats.fileNames.map((name, i) => [name, i]));
  const rankOf = (file: string) => (file === STDIN_NAME ? stats.fileNames.length : (rank.get(file) ?? -1));
  stats.errors.sort((a, b) => rankOf(a.file) - rankOf(b.file) || (a.line ?? 0) - (b.line ?? 0));
  if (stats.errors.length > maxErrors) stats.errors.length = maxErrors;
  stats.notes.sort();
}

/**
 * The gate names every detector that failed and says "see notes": each gets at least one note,
 * and the rest are listed up to a bound (a detector may fail on every trace).
 */
function failureNotes(failures: RunOutcome['failures']): string[] {
  const notes: string[] = [];
  const noted = new Set<string>();
  let listed = 0;
  for (const f of failures) {
    if (listed >= MAX_FAILURES_LISTED && noted.has(f.detector)) continue;
    noted.add(f.detector);
    listed++;
    notes.push(`detector ${f.detector} failed on trace ${f.traceId}: ${f.message} (please report this)`);
  }
  if (failures.length > listed) {
    const more = failures.length - listed;
    notes.push(`${more} more detector failure${more === 1 ? ' is' : 's are'} not listed`);
  }
  return notes;
}

export function finishReport(given: ReportStageInput): Report {
  const { config, collector, loaded, deferred, escalation } = given;
  const { stats } = loaded;
  const inputBaselines = deferred.inputBaselines();
  const baselineUse = baselineAccount(
    collector.agentsSeen.values(),
    given.runner.baselineDetectors,
    {
      store: given.store,
      ...(given.baseReportBaselines ? { baseReport: given.baseReportBaselines } : {}),
      ...(inputBaselines ? { input: inputBaselines } : {}),
    },
    config.baselines,
  );
  // Agents whose detectors fell back to static thresholds: the store's notes say how far it is.
  const staticAgents = baselineUse
    .filter((u) => Object.values(u.detectors).some((d) => d.source === 'static'))
    .map((u) => u.agent);

  inCanonicalOrder(stats);
  const notes = [
    ...config.warnings,
    ...unmatchedAgentSections(config, collector.agentIdsSeen),
    ...baselineNotes(given.store, staticAgents, config.baselines),
    ...stats.notes,
  ];
  const readAfter = deferred.readAfter();
  if (readAfter > 0)
    notes.push(
      `more than ${fmtInt(MAX_HELD_TRACES)} traces waited for their agent's baselines from the input: ` +
        `the ${fmtInt(readAfter)} read after were judged against the good runs read before them, ` +
        'not the whole input (memory stays bounded); a baseline store (`tracejury baseline update`) avoids this',
    );
  if (stats.notesDropped > 0)
    notes.push(
      `${stats.notesDropped} more note${stats.notesDropped === 1 ? '' : 's'} about reading the input are not listed`,
    );
  notes.push(...failureNotes(loaded.failures), ...escalation.notes);
  return collector.report.finish({
    stats,
    unknownModels: loaded.unknownModels,
    failOn: given.failOn ?? config.failOn,
    allowInputErrors: given.allowInputErrors ?? !config.failOnInputErrors,
    failOnOutcome: config.failOnOutcome,
    notes,
    verdicts: escalation.verdicts,
    judgeStats: escalation.judgeStats,
    ...(escalation.tier3Usd !== undefined ? { tier3Usd: escalation.tier3Usd } : {}),
    ...(escalation.judgesNotRun ? { judgesNotRun: escalation.judgesNotRun } : {}),
    tribunalRequired: config.tribunal?.required ?? false,
    detectorFailures: loaded.failures,
    sessions: collector.sessions.scores(config.sessions),
    failOnSessions: config.sessions.failGate,
    sessionCoverage: collector.sessions.coverage(),
    baselines: baselineUse,
  });
}

/** POSTs the review list to config's `review.webhook`; a failed delivery becomes a note. */
export async function notifyReviewers(
  report: Report,
  config: Config,
  fetch: typeof globalThis.fetch,
): Promise<void> {
  const webhook = config.review?.webhook;
  if (!webhook) return;
  // A CLI JSON report's review list is in a temporary file: read back only when it is sent.
  const listed = withReviewList(report);
  if (listed.review.length === 0) return;
  const result = await postReview(listed, webhook, { fetch });
  if (!result.delivered) report.notes.push(redact(webhookNote(listed, webhook, result)));
}
