/**
 * Markdown for PR comments and job summaries. Everything from traces is redacted and escaped;
 * the result stays under GitHub's comment limit, saying what was cut.
 */
import { escapeMarkdown } from './markdownEscape.js';
import { redact } from '../redact/redact.js';
import type { Report } from './schema.js';
import { builtInFix, gateAllowance } from './renderText.js';
import {
  baselinesLine,
  decisionsLine,
  failingFindings,
  formatCost,
  formatUsd,
  gateThreshold,
  groupSignals,
  outcomeLine,
  precisionRows,
  sessionRows,
  sessionScoreText,
  severityMix,
  stepsText,
} from './summarise.js';
import { fmtInt, plural } from '../util/thousands.js';

/** GitHub rejects comments over 65,536 characters; keep a margin for the marker and note. */
export const MARKDOWN_LIMIT = 60_000;

/** Failing traces listed under the gate; the rest are counted. */
const MAX_FAILING_ROWS = 100;

const safe = (s: string, max?: number) => escapeMarkdown(redact(s), max);

export function renderMarkdown(
  report: Report,
  options: {
    limit?: number;
    title?: string;
    /** A detector's fix hint; by default the built-in registry's `meta.fix`. */
    fixFor?: (detector: string) => string | undefined;
    /** Items every list shows (examples per detector, failing traces, review cases): --limit. */
    listLimit?: number;
    /** Where the rest of a cut list is (default the CLI's "--format json or --limit"). */
    seeAlso?: string;
  } = {},
): string {
  const seeAlso = options.seeAlso ?? '--format json or --limit';
  const limit = options.limit ?? MARKDOWN_LIMIT;
  const out: string[] = [];
  const { inputs, totals, waste } = report;
  out.push(
    `### ${options.title ?? 'tracejury'} ${report.gate.passed ? `✅ passed${gateAllowance(report)}` : '❌ failed'}`,
    '',
  );
  out.push(
    `${plural(inputs.traces, 'trace')} from ${plural(inputs.files, 'file')} · cost **${formatCost(totals)}** · waste **${formatUsd(waste.totalUsd)}** (${fmtInt(waste.totalTokens)} tokens)`,
  );
  if (report.outcomes) out.push('', outcomeLine(report.outcomes));
  out.push('', `Gate: ${safe(gateThreshold(report))}`);
  if (!report.gate.passed) out.push('', ...report.gate.reasons.map((r) => `- ${safe(r)}`));
  if (report.testRun)
    out.push('', ...testRunMarkdown(report, options.listLimit ?? MAX_FAILING_ROWS, seeAlso));
  // Every trace that made the gate fail, one line each (cut, with a count, past MAX_FAILING_ROWS).
  // In a test run the tests are the gate (listed above); findings fail it only through matchers.
  const failing = report.testRun ? [] : failingFindings(report);
  const maxFailing = options.listLimit ?? MAX_FAILING_ROWS;
  const maxReview = options.listLimit ?? 50;
  if (failing.length > 0) {
    out.push('', '| detector | trace | file | steps |', '|---|---|---|---|');
    for (const s of failing.slice(0, maxFailing))
      out.push(
        `| \`${s.detector}\` | ${safe(s.traceId, 80)} | ${s.file ? safe(s.file, 120) : '–'} | ${stepsText(s.steps) || '–'} |`,
      );
    if (failing.length > maxFailing)
      out.push('', `_… and ${fmtInt(failing.length - maxFailing)} more failing traces (${seeAlso})._`);
  }
  if (inputs.errorCount > 0)
    out.push(
      '',
      `> ⚠️ ${plural(inputs.errorCount, 'input record')} could not be read; the rest were analysed.`,
    );

  const groups = groupSignals(report, options.listLimit ?? 3);
  if (groups.length > 0) {
    out.push('', '| detector | severity | signals | traces | waste |', '|---|---|---:|---:|---:|');
    for (const g of groups) {
      const extra = [
        severityMix(g),
        g.shadow ? `${g.shadow} shadow` : '',
        g.grayZone ? `${g.grayZone} review` : '',
      ]
        .filter(Boolean)
        .join(', ');
      out.push(
        `| \`${g.detector}\` | ${g.severity} | ${fmtInt(g.count)}${extra ? ` (${extra})` : ''} | ${fmtInt(g.traces)} | ${g.wasteUsd > 0 ? formatUsd(g.wasteUsd) : '–'} |`,
      );
    }
    // What to do, once per detector, visible under the table (the examples are folded away).
    const fixFor = options.fixFor ?? builtInFix;
    const fixes = groups.flatMap((g) => {
      const fix = fixFor(g.detector);
      return fix ? [`- **\`${g.detector}\`**: ${safe(fix)}`] : [];
    });
    if (fixes.length > 0) out.push('', '**What to do**', '', ...fixes);
    const details: string[] = ['', '<details><summary>Examples</summary>', ''];
    for (const g of groups) {
      for (const s of g.examples)
        details.push(
          `- \`${g.detector}\`${s.shadow ? ' _(shadow)_' : ''} ${safe(s.traceId, 80)}${s.file ? ` (${safe(s.file, 120)})` : ''}: ${safe(s.message)}`,
        );
      const more = g.count + g.shadow - g.examples.length;
      if (more > 0) details.push(`- _… and ${fmtInt(more)} more \`${g.detector}\` (${seeAlso})_`);
    }
    details.push('', '</details>');
    // Groups whose signals are all for review or suppressed have no examples to show.
    if (details.length > 5) out.push(...details);
  } else {
    out.push('', 'No signals.');
  }
  const precision = precisionRows(report);
  if (precision.length > 0) {
    out.push(
      '',
      'Findings against recorded outcomes (precision = findings on failed runs / all findings on runs with an outcome):',
      '',
      '| detector | on failed runs | on successful runs | precision |',
      '|---|---:|---:|---:|',
    );
    for (const r of precision)
      out.push(`| \`${r.detector}\` | ${fmtInt(r.onFailed)} | ${fmtInt(r.onSucceeded)} | ${r.precision} |`);
  }
  const sessions = sessionRows(report);
  if (sessions.length > 0) {
    const failed = sessions.filter((r) => !r.passed).length;
    const maxSessions = options.listLimit ?? 10;
    out.push(
      '',
      `**Sessions** (${fmtInt(sessions.length)}${failed > 0 ? `, ${fmtInt(failed)} below threshold` : ''}; worst first)`,
      '',
      '| | session | traces | reliability | consistency |',
      '|---|---|---:|---|---|',
    );
    const cell = (metric: string, v: Parameters<typeof sessionScoreText>[1] | undefined) =>
      v ? sessionScoreText(metric, v).slice(metric.length + 1) : '–';
    for (const r of sessions.slice(0, maxSessions))
      out.push(
        `| ${r.passed ? '✅' : '❌'} | ${safe(r.sessionId, 80)}${r.test ? ` (${safe(r.test, 80)})` : ''} | ${fmtInt(r.traces)} | ${cell('reliability', r.reliability)} | ${cell('consistency', r.consistency)} |`,
      );
    if (sessions.length > maxSessions)
      out.push('', `_… and ${fmtInt(sessions.length - maxSessions)} more sessions (${seeAlso})_`);
  }
  if (report.review.length > 0) {
    out.push('', `<details><summary>For review (${report.review.length})</summary>`, '');
    for (const r of report.review.slice(0, maxReview))
      // Detector ids come from the registry (code), not from traces, as in the examples above.
      out.push(
        `- ${r.detector ? `\`${r.detector}\` ` : ''}${r.shadow ? '_(shadow)_ ' : ''}${safe(r.traceId, 80)}${r.file ? ` (${safe(r.file, 120)})` : ''}: ${safe(r.reason)}`,
      );
    if (report.review.length > maxReview)
      out.push(`- _… and ${fmtInt(report.review.length - maxReview)} more (${seeAlso})_`);
    out.push('', '</details>');
  }
  if (totals.unknownModels.length > 0) {
    out.push('', `Unpriced models: ${totals.unknownModels.map((u) => safe(u.model, 60)).join(', ')}`);
  }
  const decided = decisionsLine(report);
  if (decided) out.push('', safe(decided, 1000));
  const baselines = baselinesLine(report);
  if (baselines) out.push('', safe(baselines, 1000));
  let text = out.join('\n') + '\n';
  if (text.length > limit) {
    const note = `\n\n_…cut to ${fmtInt(limit)} characters; for the rest, see ${seeAlso}._\n`;
    text = text.slice(0, limit - note.length) + note;
  }
  return text;
}

/** pass^k for k = 1..n as "0.90 · 0.81 · 0.73". */
const kSeries = (xs: readonly number[]) => xs.map((x) => x.toFixed(2)).join(' · ');

/**
 * A Vitest run's tests: the count, each failed test by name with its file and first error, tests
 * that passed only by their passRate, and pass^k / pass@k over repeated tests.
 */
export function testRunMarkdown(report: Report, maxRows: number, seeAlso: string): string[] {
  const run = report.testRun;
  if (!run) return [];
  const out = [
    `**Tests**: ${fmtInt(run.passed)} passed, ${fmtInt(run.failed)} failed${run.skipped ? `, ${fmtInt(run.skipped)} skipped` : ''} of ${fmtInt(run.tests)}`,
  ];
  const failed = (report.tests ?? []).filter((t) => t.state === 'failed');
  if (failed.length > 0) {
    out.push('', '| failed test | file | first error |', '|---|---|---|');
    for (const t of failed.slice(0, maxRows))
      out.push(
        `| ${safe(t.name, 200)} | ${safe(t.file, 120)}${t.line ? `:${t.line}` : ''} | ${t.errors?.[0] ? safe(t.errors[0], 300) : '–'} |`,
      );
    if (failed.length > maxRows)
      out.push('', `_… and ${fmtInt(failed.length - maxRows)} more failed tests (${seeAlso})._`);
  }
  const byRate = (report.tests ?? []).filter((t) => t.passRate?.met && t.passedAttempts < t.attempts);
  for (const t of byRate.slice(0, maxRows))
    out.push(
      '',
      `- ✅ ${safe(t.name, 200)}: ${fmtInt(t.passedAttempts)} of ${fmtInt(t.attempts)} attempts passed (passRate ${t.passRate!.required})`,
    );
  if (run.repeated > 0)
    out.push(
      '',
      `Repeated tests: ${fmtInt(run.repeated)}; pass^k ${kSeries(run.passHatK)}; pass@k ${kSeries(run.passAtK)} (k = 1, 2, …: all / any of k attempts pass)`,
    );
  return out;
}
