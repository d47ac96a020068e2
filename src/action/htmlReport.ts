/**
 * The HTML report the comment links, written by the Action from the head report itself whatever
 * the source (`command`, `report`, `traces`, `merge`): beside it (`report.json` → `report.html`,
 * replacing any page the suite or an earlier step left there, which is the PR's to write), with
 * the traces worth looking at read again from the files it names, as the run read them
 * (tracejury.yml's agent and prices), only from inside the workspace (by real path), within the
 * renderer's default size budget. The page the comment calls "the HTML report" is tracejury's.
 */
import type { Config } from '../config/config.js';
import { writeHtmlReport } from '../report/html/render.js';
import type { Report } from '../report/schema.js';
import { prepareRun } from '../runSetup.js';
import type { ActionFs } from './deps.js';
import { prepareOwnFile } from './ownFile.js';
import { htmlPathBeside } from './reportArtifacts.js';

export const ACTION_HOW_TO_GET_ALL =
  'Run `tracejury analyze <the same traces> --format html --html-traces all --out report.html` on a checkout of this commit to embed them; the trace files themselves hold every step.';

export async function writeHeadHtmlReport(args: {
  fs: ActionFs;
  report: Report;
  reportPath: string;
  workDir: string;
  workspace: string;
  /** The run's config (runConfig.ts), for the agent and prices the traces are read again with. */
  config: Config;
}): Promise<string> {
  const html = htmlPathBeside(args.reportPath);
  await prepareOwnFile(args.fs, html, args.workspace);
  const { pricer, config } = prepareRun({ cwd: args.workDir, config: args.config, baselines: false });
  await writeHtmlReport(html, {
    report: args.report,
    cwd: args.workDir,
    within: args.workspace,
    pricer,
    ...(config.agent !== undefined ? { agent: config.agent } : {}),
    howToGetAll: ACTION_HOW_TO_GET_ALL,
  });
  return html;
}
