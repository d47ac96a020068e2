/**
 * The HTML report of a head report the Action wrote itself (`traces`, `merge`): written beside it
 * (`report.json` → `report.html`) with the traces worth looking at read again from the files it
 * names, as the run read them (tracejury.yml's agent and prices), only from inside the workspace,
 * within the renderer's default size budget. For `command` and `report` the suite (the Vitest
 * reporter) or an earlier step writes it; the Action only uploads what is there.
 */
import { writeHtmlReport } from '../report/html/render.js';
import type { Report } from '../report/schema.js';
import { prepareRun } from '../runSetup.js';
import { htmlPathBeside } from './reportArtifacts.js';

export const ACTION_HOW_TO_GET_ALL =
  'Run `tracejury analyze <the same traces> --format html --html-traces all --out report.html` on a checkout of this commit to embed them; the trace files themselves hold every step.';

export async function writeHeadHtmlReport(args: {
  report: Report;
  reportPath: string;
  workDir: string;
  workspace: string;
  configFile: string | undefined;
}): Promise<string> {
  const html = htmlPathBeside(args.reportPath);
  const { pricer, config } = prepareRun({
    cwd: args.workDir,
    ...(args.configFile ? { configFile: args.configFile } : {}),
    baselines: false,
  });
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
