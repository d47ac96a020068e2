/**
 * The HTML report and the saved traces of failing tests, as artifacts of the run, for the comment,
 * the job summary and the check run to link.
 *
 * - The HTML beside the head report (the Vitest reporter writes `.tracejury/report.html`; for
 *   `traces` and `merge` the Action writes it, htmlReport.ts) is
 *   uploaded unzipped (skipArchive), as `text/html`: GitHub serves such an artifact as the file
 *   itself, so its link (`<server>/<owner>/<repo>/actions/runs/<run>/artifacts/<id>`) opens the
 *   report in the browser (non-zipped artifacts, February 2026), and a `#trace=…` fragment on that
 *   link survives the redirect to the file. @actions/artifact names an unzipped artifact after the
 *   file, so the copy uploaded is called `tracejury-report-<comment-id>.html`. Only a file written
 *   with the head report counts: one older than the report is left from an earlier run.
 * - The saved traces (`tests[].savedTraces`, JSONL under `.tracejury/traces/`) go in one zipped
 *   artifact, `tracejury-traces-<comment-id>`: a download. Only regular files inside that folder
 *   are taken, whatever the report names: a report is data, and must not choose what is uploaded.
 * - The fork pattern's comment job (workflow_run) uploads nothing: it links the artifacts of the
 *   run it reads (`findRunArtifacts`), listed by name through the REST API (`actions: read`).
 */
import path from 'node:path';
import type { Report } from '../report/schema.js';
import type { ActionFs, ArtifactStore, Octokit } from './deps.js';
import { httpFailureOf } from './githubError.js';

export const SAVED_TRACES_DIR = 'traces';

/** The unzipped HTML report's artifact name, which is its file's name (see the note at the top). */
export const htmlArtifactName = (commentId: string) => `tracejury-report-${commentId}.html`;
export const tracesArtifactName = (commentId: string) => `tracejury-traces-${commentId}`;

/** An HTML report written more than this before its report.json is another run's. */
const SAME_RUN_MS = 60_000;

export interface RunArtifact {
  name: string;
  /** The artifact's page on GitHub: the file itself when unzipped, else a zip download. */
  url: string;
  /** A zip the browser downloads (the traces), or a file it opens (the HTML report). */
  zip: boolean;
  /** Files in it (the traces: one JSONL per failing test). */
  files: number;
}

export interface ReportArtifacts {
  html?: RunArtifact;
  traces?: RunArtifact;
}

export const artifactUrl = (
  serverUrl: string,
  repo: { owner: string; repo: string },
  runId: number,
  artifactId: number,
) => `${serverUrl}/${repo.owner}/${repo.repo}/actions/runs/${runId}/artifacts/${artifactId}`;

/** Where the HTML of a report goes and is looked for: beside it, `report.json` → `report.html`. */
export const htmlPathBeside = (reportPath: string) =>
  path.join(path.dirname(reportPath), `${path.basename(reportPath, '.json')}.html`);

/**
 * The head report's HTML beside it (`report.json` → `report.html`), when it was written with it:
 * not before `notBefore` (the step's start, when the step ran the command that writes both), else
 * not more than a minute before the report (an earlier step wrote both). An older file is left
 * from an earlier run and is not this report's.
 */
export async function htmlReportBeside(
  fs: ActionFs,
  reportPath: string,
  notBefore?: number,
): Promise<string | undefined> {
  const html = htmlPathBeside(reportPath);
  try {
    const h = await fs.lstat(html);
    const since = notBefore ?? (await fs.stat(reportPath)).mtimeMs - SAME_RUN_MS;
    return h.isFile() && h.mtimeMs >= since ? html : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The saved traces the report names, as files inside `<report's folder>/traces/`: regular files
 * only (no link, nothing outside), each once.
 */
export async function savedTraceFiles(
  fs: ActionFs,
  report: Report,
  reportPath: string,
  workDir: string,
): Promise<{ root: string; files: string[] }> {
  const root = path.join(path.dirname(reportPath), SAVED_TRACES_DIR);
  const named = new Set<string>();
  for (const t of report.tests ?? [])
    for (const s of t.savedTraces ?? []) named.add(path.resolve(workDir, s.file));
  const files: string[] = [];
  for (const file of named) {
    const rel = path.relative(root, file);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue;
    try {
      if ((await fs.lstat(file)).isFile()) files.push(file);
    } catch {
      // Named but gone (a later run replaced it): nothing to upload.
    }
  }
  return { root, files: files.sort() };
}

export interface UploadArgs {
  artifacts: ArtifactStore;
  fs: ActionFs;
  tempDir: string;
  commentId: string;
  htmlPath: string | undefined;
  traces: { root: string; files: string[] };
  /** Makes an artifact's URL from its id (this run's). */
  urlOf: (artifactId: number) => string;
}

/** An error's message, first line only: what a warning quotes of a failure it lets pass. */
export const errorLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0];

/** Uploads what there is; each upload that fails is a warning, and the other still goes. */
export async function uploadReportArtifacts(
  args: UploadArgs,
): Promise<{ uploaded: ReportArtifacts; warnings: string[] }> {
  const uploaded: ReportArtifacts = {};
  const warnings: string[] = [];
  if (args.htmlPath) {
    const name = htmlArtifactName(args.commentId);
    try {
      await args.fs.mkdir(args.tempDir, { recursive: true });
      const dir = await args.fs.mkdtemp(path.join(args.tempDir, 'tracejury-html-'));
      const copy = path.join(dir, name);
      await args.fs.copyFile(args.htmlPath, copy);
      const { id } = await args.artifacts.uploadArtifact(name, [copy], dir, { skipArchive: true });
      if (id !== undefined) uploaded.html = { name, url: args.urlOf(id), zip: false, files: 1 };
    } catch (err) {
      warnings.push(
        `tracejury: could not upload the HTML report as ${name} (${errorLine(err)}); the comment links the job summary instead`,
      );
    }
  }
  if (args.traces.files.length > 0) {
    const name = tracesArtifactName(args.commentId);
    try {
      const { id } = await args.artifacts.uploadArtifact(name, args.traces.files, args.traces.root);
      if (id !== undefined)
        uploaded.traces = { name, url: args.urlOf(id), zip: true, files: args.traces.files.length };
    } catch (err) {
      warnings.push(`tracejury: could not upload the saved traces as ${name} (${errorLine(err)})`);
    }
  }
  return { uploaded, warnings };
}

/**
 * The artifacts the run `runId` uploaded (the fork pattern: the comment job links the run that ran
 * the evals). Absent, expired or unreadable (no `actions: read`) is no link, with a line for the log.
 */
export async function findRunArtifacts(args: {
  octokit: Octokit;
  repo: { owner: string; repo: string };
  runId: number;
  commentId: string;
  serverUrl: string;
}): Promise<{ found: ReportArtifacts; log: string[] }> {
  const found: ReportArtifacts = {};
  const log: string[] = [];
  const wanted = [
    ['html', htmlArtifactName(args.commentId)],
    ['traces', tracesArtifactName(args.commentId)],
  ] as const;
  for (const [kind, name] of wanted) {
    try {
      const { data } = await args.octokit.rest.actions.listWorkflowRunArtifacts({
        ...args.repo,
        run_id: args.runId,
        name,
        per_page: 10,
      });
      const artifact = data.artifacts.find((a) => a.name === name && !a.expired);
      if (!artifact) {
        log.push(`tracejury: run ${args.runId} has no ${name} artifact to link`);
        continue;
      }
      found[kind] = {
        name,
        url: artifactUrl(args.serverUrl, args.repo, args.runId, artifact.id),
        zip: kind === 'traces',
        files: kind === 'html' ? 1 : 0,
      };
    } catch (err) {
      const failure = httpFailureOf(err);
      if (!failure) throw err;
      log.push(
        `tracejury: cannot list the artifacts of run ${args.runId} (GitHub answered ${failure.status}; the job needs \`actions: read\`): no link to ${name}`,
      );
    }
  }
  return { found, log };
}
