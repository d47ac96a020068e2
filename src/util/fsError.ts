/**
 * File-system errors in words a user can act on ("permission denied; make it readable…"), without
 * Node's errno prefix and syscall noise. Unknown codes keep Node's own message.
 */
const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is a file, not a directory',
  ENOENT: 'no such file or directory',
  EEXIST: 'a file is in the way',
  ELOOP: 'too many levels of symbolic links (a symlink loop)',
  ENOSPC: 'no space left on the device',
  EROFS: 'read-only file system',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'the name is too long',
};

/** What to do when an input cannot be read, by error code. */
const READ_ADVICE: Record<string, string> = {
  EACCES: 'make it readable by the user running tracejury',
  EPERM: 'make it readable by the user running tracejury',
  ELOOP: 'point the link at a real file',
};

/** True for the errors node:fs throws (they carry an errno code and the syscall), not for bugs. */
export function isFsError(err: unknown): err is NodeJS.ErrnoException {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string' && 'syscall' in err;
}

export function fsErrorReason(err: unknown): string {
  const code = isFsError(err) ? err.code : undefined;
  if (code && REASONS[code]) return REASONS[code];
  return err instanceof Error ? err.message : String(err);
}

/** An input that could not be read or listed: what went wrong and what to do. */
export function describeReadError(err: unknown, action: 'read' | 'list' = 'read'): string {
  const what = action === 'list' ? 'cannot list this directory' : 'cannot read';
  const code = isFsError(err) ? err.code : undefined;
  // An input found a moment ago and gone now: a dead link, or a file removed during the run.
  if (code === 'ENOENT') return `${what}: no such file (a broken symlink, or removed while tracejury ran)`;
  const advice = code ? READ_ADVICE[code] : undefined;
  return `${what}: ${fsErrorReason(err)}${advice ? `; ${advice}` : ''}`;
}
