/**
 * The run's configuration, tracejury.yml (also read as detectors.yml). Each stage owns its section's
 * schema (detect/: agent sections; judge/: tribunal; tiers/; embed/: embeddings; baseline/;
 * pricing/: prices; session/: sessions; diff/: regression); this
 * module composes them into the file's schema, reads the file and reports mistakes. It sits beside
 * analyze.ts, above the stages, so that no stage imports another for its settings.
 *
 * A `default:` section and sections named after an agentId inherit from it and override only what
 * they set. Validated with zod; errors name
 * the file, the line and the key, and suggest the nearest valid key for a typo.
 *
 * Sections are validated as written and merged raw (default ← agent), and only the merged result
 * is parsed with each detector's schema, so a key an agent section leaves out falls back to the
 * `default:` section before the built-in default.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import {
  AttributionSectionSchema,
  attributionSettings,
  type AttributionSection,
  type AttributionSettings,
} from '../attribute/config.js';
import { BaselinesSectionSchema, DEFAULT_BASELINES } from '../baseline/config.js';
import { agentSectionSchema, detectorIdSchema } from '../detect/config.js';
import {
  DEFAULT_REGRESSION,
  RegressionSectionSchema,
  regressionPolicy,
  regressionWarnings,
  type RegressionPolicy,
  type RegressionSection,
} from '../diff/config.js';
import { EmbeddingsConfigSchema, type EmbeddingsConfig } from '../embed/config.js';
import type { Detector } from '../detect/detector.js';
import { detectors as builtInDetectors } from '../detect/registry.js';
import type { Severity } from '../detect/signal.js';
import { TribunalConfigSchema, type TribunalConfig } from '../judge/config.js';
import { nearestModel } from '../pricing/modelNames.js';
import { AUTO_CHEAP_ALTERNATIVE } from '../pricing/modelTier.js';
import { createPricer, PriceOverridesSchema } from '../pricing/pricer.js';
import { DEFAULT_FAIL_ON, FailOnSchema, gatePolicy, type FailOnInput } from '../report/gateConfig.js';
import { sessionSettings, SessionsSectionSchema, type SessionSettings } from '../session/config.js';
import { DEFAULT_NO_DOWNGRADE, DEFAULT_STATE_DELTA_DETECTORS, tiersSectionSchema } from '../tiers/config.js';
import { ReviewSectionSchema, type ReviewSection } from '../report/reviewWebhook.js';
import { UsageError } from '../trace/paths.js';
import { didYouMean, nearest } from '../util/nearest.js';
import { ONE_SHOT } from '../util/oneShot.js';
import { dict } from '../util/dict.js';
import { quoted, terminalText } from '../redact/safeText.js';

export const CONFIG_FILE_NAMES = ['tracejury.yml', 'tracejury.yaml', 'detectors.yml', 'detectors.yaml'];

/** Top-level keys that are not agent sections. */
export const RESERVED_KEYS = [
  'default',
  'failOn',
  'prices',
  'tribunal',
  'tiers',
  'embeddings',
  'baselines',
  'sessions',
  'agent',
  'regression',
  'review',
  'taskKey',
  'attribution',
] as const;

/** The whole file's schema (used for validation messages and the published JSON Schema). */
export function configSchema(list: readonly Detector[] = builtInDetectors) {
  const section = agentSectionSchema(list);
  return z
    .object({
      default: section
        .nullable()
        .optional()
        .describe(
          'Detector settings for every agent; a section named after an agentId overrides what it sets',
        ),
      failOn: FailOnSchema.optional(),
      prices: PriceOverridesSchema.optional().describe('Per-model prices for models the price table lacks'),
      tribunal: TribunalConfigSchema.optional().describe('Judges and rubrics for tier 4'),
      tiers: tiersSectionSchema(detectorIdSchema(list)).optional(),
      embeddings: EmbeddingsConfigSchema.optional().describe(
        'The OpenAI-compatible embeddings endpoint for tier 3 (without it: the offline lexical embedder)',
      ),
      baselines: BaselinesSectionSchema.optional(),
      sessions: SessionsSectionSchema.optional(),
      regression: RegressionSectionSchema.optional(),
      review: ReviewSectionSchema.optional(),
      attribution: AttributionSectionSchema.optional(),
      agent: z
        .string()
        .min(1)
        .optional()
        .describe(
          'The agent of traces whose recording names none (else each file is its own agent, keyed by its path)',
        ),
      taskKey: z
        .string()
        .regex(/^[^.\s]+(\.[^.\s]+)*$/, {
          error: 'expected a dotted path into each trace’s metadata, such as case.id',
        })
        .optional()
        .describe(
          'Where a trace’s task is in its metadata (a dotted path: case.id reads metadata.case.id), for recordings that name no task; tracejury diff pairs base and head runs by task',
        ),
    })
    .catchall(section.nullable());
}

/**
 * The file's JSON Schema as editors read it (`io: 'input'`: defaults are optional), published as
 * schemas/tracejury.config.schema.json and the source of docs/configuration.md.
 */
export function configJsonSchema(list: readonly Detector[] = builtInDetectors): Record<string, unknown> {
  return z.toJSONSchema(configSchema(list), { io: 'input', unrepresentable: 'any' });
}

export interface Config {
  file?: string;
  /** Severities of confirmed findings that fail the gate. */
  failOn: Severity[];
  /** Whether input that could not be read fails the gate (failOn.inputErrors). */
  failOnInputErrors: boolean;
  /** Whether a failed recorded outcome fails the gate (failOn.outcome). */
  failOnOutcome: boolean;
  prices: z.infer<typeof PriceOverridesSchema>;
  tribunal?: TribunalConfig;
  /** `stateDeltas`: the detectors tier 2 may decide (resolved: every one with a rule unless set). */
  tiers: { stateDeltas: string[]; escalate: boolean; noDowngrade: string[]; budgetUsd?: number };
  /** `review:`: where the review list goes after a run (tier 5). */
  review?: ReviewSection;
  /** `embeddings:`: the endpoint tier 3 embeds with; absent for the offline lexical embedder. */
  embeddings?: EmbeddingsConfig;
  baselines: { minRuns: number; window: number; fromInput: boolean };
  /** `sessions:`: thresholds and weights of the session scores, and whether they gate. */
  sessions: SessionSettings;
  /** `regression:`: what fails `tracejury diff` (defaults filled in). */
  regression: RegressionPolicy;
  /** `attribution:`: failure attribution and the roles of a team's agents (defaults filled in). */
  attribution: AttributionSettings;
  /** `agent:`: the agent of traces that name none (`--agent` overrides it). */
  agent?: string;
  /** `taskKey:`: the metadata path of a trace's task, for recordings that name none. */
  taskKey?: string;
  /** Raw sections as written, for inheritance. */
  sections: Record<string, Record<string, unknown>>;
  /** The line of each section's key in the file, when read from one (for notes that point at it). */
  sectionLines?: Record<string, number>;
  warnings: string[];
}

export function defaultConfig(): Config {
  return {
    failOn: [...DEFAULT_FAIL_ON],
    failOnInputErrors: true,
    failOnOutcome: false,
    prices: {},
    tiers: {
      stateDeltas: [...DEFAULT_STATE_DELTA_DETECTORS],
      escalate: true,
      noDowngrade: DEFAULT_NO_DOWNGRADE,
    },
    baselines: { ...DEFAULT_BASELINES },
    sessions: sessionSettings(),
    regression: { ...DEFAULT_REGRESSION },
    attribution: attributionSettings(),
    sections: {},
    warnings: [],
  };
}

export class ConfigError extends UsageError {
  override name = 'ConfigError';
}

const MAX_ALIAS_COUNT = 10_000;

const NOT_A_MAPPING = 'expected a mapping of sections (default:, an agent id, failOn:, …)';
const isMapping = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

interface SchemaDef {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
}
const defOf = (s: z.ZodType) => s._zod.def as unknown as SchemaDef;

/** The keys of the object schema at `p` in `schema` (for "did you mean"), or none. */
function objectKeysAt(schema: z.ZodType, p: readonly (string | number)[]): string[] {
  const unwrap = (s: z.ZodType | undefined): z.ZodType | undefined => {
    while (s) {
      const d = defOf(s);
      if (d.innerType) s = d.innerType;
      else if (d.type === 'pipe') s = defOf(d.in!).type === 'transform' ? d.out : d.in;
      else return s;
    }
    return undefined;
  };
  let s = unwrap(schema);
  for (const k of p) {
    if (!s) return [];
    const d = defOf(s);
    s = unwrap(
      d.type === 'object'
        ? (d.shape![k] ?? d.catchall)
        : d.type === 'array'
          ? d.element
          : d.type === 'record'
            ? d.valueType
            : undefined,
    );
  }
  // A union with an object form (failOn: high | { severity, inputErrors }): that form's keys.
  if (s && defOf(s).type === 'union')
    s = unwrap(defOf(s).options?.find((o) => unwrap(o) && defOf(unwrap(o)!).type === 'object'));
  return s && defOf(s).type === 'object' ? Object.keys(defOf(s).shape!) : [];
}

/** Parses config text; `file` is only used in messages. */
export function parseConfig(
  text: string,
  file = 'tracejury.yml',
  list: readonly Detector[] = builtInDetectors,
): Config {
  const lineCounter = new LineCounter();
  // `merge`: YAML 1.1 merge keys (`<<: *base`), the usual way to share settings between sections.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const pos = lineCounter.linePos(e.pos[0]);
    throw new ConfigError(
      `${file}:${pos.line}: not valid YAML: ${terminalText(e.message.split('\n')[0]!, 200)}`,
    );
  }
  let raw: unknown;
  try {
    // Aliases are bounded (the library's default of 100 is too few for many agent sections sharing
    // one anchor) so that a "billion laughs" file is refused instead of expanded.
    raw = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {};
  } catch (e) {
    throw new ConfigError(`${file}: cannot read the YAML: ${terminalText((e as Error).message, 200)}`);
  }
  if (!isMapping(raw)) throw new ConfigError(`${file}:1: ${NOT_A_MAPPING}`);
  /** Line of the key at `p` (or of its nearest ancestor that has one). */
  const lineOf = (p: (string | number)[]): number | undefined => {
    for (let n = p.length; n > 0; n--) {
      const parent = doc.getIn(p.slice(0, n - 1), true) as
        { items?: { key?: { value?: unknown; range?: [number, number, number] } }[] } | undefined;
      const pair = parent?.items?.find((it) => it.key?.value === p[n - 1]);
      if (pair?.key?.range) return lineCounter.linePos(pair.key.range[0]).line;
      const node = doc.getIn(p.slice(0, n), true) as { range?: [number, number, number] } | undefined;
      if (node?.range) return lineCounter.linePos(node.range[0]).line;
    }
    return undefined;
  };

  return configFromValue(raw, file, list, lineOf);
}

/**
 * A config given as an object (library use: `analyze(traces, { config: { default: … } })`), checked
 * exactly as a file is; messages name `name` instead of a file and line.
 */
export function configFromObject(
  raw: unknown,
  name = 'options.config',
  list: readonly Detector[] = builtInDetectors,
): Config {
  return configFromValue(raw, name, list, () => undefined);
}

/** Keys that name the machinery of a JavaScript object, not a setting or an agent. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The path of the first forbidden key in a config value (configs are shallow: a few levels). */
function forbiddenKeyPath(value: unknown, path: (string | number)[] = []): (string | number)[] | undefined {
  if (typeof value !== 'object' || value === null || path.length > 16) return undefined;
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.keys(value).map((k) => [k, (value as Record<string, unknown>)[k]]);
  for (const [key, child] of entries) {
    if (typeof key === 'string' && FORBIDDEN_KEYS.has(key)) return [...path, key];
    const found = forbiddenKeyPath(child, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

function configFromValue(
  raw: unknown,
  file: string,
  list: readonly Detector[],
  lineOf: (p: (string | number)[]) => number | undefined,
): Config {
  if (!isMapping(raw)) throw new ConfigError(`${file}: ${NOT_A_MAPPING}`);
  const forbidden = forbiddenKeyPath(raw);
  if (forbidden) {
    const line = lineOf(forbidden);
    throw new ConfigError(
      `${file}${line ? `:${line}` : ''}: ${quoted(forbidden.join('.'))}: the key ${quoted(forbidden.at(-1))} is not allowed ` +
        '(__proto__, constructor and prototype name the workings of JavaScript objects, not settings or agents); rename it',
    );
  }
  // Parsed once per run: zod's compiled fast path would cost more to generate than it saves.
  const parsed = configSchema(list).safeParse(raw, ONE_SHOT);
  if (!parsed.success) {
    const schema = configSchema(list);
    const agentKeys = ['inflation_factor', ...list.map((d) => d.meta.configKey)];
    const at = (p: (string | number)[]) => {
      const line = lineOf(p);
      return `${file}${line ? `:${line}` : ''}`;
    };
    const messages = parsed.error.issues.flatMap((issue): string | string[] => {
      const issuePath = issue.path.map((k) => (typeof k === 'symbol' ? String(k) : k));
      const top = issuePath[0];
      const topValue = typeof top === 'string' ? (raw as Record<string, unknown>)[top] : undefined;
      const isAgentSection = typeof top === 'string' && !(RESERVED_KEYS as readonly string[]).includes(top);
      // `tool_loop:` at the top level: read as an agent named tool_loop, whose keys are detectors.
      if (isAgentSection && list.some((d) => d.meta.configKey === top)) {
        const keyPath = issue.code === 'unrecognized_keys' ? [...issuePath, issue.keys[0]!] : issuePath;
        return (
          `${at(keyPath)}: unknown key ${quoted(keyPath.join('.'))}: detector settings go under "default:" or ` +
          `an agent id (default.${keyPath.join('.')}), not at the top level`
        );
      }
      // `failon: high`, `baseline: { minRuns: 5 }`: a misspelt reserved key rather than an agent.
      const reserved = isAgentSection ? nearest(top, RESERVED_KEYS) : undefined;
      if (
        reserved &&
        (!isMapping(topValue) || !Object.keys(topValue).some((k) => agentKeys.includes(k))) &&
        !(issue.code === 'unrecognized_keys' && issuePath.length > 1)
      ) {
        const inner = issue.code === 'unrecognized_keys' ? nearest(issue.keys[0]!, agentKeys) : undefined;
        if (!inner) return `${at([top!])}: unknown key ${quoted(top)} — did you mean "${reserved}"?`;
      }
      if (issue.code === 'unrecognized_keys') {
        const valid = objectKeysAt(schema, issuePath);
        return issue.keys.map((key) => {
          const keyPath = [...issuePath, key];
          return `${at(keyPath)}: unknown key ${quoted(keyPath.join('.'))}${didYouMean(key, valid)}`;
        });
      }
      return `${at(issuePath)}: ${terminalText(issuePath.join('.'), 120) || '(top level)'}: ${issue.message}`;
    });
    throw new ConfigError([...new Set(messages)].slice(0, 5).join('\n'));
  }

  const data = parsed.data as Record<string, unknown>;
  const warnings: string[] = [];
  const sections = dict<Record<string, unknown>>();
  const sectionLines = dict<number>();
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if ((RESERVED_KEYS as readonly string[]).includes(key) && key !== 'default') continue;
    const line = lineOf([key]);
    if (line !== undefined) sectionLines[key] = line;
    if (key !== 'default') {
      const close = nearest(key, RESERVED_KEYS);
      if (close && close !== key) {
        warnings.push(
          `${file}:${lineOf([key]) ?? 1}: section ${quoted(key)} is read as the settings of agent ${quoted(key)}; did you mean "${close}"?`,
        );
      }
    }
    sections[key] = (value ?? {}) as Record<string, unknown>;
  }
  const prices = (data.prices ?? {}) as Config['prices'];
  checkModelNames(sections, prices, file, lineOf, warnings);
  const baselines = (data.baselines ?? {}) as { minRuns?: number; window?: number; fromInput?: boolean };
  for (const w of regressionWarnings(data.regression as RegressionSection | undefined))
    warnings.push(`${file}${lineOf(w.path) ? `:${lineOf(w.path)}` : ''}: ${w.message}`);
  const gate = gatePolicy(data.failOn as FailOnInput | undefined);
  return {
    file,
    failOn: gate.severities,
    failOnInputErrors: gate.inputErrors,
    failOnOutcome: gate.outcome,
    prices,
    tribunal: data.tribunal as TribunalConfig | undefined,
    tiers: {
      stateDeltas: (data.tiers as { stateDeltas?: string[] } | undefined)?.stateDeltas ?? [
        ...DEFAULT_STATE_DELTA_DETECTORS,
      ],
      escalate: (data.tiers as { escalate?: boolean } | undefined)?.escalate ?? true,
      noDowngrade:
        (data.tiers as { noDowngrade?: string[] } | undefined)?.noDowngrade ?? DEFAULT_NO_DOWNGRADE,
      ...(typeof (data.tiers as { budgetUsd?: number } | undefined)?.budgetUsd === 'number'
        ? { budgetUsd: (data.tiers as { budgetUsd: number }).budgetUsd }
        : {}),
    },
    ...(data.review ? { review: data.review as ReviewSection } : {}),
    ...(data.embeddings ? { embeddings: data.embeddings as EmbeddingsConfig } : {}),
    baselines: {
      minRuns: baselines.minRuns ?? DEFAULT_BASELINES.minRuns,
      window: baselines.window ?? DEFAULT_BASELINES.window,
      fromInput: baselines.fromInput ?? DEFAULT_BASELINES.fromInput,
    },
    sessions: sessionSettings(data.sessions as z.infer<typeof SessionsSectionSchema> | undefined),
    regression: regressionPolicy(data.regression as RegressionSection | undefined),
    attribution: attributionSettings(data.attribution as AttributionSection | undefined),
    ...(typeof data.agent === 'string' ? { agent: data.agent } : {}),
    ...(typeof data.taskKey === 'string' ? { taskKey: data.taskKey } : {}),
    sections,
    ...(Object.keys(sectionLines).length > 0 ? { sectionLines } : {}),
    warnings,
  };
}

/**
 * Model names in detector settings, checked against the price table and `prices:`, with the same
 * "did you mean" as keys: `cheap_alternative_model` must be priceable (waste is computed on it), so
 * an unknown one is an error; `expensive_models` / `cheap_models` may name private models, so an
 * unknown one that looks like a typo of a known name is a warning.
 */
function checkModelNames(
  sections: Record<string, Record<string, unknown>>,
  prices: Config['prices'],
  file: string,
  lineOf: (p: (string | number)[]) => number | undefined,
  warnings: string[],
): void {
  const pricer = createPricer(prices);
  const priced = Object.keys(prices).filter((k) => k !== 'defaultModel');
  const at = (p: (string | number)[]) => `${file}${lineOf(p) ? `:${lineOf(p)}` : ''}`;
  for (const [section, settings] of Object.entries(sections)) {
    const overkill = settings.overkill_model;
    if (typeof overkill !== 'object' || overkill === null) continue;
    const o = overkill as Record<string, unknown>;
    const alt = o.cheap_alternative_model;
    if (typeof alt === 'string' && alt !== AUTO_CHEAP_ALTERNATIVE && !pricer.rates(alt)) {
      const keyPath = [section, 'overkill_model', 'cheap_alternative_model'];
      const hint = nearestModel(alt, priced);
      throw new ConfigError(
        `${at(keyPath)}: ${terminalText(keyPath.join('.'), 120)}: the price table does not know ${quoted(alt)} and prices: does not price it` +
          (hint
            ? ` — did you mean "${hint}"?`
            : '; name a model the table knows, add it under prices:, or use auto'),
      );
    }
    for (const list of ['expensive_models', 'cheap_models'] as const) {
      const names = o[list];
      if (!Array.isArray(names)) continue;
      names.forEach((name, i) => {
        if (typeof name !== 'string' || pricer.rates(name)) return;
        const hint = nearestModel(name, priced);
        if (hint && hint !== name)
          warnings.push(
            `${at([section, 'overkill_model', list, i])}: ${terminalText(section, 80)}.overkill_model.${list}: ${quoted(name)} is not a model the price table knows — did you mean "${hint}"?`,
          );
      });
    }
  }
}

/** Loads --config FILE, or the first of CONFIG_FILE_NAMES in `cwd`, or the defaults. */
export function loadConfig(explicit: string | undefined, cwd = process.cwd()): Config {
  const file = explicit ?? CONFIG_FILE_NAMES.map((n) => path.join(cwd, n)).find((f) => existsSync(f));
  if (!file) return defaultConfig();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new ConfigError(`${file}: cannot read the config file (${reason})`);
  }
  return parseConfig(text, path.relative(cwd, file) || file);
}
