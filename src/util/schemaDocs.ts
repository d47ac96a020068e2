/**
 * Reference text from a JSON Schema (the one zod writes for tracejury.yml and for each detector's
 * settings): each key with its type, default and description, as a nested markdown list. The
 * generated pages docs/configuration.md and docs/detectors.md both print settings with it, so a
 * key reads the same on both, and what they say is what the schema validates.
 */

/** The part of JSON Schema that `z.toJSONSchema` writes and these pages read. */
export interface JsonSchemaNode {
  type?: string | string[];
  description?: string;
  default?: unknown;
  const?: unknown;
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  minItems?: number;
  properties?: Record<string, JsonSchemaNode>;
  additionalProperties?: JsonSchemaNode | boolean;
  items?: JsonSchemaNode;
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
}

/** One documented key: its name, type and default as text, and the keys under it. */
export interface FieldDoc {
  key: string;
  type: string;
  default?: string;
  description?: string;
  children: FieldDoc[];
}

/** zod writes an integer's upper bound as Number.MAX_SAFE_INTEGER: no bound worth printing. */
const NO_BOUND = Number.MAX_SAFE_INTEGER;

/** The variants of a union, with `null` left out (a `null` section means an empty one). */
function variants(node: JsonSchemaNode): JsonSchemaNode[] {
  const list = node.anyOf ?? node.oneOf;
  if (!list) return [node];
  return list.flatMap(variants).filter((v) => v.type !== 'null');
}

/** A value as it is written in YAML flow style: `3`, `auto`, `[a, b]`, `{ path: x }`. */
export function yamlValue(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(yamlValue).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${k}: ${yamlValue(v)}`).join(', ')} }`;
  }
  if (typeof value === 'string') return /^[\w./][\w .*/@-]*$/.test(value) ? value : JSON.stringify(value);
  return String(value);
}

function rangeText(node: JsonSchemaNode): string {
  const low =
    node.exclusiveMinimum !== undefined
      ? `> ${node.exclusiveMinimum}`
      : node.minimum !== undefined
        ? `≥ ${node.minimum}`
        : '';
  const highBound = node.maximum !== undefined && node.maximum !== NO_BOUND ? node.maximum : undefined;
  const high =
    node.exclusiveMaximum !== undefined
      ? `< ${node.exclusiveMaximum}`
      : highBound !== undefined
        ? `≤ ${highBound}`
        : '';
  if (node.minimum !== undefined && highBound !== undefined) return ` ${node.minimum}–${highBound}`;
  return [low, high]
    .filter(Boolean)
    .map((s) => ` ${s}`)
    .join(',');
}

/** How a page names values the schema lists: a detector id instead of 31 ids. */
export interface SchemaDocOptions {
  /** A name for an enum's values (e.g. "detector id"), or undefined to list them. */
  enumLabel?: (values: readonly unknown[]) => string | undefined;
}

/** The type of a value, in words: `integer ≥ 2`, `list of string`, `one of auto, replay, record`. */
export function typeText(node: JsonSchemaNode, options: SchemaDocOptions = {}): string {
  const forms = variants(node);
  if (forms.length > 1) {
    const texts = forms.map((f) => typeText(f, options));
    // `high` or `[critical, high]`: one type "(or a list of them)", not two.
    const itemTexts = forms.map((f) =>
      f.type === 'array' && f.items ? typeText(f.items, options) : undefined,
    );
    const listed = (t: string) => itemTexts.includes(t);
    const shown = texts
      .filter((_, i) => itemTexts[i] === undefined || !texts.includes(itemTexts[i]!))
      .map((t) => (listed(t) ? `${t} (or a list of them)` : t));
    return [...new Set(shown)].join(', or ');
  }
  const n = forms[0] ?? node;
  if (n.const !== undefined) return `\`${yamlValue(n.const)}\``;
  if (n.enum) {
    return options.enumLabel?.(n.enum) ?? `one of ${n.enum.map((v) => `\`${yamlValue(v)}\``).join(', ')}`;
  }
  const type = Array.isArray(n.type) ? n.type.join(' or ') : n.type;
  switch (type) {
    case 'integer':
    case 'number':
      return `${type}${rangeText(n)}`;
    case 'string':
      return n.format === 'uri' ? 'URL' : 'string';
    case 'array':
      return n.items ? `list of ${typeText(n.items, options)}` : 'list';
    case 'object':
      if (!n.properties && typeof n.additionalProperties === 'object')
        return `map of name → ${typeText(n.additionalProperties, options)}`;
      return 'object';
    default:
      return type ?? 'any value';
  }
}

/** The keys an object (or a union holding one, or a list of them) documents. */
function childFields(node: JsonSchemaNode, options: SchemaDocOptions): FieldDoc[] {
  for (const v of variants(node)) {
    if (v.type === 'array' && v.items) {
      const inner = childFields(v.items, options);
      if (inner.length > 0) return inner;
    }
    const fields = describeFields(v, options);
    if (fields.length > 0) return fields;
  }
  return [];
}

/** A map's entries worth a line: those that are objects with keys of their own. */
function mapEntries(node: JsonSchemaNode): JsonSchemaNode | undefined {
  const entry = node.additionalProperties;
  return typeof entry === 'object' && variants(entry).some((e) => e.properties) ? entry : undefined;
}

/** Every key of an object schema, in the schema's order, with the keys under each; `<name>` for a map's entries. */
export function describeFields(node: JsonSchemaNode, options: SchemaDocOptions = {}): FieldDoc[] {
  const entry = mapEntries(node);
  const properties = { ...node.properties, ...(entry ? { '<name>': entry } : {}) };
  return Object.entries(properties).map(([key, child]) => {
    const children = childFields(child, options);
    const doc: FieldDoc = { key, type: typeText(child, options), children };
    // An object's default is its keys' defaults, listed under it.
    if (child.default !== undefined && children.length === 0) doc.default = yamlValue(child.default);
    const description = child.description ?? variants(child).find((v) => v.description)?.description;
    if (description) doc.description = description;
    return doc;
  });
}

/** A sentence ends with a full stop. */
export function sentence(text: string): string {
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/**
 * The fields as a nested markdown list: "`key` — type, default `x`. Description." A list, not a
 * table: long defaults and descriptions wrap instead of widening the page.
 */
export function fieldListMarkdown(fields: readonly FieldDoc[], depth = 0): string[] {
  const indent = '  '.repeat(depth);
  return fields.flatMap((f) => {
    const facts = [f.type, f.default !== undefined ? `default \`${f.default}\`` : undefined].filter(Boolean);
    const line = `${indent}- \`${f.key}\` — ${facts.join(', ')}.${f.description ? ` ${sentence(f.description)}` : ''}`;
    return [line, ...fieldListMarkdown(f.children, depth + 1)];
  });
}
