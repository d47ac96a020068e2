/**
 * The sticky PR comment: one per pull request and comment-id, found by the hidden marker it starts
 * with among the PR's comments that the token's own identity wrote (tokenIdentity.ts; paged 100 at
 * a time, past GitHub's first 30) and updated in place, so a PR never collects a pile of them. A
 * comment anyone else wrote is never a candidate, whatever it starts with.
 */
import type { Octokit } from './deps.js';

export const commentMarker = (commentId: string) => `<!-- tracejury:${commentId} -->`;

export interface CommentTarget {
  owner: string;
  repo: string;
  issueNumber: number;
}

export interface WrittenComment {
  id: number;
  url: string;
  action: 'created' | 'updated';
}

/**
 * The first comment by `author` (a login, as the token's comments carry it) that starts with the
 * marker, or undefined; stops paging once found.
 */
export async function findStickyComment(
  octokit: Octokit,
  target: CommentTarget,
  marker: string,
  author: string,
): Promise<{ id: number; body: string } | undefined> {
  const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, {
    owner: target.owner,
    repo: target.repo,
    issue_number: target.issueNumber,
    per_page: 100,
  });
  for await (const { data } of pages) {
    // Ours by its author, and starts with, not contains: a person quoting the marker is not ours.
    const found = data.find(
      (c) =>
        c.user?.login.toLowerCase() === author.toLowerCase() && (c.body ?? '').trimStart().startsWith(marker),
    );
    if (found) return { id: found.id, body: found.body ?? '' };
  }
  return undefined;
}

export async function writeComment(
  octokit: Octokit,
  target: CommentTarget,
  body: string,
  options: { mode: 'update'; marker: string; author: string } | { mode: 'new' },
): Promise<WrittenComment> {
  const existing =
    options.mode === 'update'
      ? await findStickyComment(octokit, target, options.marker, options.author)
      : undefined;
  if (existing) {
    const { data } = await octokit.rest.issues.updateComment({
      owner: target.owner,
      repo: target.repo,
      comment_id: existing.id,
      body,
    });
    return { id: data.id, url: data.html_url, action: 'updated' };
  }
  const { data } = await octokit.rest.issues.createComment({
    owner: target.owner,
    repo: target.repo,
    issue_number: target.issueNumber,
    body,
  });
  return { id: data.id, url: data.html_url, action: 'created' };
}
