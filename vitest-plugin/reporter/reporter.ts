/**
 * The reporter: at the end of the run, Report v1 of the tests to `.tracejury/report.json`
 * (configurable), built only from what each test left in its meta — so `vitest --merge-reports`
 * over the blobs of a sharded run writes the same report as one unsharded run — and the text
 * summary after Vitest's own. A shard (`--shard i/n`) writes `report.shard-i-of-n.json` beside it,
 * so shards that share a directory do not overwrite each other before the merge.
 *
 * Beside the JSON, the HTML report (`.tracejury/report.html`): one self-contained page with the
 * failing tests' saved traces as timelines, read back from `.tracejury/traces/` within the page's
 * size budget.
 *
 * At the start of a run it clears the traces an earlier run saved (`.tracejury/traces/`), so the
 * folder holds the traces of this run's failures only; a shard leaves it, as another shard in the
 * same directory may be writing there, and so does `--merge-reports`, which runs no test.
 */
import { readdirSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import {
  buildTestRunReport,
  logText,
  renderText,
  unmatchedAgentSections,
  writeHtmlReport,
  type Config,
  type Severity,
  type TestRunEntry,
} from 'tracejury';
import { META_KEY, type TestMeta } from '../shared/meta.js';
import { TRACES_DIR } from '../shared/workerSettings.js';
import { firstLine } from './firstLine.js';

/** tracejury.yml's sections, for the note on an agent section no trace of the run belongs to. */
export type AgentSections = Pick<Config, 'sections' | 'sectionLines' | 'file'>;

export interface ReporterSettings {
  root: string;
  report: string | false;
  /** Where the HTML report goes (resolved against root), or false for none. */
  html?: string | false;
  summary: boolean;
  failOn: readonly Severity[];
  agentSections?: AgentSections;
  /** Where the workers save traces (`<stateDir>/traces/`), cleared at the start of a run. */
  stateDir?: string;
}

/**
 * The line a test is declared on; a test declared by library code (describeTraces declares its
 * tests inside its suite's callback, where no frame of the test file is on the stack) takes the
 * line of the nearest suite that has one: the `describeTraces(…)` call.
 */
function lineOf(testCase: TestCase): number | undefined {
  if (testCase.location) return testCase.location.line;
  for (let p: TestCase['parent'] = testCase.parent; p.type === 'suite'; p = p.parent)
    if (p.location) return p.location.line;
  return undefined;
}

function entriesOf(modules: readonly TestModule[], root: string): TestRunEntry[] {
  const entries: TestRunEntry[] = [];
  for (const module of modules) {
    const file = path.relative(root, module.moduleId).split(path.sep).join('/');
    for (const testCase of module.children.allTests()) {
      const meta = (testCase.meta() as Record<string, unknown>)[META_KEY] as TestMeta | undefined;
      const result = testCase.result();
      const state = result.state === 'passed' ? 'passed' : result.state === 'failed' ? 'failed' : 'skipped';
      const line = lineOf(testCase);
      entries.push({
        name: `${file} > ${testCase.fullName}`,
        file,
        ...(line !== undefined ? { line } : {}),
        state,
        attempts: meta?.attempts.length ? meta.attempts : state === 'skipped' ? [] : [state === 'passed'],
        ...(meta?.passRate ? { passRate: meta.passRate } : {}),
        errors: (result.errors ?? []).map((e) => firstLine(e.message)).filter(Boolean),
        traces: meta?.traces ?? [],
        trajectories: meta?.trajectories ?? [],
        verdicts: meta?.verdicts ?? [],
        sessions: meta?.sessions ?? [],
        inputErrors: meta?.inputErrors ?? [],
        ...(meta?.savedTraces?.length ? { savedTraces: meta.savedTraces } : {}),
      });
    }
  }
  return entries;
}

export class TracejuryReporter implements Reporter {
  private vitest: Vitest | undefined;

  constructor(private readonly settings: ReporterSettings) {}

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  private reportPath(setting: string | false | undefined = this.settings.report): string | undefined {
    if (setting === false || setting === undefined) return undefined;
    const file = path.resolve(this.settings.root, setting);
    const shard = this.vitest?.config.shard;
    if (!shard) return file;
    const ext = path.extname(file);
    return `${file.slice(0, file.length - ext.length)}.shard-${shard.index}-of-${shard.count}${ext}`;
  }

  onTestRunStart(): void {
    // A shard may share the folder with another; `--merge-reports` runs no test and saves nothing.
    const config = this.vitest?.config as { shard?: unknown; mergeReports?: unknown } | undefined;
    if (!this.settings.stateDir || config?.shard || config?.mergeReports) return;
    const dir = path.join(this.settings.stateDir, TRACES_DIR);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return; // nothing saved yet
    }
    // Only what the workers write there: anything else a user put in the folder stays.
    for (const name of names) if (name.endsWith('.jsonl')) rmSync(path.join(dir, name), { force: true });
  }

  async onTestRunEnd(testModules: readonly TestModule[]): Promise<void> {
    const entries = entriesOf(testModules, this.settings.root);
    const agentIds = entries.flatMap((e) => e.traces.map((t) => t.summary.agentId));
    const report = buildTestRunReport(entries, {
      failOn: this.settings.failOn,
      notes: this.settings.agentSections ? unmatchedAgentSections(this.settings.agentSections, agentIds) : [],
    });
    const file = this.reportPath();
    if (file) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    }
    const html = this.reportPath(this.settings.html);
    // The saved traces are named relative to the root, and only files under it are read back.
    if (html) await writeHtmlReport(html, { report, cwd: this.settings.root, within: this.settings.root });
    if (this.settings.summary) {
      // The summary quotes test names, ids and messages: no line of it may start a workflow command.
      const log = (text: string) =>
        this.vitest ? this.vitest.logger.log(logText(text)) : console.log(logText(text));
      const shown = (f: string) => path.relative(process.cwd(), f) || f;
      const where = (file ? `\nReport: ${shown(file)}` : '') + (html ? `\nHTML report: ${shown(html)}` : '');
      log(`\n${renderText(report, { color: Boolean(process.stdout.isTTY) })}${where}`);
    }
  }
}
