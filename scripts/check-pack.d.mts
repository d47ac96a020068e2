export const REQUIRED_FILES: string[];
export function packProblems(
  files: string[],
  pkg: {
    repository?: { type?: string; url?: string };
    homepage?: string;
    bugs?: string | { url?: string };
    license?: string;
  },
): string[];
export function dryRunPack(root: string): { files: string[]; size: number; unpackedSize: number };
