/**
 * A file-system error in words a user can act on ("permission denied"), without Node's errno
 * prefix and syscall noise. Unknown codes keep Node's own message.
 */
const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is a file, not a directory',
  ENOENT: 'no such file or directory',
  EEXIST: 'a file is in the way',
  ELOOP: 'too many symbolic links (a loop?)',
  ENOSPC: 'no space left on the device',
  EROFS: 'read-only file system',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'the name is too long',
};

export function fsErrorReason(err: unknown): string {
  const code = err instanceof Error && 'code' in err ? String(err.code) : undefined;
  if (code && REASONS[code]) return REASONS[code];
  return err instanceof Error ? err.message : String(err);
}

/** True for errors that come from the file system (they carry an errno code), not from bugs. */
export function isFsError(err: unknown): err is NodeJS.ErrnoException {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string' && 'syscall' in err;
}
