/**
 * The files the Action writes into the checkout (report.json for `traces` and `merge`, the HTML
 * report beside it, diff.json): on a pull request the checkout is the PR's, and a link it commits
 * or its command leaves (`.tracejury/report.html → ~/.bashrc`, a linked `.tracejury/`) must not
 * make the Action write through it. So the folder must really be inside the workspace, and
 * whatever is at the path that is not a regular file (a link, a pipe) is removed first: the file
 * written is a new one, where the path says.
 */
import path from 'node:path';
import { realPathInside } from '../util/realPath.js';
import type { ActionFs } from './deps.js';
import { ActionInputError } from './inputError.js';

export async function prepareOwnFile(fs: ActionFs, file: string, workspace: string): Promise<void> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true });
  if (!(await realPathInside(dir, workspace)).inside)
    throw new ActionInputError(
      `tracejury: ${path.relative(workspace, dir) || '.'} leads outside the workspace through a link: the Action writes nothing there; remove the link from the checkout`,
    );
  const existing = await fs.lstat(file).catch(() => undefined);
  if (existing && !existing.isFile()) await fs.rm(file, { force: true });
}
