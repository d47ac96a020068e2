/**
 * The pull request's own report, from whichever source the inputs name: the eval command (the
 * Vitest plugin writes it), trace files analysed here, the partial reports of a sharded run, or a
 * file an earlier step wrote. Whatever the source, the result is a validated Report v1 on disk
 * (report-path) and in memory.
 */
import path from 'node:path';
import { analyze } from '../analyze.js';
import type { Config } from '../config/config.js';
import { mergeReports } from '../report/mergeReports.js';
import type { Report } from '../report/schema.js';
import { redact } from '../redact/redact.js';
import { formatInputError } from '../trace/inputError.js';
import { expandPaths, UsageError } from '../trace/paths.js';
import { plural } from '../util/thousands.js';
import type { ActionCore, ActionFs, Exec } from './deps.js';
import { evalCommandEnv } from './commandEnv.js';
import { ActionInputError } from './inputError.js';
import { prepareOwnFile } from './ownFile.js';
import { readReportInput } from './reportInput.js';
import { DEFAULT_REPORT, type ActionInputs } from './inputs.js';

export interface HeadReport {
  report: Report;
  path: string;
  /** The eval command's exit code, when one ran. */
  commandExit?: number;
}

interface HeadDeps {
  core: Pick<ActionCore, 'info' | 'warning' | 'startGroup' | 'endGroup'>;
  fs: ActionFs;
  exec: Exec;
  env: NodeJS.ProcessEnv;
}

async function writeReport(fs: ActionFs, file: string, report: Report, workspace: string): Promise<void> {
  await prepareOwnFile(fs, file, workspace);
  await fs.writeFile(file, JSON.stringify(report, null, 2) + '\n');
}

export interface HeadRun {
  /** The run's config (runConfig.ts: a PR's narrowed to the base branch's), for traces analysed here. */
  config: Config;
  /** Set in the eval command's environment on top of a `run:` step's (the cassette mode). */
  commandVariables: Record<string, string>;
  /**
   * The base branch's report when one was found: traces analysed here take its good runs as the
   * baseline of agents the baseline store has too few runs of.
   */
  baseReport?: Report;
}

export async function produceHeadReport(
  inputs: ActionInputs,
  dirs: { workDir: string; workspace: string },
  deps: HeadDeps,
  run: HeadRun,
): Promise<HeadReport> {
  const { workDir, workspace } = dirs;
  const { core, fs } = deps;
  const source = inputs.source;
  const { config, commandVariables, baseReport } = run;

  if (source.kind === 'command') {
    const file = path.resolve(workDir, source.report);
    core.startGroup(`tracejury: ${source.command}`);
    // bash -c, so the command may use pipes, && and quotes as a `run:` step would, with the
    // environment a `run:` step has (commandEnv.ts); the step goes on when it fails (failing tests
    // are what the comment is for).
    const exit = await deps.exec('bash', ['-c', source.command], {
      cwd: workDir,
      ignoreReturnCode: true,
      env: evalCommandEnv(deps.env, commandVariables),
    });
    core.endGroup();
    try {
      await fs.access(file);
    } catch {
      throw new ActionInputError(
        `command: \`${source.command}\` exited with ${exit} and wrote no report at ${source.report}. ` +
          `Add tracejury() to the plugins in vitest.config.ts (import { tracejury } from 'tracejury/vitest'), ` +
          `or set \`report\` to where your run writes it, or use \`traces\` to analyse recordings with no suite.`,
      );
    }
    if (exit !== 0) core.info(`tracejury: the command exited with ${exit}; the report says why`);
    return {
      report: await readReportInput(fs, workDir, 'report', source.report),
      path: file,
      commandExit: exit,
    };
  }

  if (source.kind === 'report') {
    const file = path.resolve(workDir, source.report);
    return { report: await readReportInput(fs, workDir, 'report', source.report), path: file };
  }

  const file = path.resolve(workDir, DEFAULT_REPORT);
  if (source.kind === 'traces') {
    let report: Report;
    try {
      report = await analyze(source.globs, {
        cwd: workDir,
        // The checkout is the PR's: a committed link must not make the Action read outside it.
        within: workspace,
        config,
        // Judges read their keys here, and TRACEJURY_CASSETTE the workflow may set.
        env: deps.env,
        ...(baseReport ? { baseReport } : {}),
      });
    } catch (err) {
      // A glob that matches nothing, a bad tracejury.yml: the workflow's to fix.
      if (err instanceof UsageError) throw new ActionInputError(`traces: ${err.message}`);
      throw err;
    }
    if (report.inputs.errorCount > 0)
      core.warning(
        `tracejury: ${plural(report.inputs.errorCount, 'input error')} in the traces` +
          (report.inputs.errors[0]
            ? `; the first: ${redact(formatInputError(report.inputs.errors[0]))}`
            : ''),
      );
    await writeReport(fs, file, report, workspace);
    return { report, path: file };
  }

  // merge: the partial reports of a matrix's shards.
  let files: { path: string; name: string }[];
  try {
    files = await expandPaths(source.globs, workDir, undefined, { within: workspace });
  } catch (err) {
    if (err instanceof UsageError) throw new ActionInputError(`merge: ${err.message}`);
    throw err;
  }
  const parts = await Promise.all(files.map((f) => readReportInput(fs, workDir, 'merge', f.name)));
  core.info(`tracejury: merged ${plural(parts.length, 'partial report')}`);
  const report = mergeReports(parts);
  await writeReport(fs, file, report, workspace);
  return { report, path: file };
}
