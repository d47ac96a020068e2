/** A relative link that does not resolve: where it is, what it points at and why it fails. */
export interface LinkProblem {
  file: string;
  line: number;
  target: string;
  message: string;
}
export function githubSlug(text: string): string;
export function anchorsOf(markdown: string): Set<string>;
export function relativeLinksOf(markdown: string): { line: number; target: string }[];
export function gitFileSet(root: string): (relative: string) => boolean;
export function checkLinks(options: {
  root: string;
  files: string[];
  exists?: (relative: string) => boolean;
}): LinkProblem[];
export function projectMarkdownFiles(root: string, exists?: (relative: string) => boolean): string[];
