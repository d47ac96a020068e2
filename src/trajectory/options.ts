/**
 * How matchTrajectory compares calls. Functions are allowed (a per-tool comparator), so these are
 * TypeScript types checked at runtime by hand, not a zod schema.
 */
import { isPlainObject } from './argsEqual.js';
import { TrajectoryModeSchema, type TrajectoryMode } from './expected.js';
import { quoted } from '../redact/safeText.js';

/**
 * Decides whether a recorded call's arguments satisfy an expected call's. Both are given after
 * JSON-string arguments were parsed; `actual` is undefined when the trace recorded none.
 */
export type ArgsComparator = (actual: unknown, expected: unknown, toolName: string) => boolean;

/** `'exact'`: deep equality, object key order ignored, arrays ordered. `'ignore'`: any arguments. */
export type ArgsRule = 'exact' | 'ignore' | ArgsComparator;

/** One rule for every tool, or a rule per tool name (tools not named use `'exact'`). */
export type ArgsOption = ArgsRule | { readonly [toolName: string]: ArgsRule };

export interface TrajectoryIgnore {
  /** Tool names left out of both the trace's calls and the expected calls (read-only lookups, …). */
  tools?: readonly string[];
  /** Leave out the trace's calls whose status is 'error' (an agent's failed attempt it then retried). */
  failedCalls?: boolean;
}

export interface MatchTrajectoryOptions {
  mode: TrajectoryMode;
  /** How arguments are compared (default `'exact'`). */
  args?: ArgsOption;
  ignore?: TrajectoryIgnore;
}

const RULE_WORDS = "'exact', 'ignore' or a function (actual, expected, toolName) => boolean";

function isRule(value: unknown): value is ArgsRule {
  return value === 'exact' || value === 'ignore' || typeof value === 'function';
}

/**
 * The options checked for callers without the types (plain JavaScript, options read from a file):
 * a wrong value is a TypeError that names it, never a silently lenient comparison.
 */
export function checkOptions(options: unknown): MatchTrajectoryOptions {
  if (!isPlainObject(options)) throw new TypeError('matchTrajectory: options must be an object { mode, … }');
  const modes = TrajectoryModeSchema.options;
  if (!modes.includes(options.mode as TrajectoryMode)) {
    throw new TypeError(
      `matchTrajectory: options.mode must be one of ${modes.map((m) => `'${m}'`).join(', ')}; got ${quoted(options.mode)}`,
    );
  }
  const args = options.args;
  if (args !== undefined && !isRule(args)) {
    if (!isPlainObject(args)) {
      throw new TypeError(
        `matchTrajectory: options.args must be ${RULE_WORDS}, or an object of those per tool`,
      );
    }
    for (const [tool, rule] of Object.entries(args)) {
      if (!isRule(rule)) {
        throw new TypeError(`matchTrajectory: options.args.${tool} must be ${RULE_WORDS}`);
      }
    }
  }
  const ignore = options.ignore;
  if (ignore !== undefined) {
    if (!isPlainObject(ignore)) throw new TypeError('matchTrajectory: options.ignore must be an object');
    if (
      ignore.tools !== undefined &&
      (!Array.isArray(ignore.tools) || !ignore.tools.every((t) => typeof t === 'string'))
    ) {
      throw new TypeError('matchTrajectory: options.ignore.tools must be an array of tool names');
    }
    if (ignore.failedCalls !== undefined && typeof ignore.failedCalls !== 'boolean') {
      throw new TypeError('matchTrajectory: options.ignore.failedCalls must be true or false');
    }
  }
  return options as unknown as MatchTrajectoryOptions;
}

/** The rule that applies to one tool. */
export function argsRuleFor(option: ArgsOption | undefined, toolName: string): ArgsRule {
  if (option === undefined) return 'exact';
  if (isRule(option)) return option;
  return Object.hasOwn(option, toolName) ? option[toolName]! : 'exact';
}
