/**
 * The generated parts of docs/detectors.md, from the registry: a summary table, a section per
 * detector (what it catches, severity, fix, baseline, waste and every setting with its default,
 * from the detector's zod config), and the order of who charges a wasted LLM call. The prose around
 * them is docs/templates/detectors.md; scripts/write-docs.mjs writes the page and a test fails when
 * the committed page differs from what this renders.
 */
import { z } from 'zod';
import { DEFAULT_BASELINES } from '../baseline/config.js';
import { fillTemplate, generatedNotice } from '../util/docTemplate.js';
import { describeFields, fieldListMarkdown, sentence, type JsonSchemaNode } from '../util/schemaDocs.js';
import type { BaselineMetric, Detector, DetectorKind } from './detector.js';
import { detectors as builtInDetectors } from './registry.js';

export const DETECTORS_TEMPLATE = 'docs/templates/detectors.md';

/** What each baseline metric measures, in the words the page uses. */
const BASELINE_WORDS: Record<BaselineMetric, string> = {
  stepCount: 'step count',
  maxStepDurationMs: 'longest step',
  maxPromptTokens: 'largest prompt in tokens',
  llmToolRatio: 'ratio of LLM calls to tool calls',
  totalTokens: 'total tokens',
  durationMs: 'wall-clock duration',
};

/** A table cell: pipes escaped. */
const cell = (s: string) => s.replace(/\|/g, '\\|');

/** The anchor of a detector's section: GitHub's slug of its heading, the id in lower case. */
export const detectorAnchor = (d: Detector) => d.meta.id.toLowerCase();

const link = (d: Detector) => `[\`${d.meta.id}\`](#${detectorAnchor(d)})`;

/** Every detector, one row each: narrow columns, the details are in its section. */
function summaryTable(list: readonly Detector[]): string {
  return [
    '| detector | tier | kind | severity | failure mode |',
    '| --- | :-: | --- | --- | --- |',
    ...list.map(
      (d) =>
        `| ${link(d)} | ${d.meta.tier} | ${d.meta.kind} | ${d.meta.severity} | ${cell(d.meta.failureMode)} |`,
    ),
  ].join('\n');
}

/** A detector's own settings (without `enabled` and `shadow`, which every detector takes). */
function settingsList(d: Detector): string[] {
  const schema = z.toJSONSchema(d.meta.config, { io: 'input', unrepresentable: 'any' }) as JsonSchemaNode;
  const fields = describeFields(schema);
  if (fields.length === 0) return ['No settings besides `enabled` and `shadow`.'];
  return [`Settings, under \`${d.meta.configKey}:\` in an agent section:`, '', ...fieldListMarkdown(fields)];
}

function baselineText(metric: BaselineMetric): string {
  return (
    `**Baseline:** once the agent version has ${DEFAULT_BASELINES.minRuns} good runs ` +
    `([baselines](configuration.md#baselines)), the threshold is \`baseline_multiplier\` (or the ` +
    `agent's \`inflation_factor\`) × the P75 of their ${BASELINE_WORDS[metric]} (\`${metric}\`); ` +
    'the static threshold below applies until then.'
  );
}

function wasteText(d: Detector): string {
  const rule = d.meta.wasteRule ? ` It charges ${d.meta.wasteRule}.` : '';
  const suppressed = d.meta.suppressedBy?.length
    ? ` Suppressed on a trace that ${d.meta.suppressedBy.map((id) => `\`${id}\``).join(' or ')} claims.`
    : '';
  return `**Waste:** priority ${d.meta.priority} in [who charges a wasted LLM call](#who-charges-a-wasted-llm-call).${rule}${suppressed}`;
}

/** One detector's section. */
function detectorSection(d: Detector): string {
  const m = d.meta;
  return [
    `### \`${m.id}\``,
    '',
    sentence(m.description),
    ...(m.rule ? ['', m.rule] : []),
    '',
    `Severity **${m.severity}** · tier ${m.tier} · failure mode \`${m.failureMode}\` · config key \`${m.configKey}\``,
    '',
    `**Fix:** ${sentence(m.fix)}`,
    ...(m.baseline ? ['', baselineText(m.baseline)] : []),
    ...(m.priority !== undefined ? ['', wasteText(d)] : []),
    '',
    ...settingsList(d),
  ].join('\n');
}

function group(list: readonly Detector[], kind: DetectorKind): string {
  return list
    .filter((d) => d.meta.kind === kind)
    .map(detectorSection)
    .join('\n\n');
}

/**
 * Who charges a wasted LLM call, in priority order: each detector that charges waste and which
 * calls its rule counts (`meta.wasteRule`).
 */
function wasteChargeTable(list: readonly Detector[]): string {
  const charging = list
    .filter((d) => d.meta.priority !== undefined)
    .sort((a, b) => a.meta.priority! - b.meta.priority!);
  return [
    '| priority | detector | kind | the calls its waste counts |',
    '| :-: | --- | --- | --- |',
    ...charging.map(
      (d) => `| ${d.meta.priority} | ${link(d)} | ${d.meta.kind} | ${cell(d.meta.wasteRule ?? '—')} |`,
    ),
  ].join('\n');
}

/** The parts the template places, by placeholder name. */
function detectorsPageParts(list: readonly Detector[] = builtInDetectors): Record<string, string> {
  return {
    'detectors-summary': summaryTable(list),
    'detectors-structural': group(list, 'structural'),
    'detectors-state': group(list, 'state'),
    'detectors-waste': group(list, 'waste'),
    'waste-charge-order': wasteChargeTable(list),
  };
}

/** docs/detectors.md from its template. */
export function detectorsPage(template: string, list: readonly Detector[] = builtInDetectors): string {
  const body = fillTemplate(template, detectorsPageParts(list), DETECTORS_TEMPLATE);
  return `${generatedNotice(DETECTORS_TEMPLATE, "each detector's meta in src/detect/detectors/")}\n\n${body.trim()}\n`;
}
