export interface Range {
  from: number;
  to: number;
}
export type Node =
  | { type: 'lit'; code: number; fold: boolean }
  | { type: 'class'; negated: boolean; ranges: Range[]; perl: string[]; fold: boolean }
  | { type: 'perl'; value: string }
  | { type: 'any'; dotAll: boolean }
  | { type: 'assert'; value: string }
  | { type: 'group'; capture: boolean; secret?: boolean; body: Alt }
  | { type: 'repeat'; min: number; max: number; lazy: boolean; body: Node };
export interface Alt {
  type: 'alt';
  alternatives: Node[][];
}
export function parseRe2(source: string): Alt;
export function toJsSource(node: Alt | Node): string;
