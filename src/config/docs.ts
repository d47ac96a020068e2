/**
 * The generated parts of docs/configuration.md, from the file's JSON Schema (the one editors
 * validate tracejury.yml with): a summary of the top-level keys, a section per key with every key
 * under it (type, default, description), and the agent sections, whose detector keys link to
 * docs/detectors.md where each detector's settings are listed. The prose around them is
 * docs/templates/configuration.md; scripts/write-docs.mjs writes the page and a test fails when the
 * committed page differs from what this renders.
 */
import type { Detector } from '../detect/detector.js';
import { detectorAnchor } from '../detect/docs.js';
import { detectors as builtInDetectors } from '../detect/registry.js';
import { fillTemplate, generatedNotice } from '../util/docTemplate.js';
import {
  describeFields,
  fieldListMarkdown,
  sentence,
  type JsonSchemaNode,
  type SchemaDocOptions,
} from '../util/schemaDocs.js';
import { configJsonSchema } from './config.js';

export const CONFIGURATION_TEMPLATE = 'docs/templates/configuration.md';

/** The heading (and so the anchor, `agent-sections`) of the section on `default:` and agentId sections. */
const AGENT_SECTIONS_HEADING = 'Agent sections';

const keyAnchor = (key: string) => key.toLowerCase();

/** Lists of detector ids read "detector id", not 31 names. */
function docOptions(list: readonly Detector[]): SchemaDocOptions {
  const ids = new Set(list.map((d) => d.meta.id));
  return {
    enumLabel: (values) =>
      values.length > 3 && values.every((v) => ids.has(v as string)) ? 'detector id' : undefined,
  };
}

/** A top-level key's description, its type when it is not simply a section, then the keys under it. */
function keySection(key: string, node: JsonSchemaNode, options: SchemaDocOptions): string {
  const [doc] = describeFields({ properties: { [key]: node } }, options);
  const type = doc!.type === 'object' ? [] : [`Type: ${doc!.type}.`];
  return [
    `## \`${key}\``,
    '',
    [sentence(doc!.description ?? ''), ...type].join(' '),
    ...(doc!.children.length > 0 ? ['', ...fieldListMarkdown(doc!.children)] : []),
  ].join('\n');
}

/** The object form of an agent section (`default:` is it or null). */
function agentSectionNode(schema: JsonSchemaNode): JsonSchemaNode {
  const section = (schema.properties?.default?.anyOf ?? []).find((v) => v.properties);
  if (!section) throw new Error('the config schema has no object form of the default: section');
  return section;
}

/**
 * `default:` and the agentId sections: the section's own keys (inflation_factor), the keys every
 * detector section takes, and one line per detector linking to its settings.
 */
function agentSections(schema: JsonSchemaNode, list: readonly Detector[]): string {
  const options = docOptions(list);
  const section = agentSectionNode(schema);
  const byKey = new Map(list.map((d) => [d.meta.configKey, d]));
  const own = describeFields(
    {
      properties: Object.fromEntries(Object.entries(section.properties!).filter(([k]) => !byKey.has(k))),
    },
    options,
  );
  // Every detector's settings schema carries the common keys; the first one shows them.
  const first = list[0] && section.properties![list[0].meta.configKey];
  const firstSettings = first && (first.anyOf ?? [first]).find((v) => v.properties);
  const common = describeFields({
    properties: Object.fromEntries(
      Object.entries(firstSettings?.properties ?? {}).filter(([k]) => k === 'enabled' || k === 'shadow'),
    ),
  });
  return [
    `## ${AGENT_SECTIONS_HEADING}`,
    '',
    'Keys of `default:` and of each section named after an agentId:',
    '',
    ...fieldListMarkdown(own),
    ...list.map(
      (d) =>
        `- [\`${d.meta.configKey}\`](detectors.md#${detectorAnchor(d)}) — \`true\`, \`false\` or its settings. ${sentence(d.meta.description)}`,
    ),
    '',
    'Every detector section also takes:',
    '',
    ...fieldListMarkdown(common),
  ].join('\n');
}

/** One row per top-level key, linking to its section. */
function summaryTable(schema: JsonSchemaNode): string {
  const rows = Object.entries(schema.properties ?? {})
    .filter(([key]) => key !== 'default')
    .map(([key, node]) => {
      const description =
        node.description ?? (node.anyOf ?? []).find((v) => v.description)?.description ?? '';
      return `| [\`${key}\`](#${keyAnchor(key)}) | ${sentence(description).replace(/\|/g, '\\|')} |`;
    });
  return [
    '| key | what it sets |',
    '| --- | --- |',
    `| [\`default\`, \`<agentId>\`](#agent-sections) | Detector settings for every agent, and per agent. |`,
    ...rows,
  ].join('\n');
}

/** The parts the template places, by placeholder name: `config-summary`, `config-agent-sections`, `config:<key>`. */
function configurationPageParts(list: readonly Detector[] = builtInDetectors): Record<string, string> {
  const schema = configJsonSchema(list) as JsonSchemaNode;
  const parts: Record<string, string> = {
    'config-summary': summaryTable(schema),
    'config-agent-sections': agentSections(schema, list),
  };
  for (const [key, node] of Object.entries(schema.properties ?? {})) {
    if (key !== 'default') parts[`config:${key}`] = keySection(key, node, docOptions(list));
  }
  return parts;
}

/** docs/configuration.md from its template. */
export function configurationPage(template: string, list: readonly Detector[] = builtInDetectors): string {
  const body = fillTemplate(template, configurationPageParts(list), CONFIGURATION_TEMPLATE);
  return `${generatedNotice(CONFIGURATION_TEMPLATE, 'the config schema in src/')}\n\n${body.trim()}\n`;
}
