/**
 * The HTML report and the saved traces of failing tests, as artifacts of the run, for the comment,
 * the job summary and the check run to link.
 *
 * - The HTML report, which the Action writes from the head report beside it whatever the source
 *   (htmlReport.ts; never a page the suite or an earlier step left), is uploaded unzipped
 *   (skipArchive), as `text/html`: GitHub serves such an artifact as the file
 *   itself, so its link (`<server>/<owner>/<repo>/actions/runs/<run>/artifacts/<id>`) opens the
 *   report in the browser (non-zipped artifacts, February 2026), and a `#trace=…` fragment on that
 *   link survives the redirect to the file. @actions/artifact names an unzipped artifact after the
 *   file, so the copy uploaded is called `tracejury-report-<comment-id>.html`.
 * - The saved traces (`tests[].savedTraces`, JSONL under `.tracejury/traces/`) go in one zipped
 *   artifact, `tracejury-traces-<comment-id>`: a download. Only regular files really inside that folder
 *   (links followed) are taken, whatever the report names: a report is data, and must not choose
 *   what is uploaded.
 * - The fork pattern's comment job (workflow_run) uploads nothing: it links the artifacts of the
 *   run it reads (`findRunArtifacts`), listed by name through the REST API (`actions: read`).
 */
import path from 'node:path';
import type { Report } from '../report/schema.js';
import type { ActionFs, ArtifactStore, Octokit } from './deps.js';
import { httpFailureOf } from './githubError.js';
import { isInside, realPathInside } from '../util/realPath.js';

export const SAVED_TRACES_DIR = 'traces';

/** The unzipped HTML report's artifact name, which is its file's name (see the note at the top). */
export const htmlArtifactName = (commentId: string) => `tracejury-report-${commentId}.html`;
export const tracesArtifactName = (commentId: string) => `tracejury-traces-${commentId}`;

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
 * The saved traces the report names, as files inside `<report's folder>/traces/`: regular files
 * only, each once, and inside by their real paths, not only by how the report writes them. The
 * folder itself must really be inside the workspace, and each file really inside the folder: a
 * committed `.tracejury/traces/cache → <outside dir>` and a report naming `cache/credentials.json`
 * would otherwise upload the outside file (util/realPath.ts follows every link of the path).
 * `refused`: files the report names that lead outside, for a warning.
 */
export async function savedTraceFiles(
  fs: ActionFs,
  report: Report,
  reportPath: string,
  workDir: string,
  workspace: string,
): Promise<{ root: string; files: string[]; refused: string[] }> {
  const root = path.join(path.dirname(reportPath), SAVED_TRACES_DIR);
  const named = new Set<string>();
  for (const t of report.tests ?? [])
    for (const s of t.savedTraces ?? []) named.add(path.resolve(workDir, s.file));
  const files = new Set<string>();
  const refused: string[] = [];
  if (named.size === 0) return { root, files: [], refused };
  let realRoot: string;
  try {
    const check = await realPathInside(root, workspace);
    if (!check.inside) return { root, files: [], refused: [...named].map((f) => path.relative(workDir, f)) };
    realRoot = check.real;
  } catch {
    // No folder (nothing was saved) or one that cannot be followed: nothing to upload.
    return { root, files: [], refused };
  }
  for (const file of named) {
    if (!isInside(file, root) || file === root) continue;
    try {
      const check = await realPathInside(file, realRoot);
      if (!check.inside) {
        refused.push(path.relative(workDir, file));
        continue;
      }
      if ((await fs.lstat(check.real)).isFile()) files.add(check.real);
    } catch {
      // Named but gone (a later run replaced it): nothing to upload.
    }
  }
  return { root: realRoot, files: [...files].sort(), refused };
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
