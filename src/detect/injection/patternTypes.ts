/**
 * The shape of a pattern of the injection catalogue and the categories patterns are filed under:
 * what `patterns.ts` (the reference's catalogue) and `addressedPatterns.ts` (instructions addressed
 * to the model) both declare their patterns with. Kept below both so that neither imports the other
 * for a type.
 */
import type { CueSet } from './cues.js';

/** Each category and how evidence names it; the categories are its keys, in this order. */
export const CATEGORY_LABELS = {
  instruction_override: 'instruction override',
  roleplay_jailbreak: 'role-play / jailbreak',
  prompt_extraction: 'system-prompt extraction',
  delimiter_encoding: 'delimiter / encoding trick',
  data_exfiltration: 'data exfiltration',
  tool_hijack: 'tool / agent hijack',
  addressed_instruction: 'instruction addressed to the model',
} as const satisfies Record<string, string>;
export type InjectionCategory = keyof typeof CATEGORY_LABELS;
export const INJECTION_CATEGORIES = Object.keys(CATEGORY_LABELS) as readonly InjectionCategory[];

export interface InjectionPattern {
  /** Stable id, `<category prefix>.<name>`. */
  id: string;
  category: InjectionCategory;
  /** What a match is evidence of, inside data (see cues.ts); a weak pattern's cues count as weak. */
  cues: CueSet;
  pattern: RegExp;
  description: string;
  /** Text the pattern must match (a test checks it). */
  positive: string;
  /** Benign text close in wording that the pattern must not match (a test checks it). */
  negative: string;
  /**
   * Literal substrings of the normalised text, one of which any match contains (precheck). A trigger
   * that starts with a letter or digit is looked for only at the start of a word, unless `anywhere`.
   */
  triggers: readonly string[];
  /** Its triggers may start in the middle of a word (e.g. fragments of base64). */
  anywhere?: boolean;
  /**
   * Groups of literals that every match also contains, one of each group (at the start of a word
   * when the literal starts with a letter or digit, else anywhere), as `triggers` are looked for.
   * Only narrows which patterns run: a trigger selects a pattern, and the pattern runs only when
   * every group is present too. Each group is a word alternation the regex itself requires, at a
   * word start (a test checks every positive). Meant for patterns whose triggers are common words
   * ("now", "you", "mode"): real chat text holds those in almost every field.
   */
  requires?: readonly (readonly string[])[];
  /** Also matches benign text now and then: alone it only reaches the gray zone. */
  weak?: boolean;
  /** Runs on the raw text (before normalisation): for invisible characters that normalisation removes. */
  raw?: boolean;
}
