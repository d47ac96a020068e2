/**
 * tracejury.yml (also read as detectors.yml): a `default:` section and sections named after an
 * agentId that inherit from it and override only what they set. Validated with zod; errors name
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
import { TribunalConfigSchema, type TribunalConfig } from '../judge/config.js';
import { PriceOverridesSchema } from '../pricing/pricer.js';
import { DEFAULT_NO_DOWNGRADE } from '../tiers/escalate.js';
import { UsageError } from '../trace/paths.js';
import { nearest } from '../util/nearest.js';
import type { Detector } from './detector.js';
import { detectors as builtInDetectors } from './registry.js';
import { SEVERITIES, SeveritySchema, type Severity } from './signal.js';

export const CONFIG_FILE_NAMES = ['tracejury.yml', 'tracejury.yaml', 'detectors.yml', 'detectors.yaml'];

/** Keys every detector section takes besides the detector's own settings. */
const CommonDetectorSettings = {
  enabled: z.boolean().default(true).describe('Run this detector'),
  shadow: z
    .boolean()
    .default(false)
    .describe('Report its signals, marked, but never fail a gate or annotate a PR'),
};

/** Top-level keys that are not agent sections. */
export const RESERVED_KEYS = ['default', 'failOn', 'prices', 'tribunal', 'tiers', 'baselines'] as const;

export const FailOnSchema = z
  .union([SeveritySchema, z.array(SeveritySchema)], {
    // zod's own message for a union is "Invalid input": say what is allowed and what was wrong.
    error: (issue) => {
      const values = Array.isArray(issue.input) ? issue.input : [issue.input];
      const bad = values.find((v) => !(SEVERITIES as readonly unknown[]).includes(v));
      const hint = typeof bad === 'string' ? nearest(bad, SEVERITIES) : undefined;
      return (
        `expected one of ${SEVERITIES.join(', ')} (or a list of them)` +
        (bad === undefined ? '' : `, got ${JSON.stringify(bad)}`) +
        (hint ? ` — did you mean "${hint}"?` : '')
      );
    },
  })
  .describe('Severities that fail the gate: a list, or one severity meaning "this or worse"');

export function detectorSettingsSchema(d: Detector): z.ZodObject {
  return d.meta.config.extend(CommonDetectorSettings);
}

function agentSectionSchema(list: readonly Detector[]) {
  const shape: Record<string, z.ZodType> = {
    inflation_factor: z
      .number()
      .positive()
      .optional()
      .describe('Multiplier on the P75 baseline for this agent, replacing each baseline detector’s own'),
  };
  for (const d of list) {
    shape[d.meta.configKey] = detectorSettingsSchema(d)
      .partial()
      .strict()
      .optional()
      .describe(d.meta.description);
  }
  return z.object(shape).strict();
}

/** The whole file's schema (used for validation messages and the published JSON Schema). */
export function configSchema(list: readonly Detector[] = builtInDetectors) {
  const section = agentSectionSchema(list);
  return z
    .object({
      default: section.optional(),
      failOn: FailOnSchema.optional(),
      prices: PriceOverridesSchema.optional().describe('Per-model prices for models the price table lacks'),
      tribunal: TribunalConfigSchema.optional().describe('Judges and rubrics for tier 4'),
      tiers: z
        .object({
          escalate: z
            .boolean()
            .describe(
              'Send gray-zone signals (confidence 0.35–0.65) to the tribunal when judges are configured',
            ),
          noDowngrade: z
            .array(z.string())
            .describe('Detectors whose confidence a judge may raise but never lower'),
        })
        .partial()
        .strict()
        .optional(),
      baselines: z
        .object({
          minRuns: z.number().int().min(1).default(20),
          window: z.number().int().min(1).default(50),
        })
        .partial()
        .optional(),
    })
    .catchall(section);
}

export interface DetectorSettings {
  enabled: boolean;
  shadow: boolean;
  settings: Record<string, unknown>;
}

export interface Config {
  file?: string;
  failOn: Severity[];
  prices: z.infer<typeof PriceOverridesSchema>;
  tribunal?: TribunalConfig;
  tiers: { escalate: boolean; noDowngrade: string[] };
  baselines: { minRuns: number; window: number };
  /** Raw sections as written, for inheritance. */
  sections: Record<string, Record<string, unknown>>;
  warnings: string[];
}

export function defaultConfig(): Config {
  return {
    failOn: ['critical', 'high'],
    prices: {},
    tiers: { escalate: true, noDowngrade: DEFAULT_NO_DOWNGRADE },
    baselines: { minRuns: 20, window: 50 },
    sections: {},
    warnings: [],
  };
}

export class ConfigError extends UsageError {
  override name = 'ConfigError';
}

function normaliseFailOn(v: z.infer<typeof FailOnSchema> | undefined): Severity[] {
  if (v === undefined) return ['critical', 'high'];
  if (Array.isArray(v)) return v;
  return SEVERITIES.slice(0, SEVERITIES.indexOf(v) + 1);
}

const NOT_A_MAPPING = 'expected a mapping of sections (default:, an agent id, failOn:, …)';
const isMapping = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses config text; `file` is only used in messages. */
export function parseConfig(
  text: string,
  file = 'tracejury.yml',
  list: readonly Detector[] = builtInDetectors,
): Config {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const pos = lineCounter.linePos(e.pos[0]);
    throw new ConfigError(`${file}:${pos.line}: not valid YAML: ${e.message.split('\n')[0]}`);
  }
  const raw: unknown = doc.toJS() ?? {};
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

function configFromValue(
  raw: unknown,
  file: string,
  list: readonly Detector[],
  lineOf: (p: (string | number)[]) => number | undefined,
): Config {
  if (!isMapping(raw)) throw new ConfigError(`${file}: ${NOT_A_MAPPING}`);
  // Parsed once per run: zod's compiled fast path would cost more to generate than it saves.
  const parsed = configSchema(list).safeParse(raw, ONE_SHOT);
  if (!parsed.success) {
    const messages = parsed.error.issues.slice(0, 5).map((issue) => {
      const issuePath = issue.path.map((k) => (typeof k === 'symbol' ? String(k) : k));
      if (issue.code === 'unrecognized_keys') {
        const key = issue.keys[0]!;
        const at = [...issuePath, key];
        const section =
          issuePath.length === 1 ? list.find((d) => d.meta.configKey === issuePath[0]) : undefined;
        const sectionDetector =
          issuePath.length === 2 ? list.find((d) => d.meta.configKey === issuePath[1]) : section;
        const candidates = sectionDetector
          ? Object.keys(detectorSettingsSchema(sectionDetector).shape)
          : ['inflation_factor', ...list.map((d) => d.meta.configKey)];
        const hint = nearest(key, candidates);
        const line = lineOf(at);
        return `${file}${line ? `:${line}` : ''}: unknown key "${at.join('.')}"${hint ? ` — did you mean "${hint}"?` : ''}`;
      }
      const line = lineOf(issuePath);
      return `${file}${line ? `:${line}` : ''}: ${issuePath.join('.') || '(top level)'}: ${issue.message}`;
    });
    throw new ConfigError(messages.join('\n'));
  }

  const data = parsed.data as Record<string, unknown>;
  const warnings: string[] = [];
  const sections: Record<string, Record<string, unknown>> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if ((RESERVED_KEYS as readonly string[]).includes(key) && key !== 'default') continue;
    if (key !== 'default') {
      const close = nearest(key, RESERVED_KEYS);
      if (close && close !== key) {
        warnings.push(
          `${file}:${lineOf([key]) ?? 1}: section "${key}" is read as the settings of agent "${key}"; did you mean "${close}"?`,
        );
      }
    }
    sections[key] = (value ?? {}) as Record<string, unknown>;
  }
  const baselines = (data.baselines ?? {}) as { minRuns?: number; window?: number };
  return {
    file,
    failOn: normaliseFailOn(data.failOn as z.infer<typeof FailOnSchema> | undefined),
    prices: (data.prices ?? {}) as Config['prices'],
    tribunal: data.tribunal as TribunalConfig | undefined,
    tiers: {
      escalate: (data.tiers as { escalate?: boolean } | undefined)?.escalate ?? true,
      noDowngrade:
        (data.tiers as { noDowngrade?: string[] } | undefined)?.noDowngrade ?? DEFAULT_NO_DOWNGRADE,
    },
    baselines: { minRuns: baselines.minRuns ?? 20, window: baselines.window ?? 50 },
    sections,
    warnings,
  };
}

/** Loads --config FILE, or the first of CONFIG_FILE_NAMES in `cwd`, or the defaults. */
export function loadConfig(explicit: string | undefined, cwd = process.cwd()): Config {
  const file = explicit ?? CONFIG_FILE_NAMES.map((n) => path.join(cwd, n)).find((f) => existsSync(f));
  if (!file) return defaultConfig();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new ConfigError(`${file}: cannot read the config file`);
  }
  return parseConfig(text, path.relative(cwd, file) || file);
}

export interface AgentDetectorConfig {
  detector: Detector;
  enabled: boolean;
  shadow: boolean;
  settings: Record<string, unknown>;
}

export interface ResolvedAgentConfig {
  detectors: AgentDetectorConfig[];
  inflationFactor?: number;
}

/**
 * For schemas parsed a handful of times per run (the config, each detector's settings once per
 * agent): zod otherwise generates and compiles a fast-path parser for every object schema on its
 * first use, which took about 25 ms of a one-trace run for parses that take microseconds.
 */
const ONE_SHOT = { jitless: true } as const;

/** default ← agent section, per detector, then the detector's own defaults. */
export function resolveAgentConfig(
  config: Config,
  agentId: string,
  list: readonly Detector[] = builtInDetectors,
): ResolvedAgentConfig {
  const base = config.sections.default ?? {};
  const own = agentId === 'default' ? {} : (config.sections[agentId] ?? {});
  const detectorsOut = list.map((detector) => {
    const key = detector.meta.configKey;
    const merged = { ...(base[key] as object | undefined), ...(own[key] as object | undefined) };
    const parsed = detectorSettingsSchema(detector).parse(merged, ONE_SHOT) as Record<string, unknown> & {
      enabled: boolean;
      shadow: boolean;
    };
    const { enabled, shadow, ...settings } = parsed;
    return { detector, enabled, shadow, settings };
  });
  const inflation = (own.inflation_factor ?? base.inflation_factor) as number | undefined;
  return { detectors: detectorsOut, ...(inflation !== undefined ? { inflationFactor: inflation } : {}) };
}
