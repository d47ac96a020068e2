import type { Alt, Node } from './re2.mjs';

export const LEFT_OUT: Record<string, string>;
export function hasOwnShape(value: Alt | Node): boolean;
export function anchorOf(seq: Node[]): { source: string | null; strength: number };
export interface TakenPattern {
  source: string;
  keyword: boolean;
  anchors: string[];
  /** The parsed branch (without gitleaks' terminator) and the group holding the secret, if any. */
  branch: Node[];
  secret: (Node & { type: 'group' }) | undefined;
}
export type RuleDecision =
  | { id: string; leftOut: string; patterns?: undefined }
  | {
      id: string;
      leftOut?: undefined;
      patterns: TakenPattern[];
      leftOutBranches: { branch: string; reason: string }[];
    };
export function classifyRule(rule: {
  id: string;
  regex?: string;
  path?: string;
  keywords?: string[];
  entropy?: number;
}): RuleDecision;
