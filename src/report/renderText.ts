/** The terminal summary of a report: what a person at a prompt wants to read first. */
import { findDetector } from '../detect/registry.js';
import { isUnnamedModel } from '../pricing/pricer.js';
import type { InputError, Report } from './schema.js';
import {
  baselinesLine,
  decisionsLine,
  failingFindings,
  formatCost,
  formatWaste,
  unmeasuredCallsLine,
  formatUsd,
  gateThreshold,
  groupSignals,
  outcomeLine,
  precisionRows,
  sessionCoverageText,
  sessionRows,
  sessionScoreText,
  severityMix,
  stepsText,
} from './summarise.js';
import { terminalText } from '../redact/safeText.js';
import { failedRuns, rootCauseBasis, rootCauseText, tallyText } from './rootCauses.js';
import { fmtInt, plural } from '../util/thousands.js';
import {
  judgeFacts,
  judgeSaid,
  verdictCounts,
  verdictCountsText,
  verdictFacts,
  verdictOutcome,
} from './verdictText.js';

export interface TextOptions {
  color?: boolean;
  /** How many input errors to list. */
  maxErrors?: number;
  /** How many failing traces to list under the gate before cutting the list. */
  maxFailing?: number;
  /** Items every list shows (examples per detector, failing traces, review cases, input errors): --limit. */
  limit?: number;
  /** A detector's fix hint; by default the built-in registry's `meta.fix`. */
  fixFor?: (detector: string) => string | undefined;
}

/** The built-in detectors' fix hints, by detector id. */
export const builtInFix = (detector: string): string | undefined => findDetector(detector)?.meta.fix;

/**
 * Every string that came from a report (and so maybe from a trace) goes through here before it is
 * printed: redacted, and with control characters shown rather than sent to the terminal. The
 * renderer's own colour codes are added around it, after.
 */
const show = (s: string) => terminalText(s);

/** `file:line: field: message`, redacted and terminal-safe (also what `baseline update` prints). */
export function formatInputError(e: InputError): string {
  return `${show(e.file)}${e.line ? `:${e.line}` : ''}: ${e.field ? `${show(e.field)}: ` : ''}${show(e.message)}`;
}

/** " (input errors allowed: 45)" when the gate passed only because input errors were allowed. */
export function gateAllowance(report: Report): string {
  const n = report.gate.allowedInputErrors;
  return n ? ` (input errors allowed: ${fmtInt(n)})` : '';
}

export function renderText(report: Report, options: TextOptions = {}): string {
  const c = options.color
    ? {
        b: (s: string) => `\x1b[1m${s}\x1b[22m`,
        red: (s: string) => `\x1b[31m${s}\x1b[39m`,
        green: (s: string) => `\x1b[32m${s}\x1b[39m`,
        dim: (s: string) => `\x1b[2m${s}\x1b[22m`,
        yellow: (s: string) => `\x1b[33m${s}\x1b[39m`,
      }
    : {
        b: (s: string) => s,
        red: (s: string) => s,
        green: (s: string) => s,
        dim: (s: string) => s,
        yellow: (s: string) => s,
      };
  const lines: string[] = [];
  const { inputs, totals } = report;
  const formats = Object.entries(inputs.formats)
    .map(([f, n]) => `${show(f)} ${n}`)
    .join(', ');
  lines.push(
    c.b(`tracejury ${show(report.tool.version)}`) +
      ` — ${plural(inputs.traces, 'trace')} from ${plural(inputs.files, 'file')}` +
      (formats ? c.dim(` (${formats})`) : ''),
  );
  // The gate first, with every trace that made it fail: what a CI user opens the log for.
  lines.push('', gateLine(report, c));
  if (report.testRun) lines.push(...testLines(report, c, options.limit ?? MAX_FAILING_LINES));
  // In a test run the tests are the gate; findings fail it only through the matchers that assert on them.
  const failing = report.testRun ? [] : failingFindings(report);
  const maxFailing = options.limit ?? options.maxFailing ?? MAX_FAILING_LINES;
  if (failing.length > 0) {
    const grouped = failing.length > 10;
    let detector = '';
    for (const s of failing.slice(0, maxFailing)) {
      if (grouped && s.detector !== detector) {
        detector = s.detector;
        const n = failing.filter((f) => f.detector === detector).length;
        lines.push(`  × ${c.b(show(detector))} ${c.dim(`(${plural(n, 'trace')})`)}`);
      }
      lines.push(`${grouped ? '      ' : `  × ${show(s.detector).padEnd(24)} `}${failingLine(s)}`);
    }
    if (failing.length > maxFailing)
      lines.push(
        c.dim(
          `  … and ${fmtInt(failing.length - maxFailing)} more failing traces (see --format json or --limit)`,
        ),
      );
  }
  lines.push(...rootCauseLines(report, c, options.limit ?? MAX_ROOT_CAUSE_LINES));
  lines.push(...verdictLines(report, c, options.limit ?? MAX_VERDICT_LINES));
  if (inputs.errorCount > 0) {
    const max = options.limit ?? options.maxErrors ?? 10;
    lines.push(
      '',
      c.yellow(`Input errors: ${fmtInt(inputs.errorCount)}`) +
        c.dim(' (inputs that could not be read; the rest were analysed)'),
    );
    for (const e of inputs.errors.slice(0, max)) {
      lines.push(`  ${formatInputError(e)}`);
    }
    if (inputs.errorCount > max)
      lines.push(c.dim(`  … and ${fmtInt(inputs.errorCount - max)} more (see --format json or --limit)`));
  }
  lines.push(
    '',
    `Cost: ${formatCost(totals)} over ${plural(totals.llmCalls, 'LLM call')}, ${plural(totals.toolCalls, 'tool call')}` +
      c.dim(` (${fmtInt(totals.inputTokens)} input + ${fmtInt(totals.outputTokens)} output tokens)`),
  );
  if (totals.unknownModels.length > 0) {
    lines.push(
      c.yellow(`Unpriced models: `) +
        totals.unknownModels.map((u) => `${show(u.model)} (${plural(u.calls, 'call')})`).join(', ') +
        c.dim(
          ' — add them under prices: in tracejury.yml' +
            (totals.unknownModels.some((u) => isUnnamedModel(u.model))
              ? '; price calls that name no model with --default-model NAME or prices.defaultModel'
              : ''),
        ),
    );
  }
  const unmeasured = unmeasuredCallsLine(totals);
  if (unmeasured)
    lines.push(c.yellow(`Unpriced calls: `) + unmeasured + c.dim(' — record usage or a cost per call'));
  const waste = report.waste;
  lines.push(`Waste: ${formatWaste(report)}` + c.dim(` (${fmtInt(waste.totalTokens)} tokens)`));
  const decided = decisionsLine(report);
  if (decided) lines.push(c.dim(show(decided)));
  const baselines = baselinesLine(report);
  if (baselines) lines.push(c.dim(show(baselines)));

  const groups = groupSignals(report, options.limit ?? 3);
  const fixFor = options.fixFor ?? builtInFix;
  if (groups.length === 0) {
    lines.push('', 'Signals: none');
  } else {
    lines.push('', c.b('Signals by detector'));
    for (const g of groups) {
      const extra = [
        severityMix(g),
        g.shadow ? `${g.shadow} shadow` : '',
        g.grayZone ? `${g.grayZone} for review` : '',
        g.suppressed ? `${g.suppressed} suppressed` : '',
      ].filter(Boolean);
      lines.push(
        `  ${show(g.detector).padEnd(26)} ${g.severity.padEnd(8)} ${String(g.count).padStart(5)} in ${plural(g.traces, 'trace')}` +
          (g.wasteUsd > 0 ? `  ${formatUsd(g.wasteUsd)}` : '') +
          (extra.length ? c.dim(`  (${extra.join(', ')})`) : ''),
      );
      for (const s of g.examples) {
        lines.push(c.dim(`      ${s.shadow ? '[shadow] ' : ''}${traceName(s)}: `) + show(s.message));
      }
      const shown = g.count + g.shadow;
      if (shown > g.examples.length)
        lines.push(
          c.dim(`      … and ${fmtInt(shown - g.examples.length)} more (see --format json or --limit)`),
        );
      const fix = fixFor(g.detector);
      if (fix) lines.push(`      ${c.green('fix:')} ${show(fix)}`);
    }
  }
  if (report.review.length > 0) {
    lines.push('', `For review: ${plural(report.review.length, 'case')} no automatic tier could decide`);
    const max = options.limit ?? options.maxErrors ?? 10;
    for (const r of report.review.slice(0, max)) {
      lines.push(
        c.dim(
          `  ${r.shadow ? '[shadow] ' : ''}${r.detector ? `${show(r.detector)} ` : ''}${show(r.traceId)}${r.file ? ` (${show(r.file)})` : ''}: `,
        ) + show(r.reason),
      );
    }
    if (report.review.length > max)
      lines.push(c.dim(`  … and ${fmtInt(report.review.length - max)} more (see --format json or --limit)`));
  }
  const precision = precisionRows(report);
  if (precision.length > 0) {
    lines.push('', c.b('Findings against recorded outcomes') + c.dim(' (precision = on failed runs / all)'));
    lines.push(
      c.dim(`  ${'detector'.padEnd(26)} ${'on failed'.padStart(9)} ${'on passed'.padStart(9)} precision`),
    );
    for (const r of precision) {
      lines.push(
        `  ${show(r.detector).padEnd(26)} ${String(r.onFailed).padStart(9)} ${String(r.onSucceeded).padStart(9)} ${r.precision.padStart(9)}`,
      );
    }
  }
  lines.push(...sessionLines(report, c, options.limit ?? MAX_SESSION_LINES));
  for (const n of report.notes) lines.push(c.yellow(`Note: ${show(n)}`));
  lines.push('');
  if (report.outcomes) lines.push(outcomeLine(report.outcomes));
  lines.push(gateLine(report, c));
  return lines.join('\n') + '\n';
}

/** Failed runs whose root cause is listed before the list is cut (the JSON has them all). */
const MAX_ROOT_CAUSE_LINES = 10;

/** "Root causes: WebSurfer caused 9 of 14 failures, …", then one line per failed run. */
function rootCauseLines(
  report: Report,
  c: { b: (s: string) => string; dim: (s: string) => string },
  max: number,
): string[] {
  if (!report.attribution) return [];
  const runs = failedRuns(report);
  const lines = ['', `${c.b('Root causes:')} ${show(tallyText(report.attribution))}`];
  for (const r of runs.slice(0, max)) {
    const where = c.dim(`${traceName({ traceId: r.traceId, file: r.file, test: r.test })}: `);
    lines.push(
      '  ' +
        where +
        ('step' in r.rootCause
          ? `${show(rootCauseText(r.rootCause))} ${c.dim(`(${show(rootCauseBasis(r.rootCause))})`)}`
          : c.dim(`no root cause named: ${show(r.rootCause.unattributed)}`)),
    );
  }
  if (runs.length > max)
    lines.push(c.dim(`  … and ${fmtInt(runs.length - max)} more failed runs (see --format json or --limit)`));
  return lines;
}

/** Failing traces listed under the gate before the list is cut (the JSON has them all). */
const MAX_FAILING_LINES = 200;

/** "Gate: passed (failOn: critical, high; 3 medium findings below it)" or "Gate: FAILED (failOn: …) — reasons". */
function gateLine(report: Report, c: { red: (s: string) => string; green: (s: string) => string }): string {
  // A Vitest run's gate is its tests (report/testRunReport.ts), not a severity threshold.
  if (report.testRun)
    return report.gate.passed
      ? c.green('Gate: passed (every test passed)')
      : c.red(`Gate: FAILED — ${report.gate.reasons.map(show).join('; ')}`);
  const threshold = gateThreshold(report);
  return report.gate.passed
    ? c.green(`Gate: passed (${threshold})${gateAllowance(report)}`)
    : c.red(`Gate: FAILED (${threshold}) — ${report.gate.reasons.map(show).join('; ')}`);
}

/** Sessions listed (worst first) before the list is cut. */
const MAX_SESSION_LINES = 5;

/** "Sessions: 4 (1 below threshold)" and the worst sessions, one line each with score vs threshold. */
function sessionLines(
  report: Report,
  c: { b: (s: string) => string; red: (s: string) => string; dim: (s: string) => string },
  limit: number,
): string[] {
  const rows = sessionRows(report);
  const coverage = sessionCoverageText(report);
  if (rows.length === 0) return coverage ? ['', c.b('Sessions: none') + c.dim(` (${coverage})`)] : [];
  const failed = rows.filter((r) => !r.passed).length;
  const lines = [
    '',
    c.b(`Sessions: ${fmtInt(rows.length)}`) +
      (failed > 0 ? c.red(` (${fmtInt(failed)} below threshold)`) : c.dim(' (all at or above threshold)')),
    ...(coverage ? [c.dim(`  ${coverage}`)] : []),
  ];
  for (const r of rows.slice(0, limit)) {
    const scores = [
      r.reliability ? sessionScoreText('reliability', r.reliability) : '',
      r.consistency ? sessionScoreText('consistency', r.consistency) : '',
    ].filter(Boolean);
    lines.push(
      `  ${r.passed ? '✓' : '×'} ${show(r.sessionId).padEnd(24)} ${scores.join(', ')}` +
        c.dim(`  (${plural(r.traces, 'trace')}${r.test ? `; ${show(r.test)}` : ''})`),
    );
  }
  if (rows.length > limit)
    lines.push(c.dim(`  … and ${fmtInt(rows.length - limit)} more (see --format json or --limit)`));
  return lines;
}

/** pass^k for k = 1..n as "0.90 · 0.81 · 0.73". */
const kSeries = (xs: readonly number[]) => xs.map((x) => x.toFixed(2)).join(' · ');

/** A Vitest run: its tests, the failed ones by name with their first error, and pass^k / pass@k. */
function testLines(
  report: Report,
  c: { red: (s: string) => string; dim: (s: string) => string },
  limit: number,
): string[] {
  const run = report.testRun!;
  const lines = [
    `Tests: ${run.passed} passed, ${run.failed} failed${run.skipped ? `, ${run.skipped} skipped` : ''} of ${run.tests}`,
  ];
  const failed = (report.tests ?? []).filter((t) => t.state === 'failed');
  for (const t of failed.slice(0, limit))
    lines.push(`  × ${show(t.name)}${t.errors?.[0] ? c.dim(` — ${show(t.errors[0])}`) : ''}`);
  if (failed.length > limit) lines.push(c.dim(`  … and ${fmtInt(failed.length - limit)} more failed tests`));
  for (const t of (report.tests ?? [])
    .filter((t) => t.passRate?.met && t.passedAttempts < t.attempts)
    .slice(0, limit))
    lines.push(
      `  ✓ ${show(t.name)} ${c.dim(`— ${t.passedAttempts} of ${t.attempts} attempts passed (passRate ${t.passRate!.required})`)}`,
    );
  if (run.repeated > 0)
    lines.push(
      `Repeated tests: ${run.repeated}; pass^k ${kSeries(run.passHatK)}; pass@k ${kSeries(run.passAtK)}` +
        c.dim(' (k = 1, 2, …: all / any of k attempts pass)'),
    );
  return lines;
}

/**
 * A trace as a reader knows it: by its test in a Vitest run (not a hex id and "(captureTrace)"),
 * else by its id and file.
 */
function traceName(t: { traceId: string; file?: string | undefined; test?: string | undefined }): string {
  if (t.test !== undefined) return show(t.test);
  return `${show(t.traceId)}${t.file ? ` (${show(t.file)})` : ''}`;
}

/** One failing trace: its id, file and steps, and what the detector saw. */
function failingLine(s: Report['signals'][number]): string {
  const steps = stepsText(s.steps);
  return `${traceName(s)}${steps ? ` ${steps}` : ''}: ${show(s.message)}`;
}

/** Verdicts listed (failed and undecided first) before the list is cut. */
const MAX_VERDICT_LINES = 20;
/** A judge's reasoning on one line, cut. */
const MAX_REASONING = 200;

/**
 * The judges' verdicts: how many passed, failed or were undecided, then each verdict against its
 * threshold with each judge's model, score, confidence and reasoning. Reasoning is a judge's text
 * about hostile input: it goes out through terminalText, on one line, cut.
 */
function verdictLines(
  report: Report,
  c: { red: (s: string) => string; green: (s: string) => string; dim: (s: string) => string },
  limit: number,
): string[] {
  if (report.verdicts.length === 0) return [];
  const lines = ['', `Judges: ${verdictCountsText(verdictCounts(report.verdicts))}`];
  const rank = { failed: 0, indeterminate: 1, passed: 2 } as const;
  const ordered = report.verdicts
    .map((v, i) => ({ v, i }))
    .sort((a, b) => rank[verdictOutcome(a.v)] - rank[verdictOutcome(b.v)] || a.i - b.i)
    .map((x) => x.v);
  for (const v of ordered.slice(0, limit)) {
    const outcome = verdictOutcome(v);
    const mark = outcome === 'passed' ? c.green('✓ PASSED') : c.red(`× ${outcome.toUpperCase()}`);
    const who = v.test !== undefined ? show(v.test) : traceName({ traceId: v.name ?? v.traceId });
    lines.push(`  ${mark} ${who}: ${show(verdictFacts(v))}`);
    for (const j of v.judges) {
      const said = judgeSaid(j).replace(/\s+/g, ' ').trim();
      lines.push(
        c.dim(`      ${show(judgeFacts(j))}${said ? `: ${terminalText(said, MAX_REASONING)}` : ''}`),
      );
    }
  }
  if (ordered.length > limit)
    lines.push(
      c.dim(`  … and ${fmtInt(ordered.length - limit)} more verdicts (see --format json or --limit)`),
    );
  return lines;
}
