/** eslint.config.js LAYERS: per folder, the folders beside it that it must never import. */
export const LAYERS: Record<string, string[]>;
export const START: string;
export const END: string;
export function foldersOf(top: 'src' | 'vitest-plugin'): string[];
export function layersMarkdown(): string;
