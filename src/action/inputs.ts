/**
 * The Action's inputs (action.yml), read the way the runner passes them (INPUT_<NAME> through
 * core.getInput) and checked by one zod schema. A bad value stops the run before any work with a
 * message that names the input, what it got and what it takes.
 */
import { z } from 'zod';
import type { ActionCore } from './deps.js';
import { ActionInputError } from './inputError.js';

/** Splits a multi-line or comma-separated list input, dropping blanks. */
export function listInput(value: string): string[] {
  return value
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

const oneOf = <T extends string>(name: string, values: readonly [T, ...T[]]) =>
  z.string().refine((v): v is T => (values as readonly string[]).includes(v), {
    error: (issue) =>
      `${name}: "${String(issue.input)}" is not one of ${values.map((v) => `\`${v}\``).join(', ')}`,
  }) as unknown as z.ZodType<T, string>;

const booleanInput = (name: string) =>
  z.string().transform((v, ctx) => {
    if (/^(true|yes|on|1)$/i.test(v)) return true;
    if (/^(false|no|off|0)$/i.test(v)) return false;
    ctx.addIssue({ code: 'custom', message: `${name}: "${v}" is not \`true\` or \`false\`` });
    return z.NEVER;
  });

export const COMMENT_MODES = ['update', 'new', 'off'] as const;
export const FAIL_ON = ['gate', 'regression', 'any', 'never'] as const;
export const UPLOAD_MODES = ['auto', 'always', 'never'] as const;

/** The raw strings, as core.getInput returns them (trimmed, '' when not given). */
export const RawInputsSchema = z
  .object({
    command: z.string(),
    traces: z.string(),
    merge: z.string(),
    config: z.string(),
    report: z.string(),
    baseline: z.string(),
    'github-token': z.string(),
    comment: oneOf('comment', COMMENT_MODES),
    'comment-id': z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, {
      error: (issue) =>
        `comment-id: "${String(issue.input)}" may use only letters, digits, ".", "_" and "-" (at most 64); it becomes the marker <!-- tracejury:<comment-id> --> and the baseline artifact's name`,
    }),
    'fail-on': oneOf('fail-on', FAIL_ON),
    'check-run': booleanInput('check-run'),
    'pr-number': z.string().refine((v) => v === '' || /^[1-9][0-9]{0,9}$/.test(v), {
      error: (issue) => `pr-number: "${String(issue.input)}" is not a pull request number`,
    }),
    'upload-baseline': oneOf('upload-baseline', UPLOAD_MODES),
    'working-directory': z.string(),
  })
  .superRefine((raw, ctx) => {
    const sources = (['command', 'traces', 'merge'] as const).filter((k) => raw[k] !== '');
    if (sources.length > 1)
      ctx.addIssue({
        code: 'custom',
        path: [sources[1]!],
        message: `${sources.join(' and ')}: give one of \`command\`, \`traces\` or \`merge\`, not ${sources.length === 2 ? 'both' : 'several'}`,
      });
    const b = raw.baseline;
    // (Empty is action.yml's default, `auto`: parseInputs fills defaults in before this runs.)
    if (!/[./\\]/.test(b) && b !== 'auto' && b !== 'none')
      // A bare word that is neither keyword is far more likely a typo (`automatic`, `off`) than a
      // report file named without an extension.
      ctx.addIssue({
        code: 'custom',
        path: ['baseline'],
        message: `baseline: "${b}" is not \`auto\`, \`none\` or a report path (a path has a "/" or an extension, e.g. ./${b}.json)`,
      });
  });

export type RawInputs = z.input<typeof RawInputsSchema>;

export interface ActionInputs {
  source:
    | { kind: 'command'; command: string; report: string }
    | { kind: 'traces'; globs: string[] }
    | { kind: 'merge'; globs: string[] }
    | { kind: 'report'; report: string };
  config: string | undefined;
  baseline: { kind: 'auto' } | { kind: 'none' } | { kind: 'file'; path: string };
  token: string;
  comment: (typeof COMMENT_MODES)[number];
  commentId: string;
  failOn: (typeof FAIL_ON)[number];
  checkRun: boolean;
  prNumber: number | undefined;
  uploadBaseline: (typeof UPLOAD_MODES)[number];
  workingDirectory: string;
}

export const DEFAULT_COMMAND = 'npx vitest run';
export const DEFAULT_REPORT = '.tracejury/report.json';

/** action.yml's defaults, for inputs a test or a local run leaves out (the runner always sets them). */
const DEFAULTS: Record<string, string> = {
  baseline: 'auto',
  comment: 'update',
  'comment-id': 'default',
  'fail-on': 'any',
  'check-run': 'true',
  'upload-baseline': 'auto',
  'working-directory': '.',
};

export function parseInputs(raw: Record<string, string>): ActionInputs {
  const withDefaults = Object.fromEntries(
    Object.keys(RawInputsSchema.shape).map((k) => [k, raw[k] || DEFAULTS[k] || '']),
  );
  const parsed = RawInputsSchema.safeParse(withDefaults);
  if (!parsed.success) {
    const messages = parsed.error.issues.map((i) =>
      i.code === 'custom' || /^[a-z-]+: /.test(i.message) ? i.message : `${i.path.join('.')}: ${i.message}`,
    );
    throw new ActionInputError(`invalid input: ${messages.join('; ')}`);
  }
  const v = parsed.data;
  const report = v.report || DEFAULT_REPORT;
  const source: ActionInputs['source'] = v.traces
    ? { kind: 'traces', globs: listInput(v.traces) }
    : v.merge
      ? { kind: 'merge', globs: listInput(v.merge) }
      : v.command || !v.report
        ? { kind: 'command', command: v.command || DEFAULT_COMMAND, report }
        : { kind: 'report', report };
  return {
    source,
    config: v.config || undefined,
    baseline:
      v.baseline === 'auto' || v.baseline === 'none'
        ? { kind: v.baseline }
        : { kind: 'file', path: v.baseline },
    token: v['github-token'],
    comment: v.comment,
    commentId: v['comment-id'],
    failOn: v['fail-on'],
    checkRun: v['check-run'],
    prNumber: v['pr-number'] ? Number(v['pr-number']) : undefined,
    uploadBaseline: v['upload-baseline'],
    workingDirectory: v['working-directory'],
  };
}

/** Reads every input through core (so the runner's INPUT_* spelling rules apply) and checks them. */
export function readInputs(core: Pick<ActionCore, 'getInput' | 'setSecret'>): ActionInputs {
  const raw: Record<string, string> = {};
  for (const name of Object.keys(RawInputsSchema.shape)) raw[name] = core.getInput(name);
  // Masked before anything could print it: the runner replaces it with *** in every log line.
  if (raw['github-token']) core.setSecret(raw['github-token']);
  return parseInputs(raw);
}
