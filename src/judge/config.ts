/**
 * The `tribunal:` section of tracejury.yml.
 *
 * ```yaml
 * tribunal:
 *   judges:
 *     - { provider: openai, model: gpt-4o }
 *     - { provider: anthropic, model: claude-sonnet-4-6 }
 *     - { provider: openai, model: llama3.1, baseURL: http://localhost:11434/v1, apiKeyEnv: OLLAMA_KEY }
 *   threshold: 0.8
 *   rubric: task_completion
 *   rubrics: { polite: "Is the response polite and professional?" }
 *   judgeTimeoutMs: 8000
 *   budgetMs: 25000
 *   cassette: { path: .tracejury/cassette.jsonl, mode: auto }
 *   allowedModels: ["gpt-4o*", "claude-*", "llama3.1"]
 *   routes:                      # optional judge sets per stakes (tiers/routing.ts); `judges` otherwise
 *     low: { judges: [{ provider: openai, model: gpt-4o-mini }] }
 *     high: { judges: [{ provider: anthropic, model: claude-opus-4-1 }, { provider: openai, model: gpt-4.1 }] }
 *   failureModes: { latency: default }   # overrides of the failure mode → route table
 * ```
 */
import path from 'node:path';
import { z } from 'zod';
import { ModelCapabilitiesSchema } from './capabilities.js';
import { CASSETTE_MODES, DEFAULT_CASSETTE_PATH } from './cassette.js';
import { JudgeSpecSchema } from './providers.js';
import { rubricProblem } from './rubrics.js';
import {
  DEFAULT_BUDGET_MS,
  DEFAULT_JUDGE_TIMEOUT_MS,
  DEFAULT_THRESHOLD,
  type TribunalSettings,
} from './tribunal.js';

/** A relative path that does not climb out (`../x`, `a/../../x`) of where it is resolved. */
function staysInWorkingDirectory(p: string): boolean {
  if (path.isAbsolute(p) || path.win32.isAbsolute(p)) return false;
  const normal = path.posix.normalize(p.replace(/\\/g, '/'));
  return normal !== '..' && !normal.startsWith('../');
}

// Strict, like every object in the config file: a misspelt key (`mod: replay`, `modle: gpt-4o`) is an
// error naming the nearest valid key, not a setting silently left at its default.
export const CassetteConfigSchema = z
  .object({
    path: z
      .string()
      .min(1)
      // Read and rewritten by every run: a config (a pull request's) must not point it outside
      // the checkout. The real path, links followed, is checked when the run starts (runSetup.ts).
      .refine(staysInWorkingDirectory, {
        error: (issue) =>
          `${JSON.stringify(issue.input)} leads outside the working directory: give a path inside it, relative to it (e.g. ${DEFAULT_CASSETTE_PATH})`,
      })
      .default(DEFAULT_CASSETTE_PATH)
      .describe(
        'The JSONL file of recorded judge answers, relative to the working directory and inside it; commit it',
      ),
    mode: z
      .enum(CASSETTE_MODES)
      .default('auto')
      .describe(
        'replay: the cassette or nothing (CI); record: call every judge and record; auto: replay, call and record on a miss. TRACEJURY_CASSETTE overrides it',
      ),
  })
  .strict()
  .describe('Recorded judge answers, so CI replays verdicts without an API key');

/** The judge sets a gray-zone signal can be routed to, by stakes (detection-tiers.md, Tier 4). */
export const JUDGE_ROUTES = ['low', 'default', 'high'] as const;
export type JudgeRoute = (typeof JUDGE_ROUTES)[number];

export const JudgeSetSchema = z
  .object({ judges: z.array(JudgeSpecSchema.strict()).min(1).describe('The judges of this route') })
  .strict();

export const TribunalConfigSchema = z
  .object({
    judges: z
      .array(JudgeSpecSchema.strict())
      .default([])
      .describe('The judges; different models for independence.'),
    threshold: z
      .number()
      .min(0)
      .max(1)
      .default(DEFAULT_THRESHOLD)
      .describe('A verdict passes when the consensus score and its confidence both reach this'),
    rubric: z.string().optional().describe('Built-in rubric name, a name from `rubrics`, or rubric text.'),
    rubrics: z.record(z.string(), z.string().min(1)).default({}).describe('Custom named rubrics.'),
    judgeTimeoutMs: z
      .number()
      .int()
      .positive()
      .default(DEFAULT_JUDGE_TIMEOUT_MS)
      .describe('Time one judge has to answer, retries of 429 and 5xx included'),
    budgetMs: z
      .number()
      .int()
      .positive()
      .default(DEFAULT_BUDGET_MS)
      .describe('Time the whole tribunal has for one case'),
    cassette: CassetteConfigSchema.default({ path: DEFAULT_CASSETTE_PATH, mode: 'auto' }),
    allowedModels: z
      .array(z.string().min(1))
      .optional()
      .describe('Glob patterns; replaces the built-in allow-list.'),
    capabilities: z
      .record(z.string(), ModelCapabilitiesSchema.partial().strict())
      .optional()
      .describe('Per-model-pattern capability overrides.'),
    concurrency: z.number().int().positive().default(8).describe('Judge calls in flight at once'),
    routes: z
      .object({ low: JudgeSetSchema, default: JudgeSetSchema, high: JudgeSetSchema })
      .partial()
      .strict()
      .optional()
      .describe(
        'Judge sets for escalated signals by stakes; a route not configured uses `judges`. Which failure mode takes which route: `failureModes`.',
      ),
    failureModes: z
      .record(z.string(), z.enum(JUDGE_ROUTES))
      .optional()
      .describe(
        "Detector failure mode (a detector's meta.failureMode) → route (low, default, high), over the built-in table",
      ),
    required: z
      .boolean()
      .default(false)
      .describe('Cases the judges could not judge (no API key, no cassette entry) fail the gate'),
  })
  .strict()
  // `rubric: refund_answr` is a misspelt name, not rubric text: fail here, with the file's line.
  .superRefine((config, ctx) => {
    const problem = config.rubric === undefined ? undefined : rubricProblem(config.rubric, config.rubrics);
    if (problem) ctx.addIssue({ code: 'custom', path: ['rubric'], message: problem });
  });
export type TribunalConfig = z.infer<typeof TribunalConfigSchema>;
export type TribunalConfigInput = z.input<typeof TribunalConfigSchema>;

/** Session settings from a parsed config section. */
export function settingsFromConfig(config: TribunalConfig): TribunalSettings {
  return {
    judges: config.judges,
    threshold: config.threshold,
    ...(config.rubric ? { rubric: config.rubric } : {}),
    rubrics: config.rubrics,
    judgeTimeoutMs: config.judgeTimeoutMs,
    budgetMs: config.budgetMs,
    cassette: config.cassette,
    ...(config.allowedModels ? { allowedModels: config.allowedModels } : {}),
    ...(config.capabilities ? { capabilities: config.capabilities } : {}),
    concurrency: config.concurrency,
  };
}
