/**
 * Markdown for PR comments and job summaries. Every line is built with `safeMd` (redact/markdown.ts):
 * whatever came from a report or a trace is redacted and escaped on the way in, and the result
 * stays under GitHub's comment limit, saying what was cut.
 */
import { cutMarkdown, joinMd, safeMd, mdCode, mdText, type Markdown } from '../redact/markdown.js';
import type { Report } from './schema.js';
import { builtInFix, gateAllowance } from './renderText.js';
import {
  baselinesLine,
  decisionsLine,
  failingFindings,
  formatCost,
  formatWaste,
  unmeasuredCallsLine,
  formatUsd,
  gateThreshold,
  testGateLine,
  groupSignals,
  outcomeLine,
  precisionRows,
  sessionCoverageText,
  sessionRows,
  sessionScoreText,
  severityMix,
  stepsText,
} from './summarise.js';
import { failedRuns, rootCauseBasis, rootCauseText, tallyText } from './rootCauses.js';
import { verdictCounts, verdictCountsText } from './verdictText.js';
import { fmtInt, plural } from '../util/thousands.js';

/** GitHub rejects comments over 65,536 characters; keep a margin for the marker and note. */
export const MARKDOWN_LIMIT = 60_000;

/** Failing traces listed under the gate; the rest are counted. */
const MAX_FAILING_ROWS = 100;

/** Where the CLI's reader finds what a cut list left out. */
const CLI_SEE_ALSO = safeMd`--format json or --limit`;

export interface MarkdownOptions {
  limit?: number;
  title?: string;
  /** A detector's fix hint; by default the built-in registry's `meta.fix`. */
  fixFor?: (detector: string) => string | undefined;
  /** Items every list shows (examples per detector, failing traces, review cases): --limit. */
  listLimit?: number;
  /** Where the rest of a cut list is (default the CLI's "--format json or --limit"); a string is shown as text. */
  seeAlso?: string | Markdown;
}

/** The note a cut text ends with. */
export function cutNote(limit: number, seeAlso: string | Markdown): Markdown {
  return safeMd`\n\n_…cut to ${fmtInt(limit)} characters; for the rest, see ${seeAlso}._\n`;
}

export function renderMarkdown(report: Report, options: MarkdownOptions = {}): string {
  return reportMarkdown(report, options).source;
}

/** The report as markdown (what renderMarkdown returns as a string), for renderers that embed it. */
export function reportMarkdown(report: Report, options: MarkdownOptions = {}): Markdown {
  const seeAlso = options.seeAlso ?? CLI_SEE_ALSO;
  const limit = options.limit ?? MARKDOWN_LIMIT;
  const blank = safeMd``;
  const out: Markdown[] = [];
  const { inputs, totals, waste } = report;
  out.push(
    safeMd`### ${options.title ?? 'tracejury'} ${
      report.gate.passed ? safeMd`✅ passed${gateAllowance(report)}` : safeMd`❌ failed`
    }`,
    blank,
  );
  out.push(
    safeMd`${plural(inputs.traces, 'trace')} from ${plural(inputs.files, 'file')} · cost **${formatCost(totals)}** · waste **${formatWaste(report)}** (${fmtInt(waste.totalTokens)} tokens)`,
  );
  if (report.outcomes) out.push(blank, safeMd`${outcomeLine(report.outcomes)}`);
  // A Vitest run's gate is its tests, not the severities of its findings.
  out.push(blank, safeMd`Gate: ${report.testRun ? testGateLine(report.testRun) : gateThreshold(report)}`);
  if (!report.gate.passed) out.push(blank, ...report.gate.reasons.map((r) => safeMd`- ${r}`));
  if (report.testRun)
    out.push(blank, ...testRunMarkdown(report, options.listLimit ?? MAX_FAILING_ROWS, seeAlso));
  // Every trace that made the gate fail, one line each (cut, with a count, past MAX_FAILING_ROWS).
  // In a test run the tests are the gate (listed above); findings fail it only through matchers.
  const failing = report.testRun ? [] : failingFindings(report);
  const maxFailing = options.listLimit ?? MAX_FAILING_ROWS;
  const maxReview = options.listLimit ?? 50;
  if (failing.length > 0) {
    out.push(blank, safeMd`| detector | trace | file | steps |`, safeMd`|---|---|---|---|`);
    for (const s of failing.slice(0, maxFailing))
      out.push(
        safeMd`| ${mdCode(s.detector)} | ${mdText(s.traceId, 80)} | ${s.file ? mdText(s.file, 120) : '–'} | ${stepsText(s.steps) || '–'} |`,
      );
    if (failing.length > maxFailing)
      out.push(
        blank,
        safeMd`_… and ${fmtInt(failing.length - maxFailing)} more failing traces (${seeAlso})._`,
      );
  }
  out.push(...rootCauseMarkdown(report, options.listLimit ?? MAX_ROOT_CAUSE_ROWS, seeAlso));
  // The judges, counted: each verdict with its judges' reasoning is in the text and HTML reports.
  if (report.verdicts.length > 0)
    out.push(blank, safeMd`**Judges**: ${verdictCountsText(verdictCounts(report.verdicts))}`);
  if (inputs.errorCount > 0)
    out.push(
      blank,
      safeMd`> ⚠️ ${plural(inputs.errorCount, 'input record')} could not be read; the rest were analysed.`,
    );

  const groups = groupSignals(report, options.listLimit ?? 3);
  if (groups.length > 0) {
    out.push(
      blank,
      safeMd`| detector | severity | signals | traces | waste |`,
      safeMd`|---|---|---:|---:|---:|`,
    );
    for (const g of groups) {
      const extra = [
        severityMix(g),
        g.shadow ? `${g.shadow} shadow` : '',
        g.grayZone ? `${g.grayZone} review` : '',
      ]
        .filter(Boolean)
        .join(', ');
      out.push(
        safeMd`| ${mdCode(g.detector)} | ${g.severity} | ${fmtInt(g.count)}${extra ? safeMd` (${extra})` : ''} | ${fmtInt(g.traces)} | ${g.wasteUsd > 0 ? formatUsd(g.wasteUsd) : '–'} |`,
      );
    }
    // What to do, once per detector, visible under the table (the examples are folded away).
    const fixFor = options.fixFor ?? builtInFix;
    const fixes = groups.flatMap((g) => {
      const fix = fixFor(g.detector);
      return fix ? [safeMd`- **${mdCode(g.detector)}**: ${fix}`] : [];
    });
    if (fixes.length > 0) out.push(blank, safeMd`**What to do**`, blank, ...fixes);
    const details: Markdown[] = [blank, safeMd`<details><summary>Examples</summary>`, blank];
    for (const g of groups) {
      for (const s of g.examples)
        details.push(
          safeMd`- ${mdCode(g.detector)}${s.shadow ? safeMd` _(shadow)_` : ''} ${mdText(s.traceId, 80)}${s.file ? safeMd` (${mdText(s.file, 120)})` : ''}: ${s.message}`,
        );
      const more = g.count + g.shadow - g.examples.length;
      if (more > 0) details.push(safeMd`- _… and ${fmtInt(more)} more ${mdCode(g.detector)} (${seeAlso})_`);
    }
    details.push(blank, safeMd`</details>`);
    // Groups whose signals are all for review or suppressed have no examples to show.
    if (details.length > 5) out.push(...details);
  } else {
    out.push(blank, safeMd`No signals.`);
  }
  const precision = precisionRows(report);
  if (precision.length > 0) {
    out.push(
      blank,
      safeMd`Findings against recorded outcomes (precision = findings on failed runs / all findings on runs with an outcome):`,
      blank,
      safeMd`| detector | on failed runs | on successful runs | precision |`,
      safeMd`|---|---:|---:|---:|`,
    );
    for (const r of precision)
      out.push(
        safeMd`| ${mdCode(r.detector)} | ${fmtInt(r.onFailed)} | ${fmtInt(r.onSucceeded)} | ${r.precision} |`,
      );
  }
  const sessions = sessionRows(report);
  if (sessions.length > 0) {
    const failed = sessions.filter((r) => !r.passed).length;
    const maxSessions = options.listLimit ?? 10;
    out.push(
      blank,
      safeMd`**Sessions** (${fmtInt(sessions.length)}${failed > 0 ? safeMd`, ${fmtInt(failed)} below threshold` : ''}; worst first)`,
      blank,
      safeMd`| | session | traces | reliability | consistency |`,
      safeMd`|---|---|---:|---|---|`,
    );
    const cell = (metric: string, v: Parameters<typeof sessionScoreText>[1] | undefined) =>
      v ? sessionScoreText(metric, v).slice(metric.length + 1) : '–';
    for (const r of sessions.slice(0, maxSessions))
      out.push(
        safeMd`| ${r.passed ? '✅' : '❌'} | ${mdText(r.sessionId, 80)}${r.test ? safeMd` (${mdText(r.test, 80)})` : ''} | ${fmtInt(r.traces)} | ${cell('reliability', r.reliability)} | ${cell('consistency', r.consistency)} |`,
      );
    if (sessions.length > maxSessions)
      out.push(blank, safeMd`_… and ${fmtInt(sessions.length - maxSessions)} more sessions (${seeAlso})_`);
  }
  const coverage = sessionCoverageText(report);
  if (coverage) out.push(blank, safeMd`_Sessions: ${coverage}._`);
  if (report.review.length > 0) {
    out.push(blank, safeMd`<details><summary>For review (${report.review.length})</summary>`, blank);
    for (const r of report.review.slice(0, maxReview))
      out.push(
        safeMd`- ${r.detector ? safeMd`${mdCode(r.detector)} ` : ''}${
          r.shadow ? safeMd`_(shadow)_ ` : ''
        }${mdText(r.traceId, 80)}${r.file ? safeMd` (${mdText(r.file, 120)})` : ''}: ${r.reason}`,
      );
    if (report.review.length > maxReview)
      out.push(safeMd`- _… and ${fmtInt(report.review.length - maxReview)} more (${seeAlso})_`);
    out.push(blank, safeMd`</details>`);
  }
  if (totals.unknownModels.length > 0) {
    out.push(
      blank,
      safeMd`Unpriced models: ${joinMd(
        totals.unknownModels.map((u) => mdText(u.model, 60)),
        safeMd`, `,
      )}`,
    );
  }
  const unmeasured = unmeasuredCallsLine(totals);
  if (unmeasured) out.push(blank, safeMd`Unpriced calls: ${unmeasured}.`);
  const decided = decisionsLine(report);
  if (decided) out.push(blank, mdText(decided, 1000));
  const baselines = baselinesLine(report);
  if (baselines) out.push(blank, mdText(baselines, 1000));
  return cutMarkdown(safeMd`${joinMd(out)}\n`, limit, cutNote(limit, seeAlso));
}

/** pass^k for k = 1..n as "0.90 · 0.81 · 0.73". */
/** Failed runs whose root cause is listed before the list is cut (the JSON has them all). */
const MAX_ROOT_CAUSE_ROWS = 10;

/** **Root causes** with the tally, then one line per failed run: where it went wrong, and why. */
function rootCauseMarkdown(report: Report, max: number, seeAlso: string | Markdown): Markdown[] {
  if (!report.attribution) return [];
  const runs = failedRuns(report);
  const out = [safeMd``, safeMd`**Root causes**: ${mdText(tallyText(report.attribution), 400)}`, safeMd``];
  for (const r of runs.slice(0, max)) {
    const where = safeMd`${mdText(r.test ?? r.traceId, 80)}${r.file ? safeMd` (${mdText(r.file, 120)})` : ''}`;
    out.push(
      'step' in r.rootCause
        ? safeMd`- ${where}: ${mdText(rootCauseText(r.rootCause), 400)} _(${mdText(rootCauseBasis(r.rootCause), 120)})_`
        : safeMd`- ${where}: _no root cause named: ${mdText(r.rootCause.unattributed, 300)}_`,
    );
  }
  if (runs.length > max)
    out.push(safeMd`- _… and ${fmtInt(runs.length - max)} more failed runs (${seeAlso})_`);
  return out;
}

const kSeries = (xs: readonly number[]) => xs.map((x) => x.toFixed(2)).join(' · ');

/**
 * A Vitest run's tests: the count, each failed test by name with its file and first error, tests
 * that passed only by their passRate, and pass^k / pass@k over repeated tests.
 */
export function testRunMarkdown(report: Report, maxRows: number, seeAlso: string | Markdown): Markdown[] {
  const run = report.testRun;
  if (!run) return [];
  const blank = safeMd``;
  const out = [
    safeMd`**Tests**: ${fmtInt(run.passed)} passed, ${fmtInt(run.failed)} failed${run.skipped ? safeMd`, ${fmtInt(run.skipped)} skipped` : ''} of ${fmtInt(run.tests)}`,
  ];
  const failed = (report.tests ?? []).filter((t) => t.state === 'failed');
  if (failed.length > 0) {
    out.push(blank, safeMd`| failed test | file | first error |`, safeMd`|---|---|---|`);
    for (const t of failed.slice(0, maxRows))
      out.push(
        safeMd`| ${mdText(t.name, 200)} | ${mdText(t.file, 120)}${t.line ? safeMd`:${t.line}` : ''} | ${t.errors?.[0] ? mdText(t.errors[0], 300) : '–'} |`,
      );
    if (failed.length > maxRows)
      out.push(blank, safeMd`_… and ${fmtInt(failed.length - maxRows)} more failed tests (${seeAlso})._`);
  }
  const byRate = (report.tests ?? []).filter((t) => t.passRate?.met && t.passedAttempts < t.attempts);
  for (const t of byRate.slice(0, maxRows))
    out.push(
      blank,
      safeMd`- ✅ ${mdText(t.name, 200)}: ${fmtInt(t.passedAttempts)} of ${fmtInt(t.attempts)} attempts passed (passRate ${t.passRate!.required})`,
    );
  if (run.repeated > 0)
    out.push(
      blank,
      safeMd`Repeated tests: ${fmtInt(run.repeated)}; pass^k ${kSeries(run.passHatK)}; pass@k ${kSeries(run.passAtK)} (k = 1, 2, …: all / any of k attempts pass)`,
    );
  return out;
}
