/**
 * The plugin's options, checked with zod when `tracejury()` is called so that a typo fails at
 * startup with the key named. What the workers receive from them is shared/workerSettings.ts.
 */
import { z } from 'zod';
import { CASSETTE_MODES } from 'tracejury';

export const PluginOptionsSchema = z.strictObject({
  /** tracejury.yml to read (default: tracejury.yml / detectors.yml in the project root, as the CLI). */
  config: z.string().optional(),
  /** Where baselines and the judge cassette live (default `.tracejury` under the root). */
  stateDir: z.string().optional(),
  /** Where the reporter writes Report v1 (default `.tracejury/report.json`); `false` for nowhere. */
  report: z.union([z.string(), z.literal(false)]).optional(),
  /**
   * Where the reporter writes the HTML report, one self-contained page with the failing tests'
   * saved traces as timelines (default: beside the JSON report, `.tracejury/report.html`); `false`
   * for none.
   */
  html: z.union([z.string(), z.literal(false)]).optional(),
  /** Print the text summary at the end of the run (default true). */
  summary: z.boolean().optional(),
  /**
   * A test run several times (`repeats`, `retry`) passes when at least this share of its attempts
   * passed; the report and the summary say so. Unset: every attempt must pass, as in Vitest.
   */
  passRate: z.number().min(0).max(1).optional(),
  /** The agent of traces that name none (as the CLI's --agent). */
  agent: z.string().optional(),
  /** Price calls that name no model as this one (as the CLI's --default-model). */
  defaultModel: z.string().optional(),
  /**
   * How toPassTribunal uses the judge cassette (default: the config's, else `auto`). The
   * TRACEJURY_CASSETTE environment variable, when set, wins: `TRACEJURY_CASSETTE=record npx vitest run`.
   */
  cassette: z.enum(CASSETTE_MODES).optional(),
  /**
   * Which tests' traces are written, redacted, as native JSONL under `<stateDir>/traces/` and linked
   * from the report (default `'failed'`): a failure in CI leaves the traces to look at.
   */
  saveTraces: z.union([z.enum(['failed', 'all']), z.literal(false)]).optional(),
});
export type TracejuryPluginOptions = z.input<typeof PluginOptionsSchema>;

export function parsePluginOptions(options: unknown): z.infer<typeof PluginOptionsSchema> {
  const parsed = PluginOptionsSchema.safeParse(options ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const key = issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : '');
  throw new TypeError(`tracejury(): option ${key ? `"${key}"` : ''}: ${issue.message}`);
}
