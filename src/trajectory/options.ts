/**
 * How matchTrajectory compares calls. Functions are allowed (a per-tool comparator), so these are
 * TypeScript types checked at runtime by hand, not a zod schema.
 */
import { didYouMean } from '../util/nearest.js';
import { isPlainObject } from './argsEqual.js';
import { TrajectoryModeSchema, type TrajectoryMode } from './expected.js';
import { quoted } from '../redact/safeText.js';

/**
 * Decides whether a recorded call's arguments satisfy an expected call's. Both are given after
 * JSON-string arguments were parsed; `actual` is undefined when the trace recorded none.
 */
export type ArgsComparator = (actual: unknown, expected: unknown, toolName: string) => boolean;

/**
 * How one tool's arguments are compared, named from the actual call's side as agentevals names
 * them:
 * - `'exact'`: deep equality, object key order ignored, arrays ordered;
 * - `'superset'`: the actual arguments hold every expected key with an equal value; keys the
 *   expected call does not name are allowed (at every depth: an object inside the arguments may
 *   carry extra keys too; arrays keep their length and order);
 * - `'subset'`: every key of the actual arguments is expected, with an equal value; expected keys
 *   the call left out are allowed (at every depth, arrays as above);
 * - `'ignore'`: any arguments;
 * - a function `(actual, expected, toolName) => boolean`.
 */
export type ArgsRule = 'exact' | 'superset' | 'subset' | 'ignore' | ArgsComparator;

/** One rule for every tool, or a rule per tool name (tools not named use `'exact'`). */
export type ArgsOption = ArgsRule | { readonly [toolName: string]: ArgsRule };

export interface TrajectoryIgnore {
  /** Tool names left out of both the trace's calls and the expected calls (read-only lookups, …). */
  tools?: readonly string[];
  /** Leave out the trace's calls whose status is 'error' (an agent's failed attempt it then retried). */
  failedCalls?: boolean;
}

export interface MatchTrajectoryOptions {
  /**
   * How the calls are compared (default `'strict'`): see TrajectoryModeSchema. Strict is the
   * default because it is what an ordered list of expected calls says and what agentevals
   * defaults to; calls issued together in one model response (parallel tool calls) match in any
   * order among themselves, so strict asks no order the agent never chose. Loosening a test is a
   * visible choice (`unordered`, `subset`, `superset`), never what a forgotten option does.
   */
  mode?: TrajectoryMode;
  /** How arguments are compared (default `'exact'`). */
  args?: ArgsOption;
  ignore?: TrajectoryIgnore;
}

/** What a call without `options.mode` is compared by. */
export const DEFAULT_TRAJECTORY_MODE: TrajectoryMode = 'strict';

/** MatchTrajectoryOptions with the defaults applied. */
export type ResolvedTrajectoryOptions = MatchTrajectoryOptions & { mode: TrajectoryMode };

const RULE_NAMES = ['exact', 'superset', 'subset', 'ignore'] as const;
const RULE_WORDS = `${RULE_NAMES.map((r) => `'${r}'`).join(', ')} or a function (actual, expected, toolName) => boolean`;
const OPTION_KEYS = ['mode', 'args', 'ignore'] as const;
const IGNORE_KEYS = ['tools', 'failedCalls'] as const;

function isRule(value: unknown): value is ArgsRule {
  return (RULE_NAMES as readonly unknown[]).includes(value) || typeof value === 'function';
}

/** A key nobody reads is an error: a typo (`arg`, `ignore.tool`) must not loosen a test unseen. */
function rejectUnknownKeys(value: Record<string, unknown>, known: readonly string[], where: string): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    throw new TypeError(
      `matchTrajectory: unknown key "${where}.${key}"${didYouMean(key, known)} (${where} takes ${known.join(', ')})`,
    );
  }
}

function ruleError(value: unknown, where: string): TypeError {
  const hint = typeof value === 'string' ? didYouMean(value, RULE_NAMES) : '';
  return new TypeError(`matchTrajectory: ${where} must be ${RULE_WORDS}; got ${describeValue(value)}${hint}`);
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return quoted(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/**
 * The options checked for callers without the types (plain JavaScript, options read from a file):
 * a wrong value is a TypeError that names it, never a silently lenient comparison.
 */
export function checkOptions(options: unknown): ResolvedTrajectoryOptions {
  if (options === undefined) return { mode: DEFAULT_TRAJECTORY_MODE };
  if (!isPlainObject(options)) {
    throw new TypeError(
      `matchTrajectory: options must be an object { mode?, args?, ignore? }; got ${describeValue(options)}`,
    );
  }
  rejectUnknownKeys(options, OPTION_KEYS, 'options');
  const modes = TrajectoryModeSchema.options;
  if (options.mode !== undefined && !modes.includes(options.mode as TrajectoryMode)) {
    const hint = typeof options.mode === 'string' ? didYouMean(options.mode, modes) : '';
    throw new TypeError(
      `matchTrajectory: options.mode must be one of ${modes.map((m) => `'${m}'`).join(', ')}; got ${describeValue(options.mode)}${hint}`,
    );
  }
  const args = options.args;
  if (args !== undefined && !isRule(args)) {
    if (!isPlainObject(args)) throw ruleError(args, 'options.args');
    for (const [tool, rule] of Object.entries(args)) {
      if (!isRule(rule)) throw ruleError(rule, `options.args.${tool}`);
    }
  }
  const ignore = options.ignore;
  if (ignore !== undefined) {
    if (!isPlainObject(ignore))
      throw new TypeError('matchTrajectory: options.ignore must be an object { tools?, failedCalls? }');
    rejectUnknownKeys(ignore, IGNORE_KEYS, 'options.ignore');
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
  const checked = options as MatchTrajectoryOptions;
  return { ...checked, mode: checked.mode ?? DEFAULT_TRAJECTORY_MODE };
}

/** The rule that applies to one tool. */
export function argsRuleFor(option: ArgsOption | undefined, toolName: string): ArgsRule {
  if (option === undefined) return 'exact';
  if (isRule(option)) return option;
  return Object.hasOwn(option, toolName) ? option[toolName]! : 'exact';
}
