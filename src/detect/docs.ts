/**
 * The README's detector reference, generated from the registry so the documented ids, config keys
 * and defaults are the ones the code uses (a test checks the README contains this table).
 */
import type { z } from 'zod';
import type { Detector } from './detector.js';
import { detectors as builtInDetectors } from './registry.js';

const KIND_TITLES = {
  structural: 'Structural (tier 1)',
  state: 'State deltas (tier 2)',
  waste: 'Cost waste (priority order)',
} as const;

function formatDefault(value: unknown): string {
  if (Array.isArray(value)) {
    const shown = value.slice(0, 4).map((v) => String(v));
    return `[${shown.join(', ')}${value.length > 4 ? ', …' : ''}]`;
  }
  if (value && typeof value === 'object') return Object.keys(value).length === 0 ? '{}' : '{…}';
  return String(value);
}

/** A table cell: pipes escaped. */
const cell = (s: string) => s.replace(/\|/g, '\\|');

export function detectorSettingsText(d: Detector): string {
  const defaults = (d.meta.config as z.ZodObject).parse({}) as Record<string, unknown>;
  const entries = Object.entries(defaults).map(([k, v]) => `\`${k}\` ${formatDefault(v)}`);
  return entries.length > 0 ? entries.join(', ') : '—';
}

export function detectorTableMarkdown(list: readonly Detector[] = builtInDetectors): string {
  const out: string[] = [];
  for (const kind of ['structural', 'state', 'waste'] as const) {
    const group = list.filter((d) => d.meta.kind === kind && (kind !== 'structural' || d.meta.tier === 1));
    if (group.length === 0) continue;
    out.push(
      `#### ${KIND_TITLES[kind]}`,
      '',
      '| detector | config key | severity | what it catches | fix | settings (defaults) |',
      '|---|---|---|---|---|---|',
    );
    for (const d of group) {
      const extra =
        kind === 'waste'
          ? ` Priority ${d.meta.priority}${d.meta.suppressedBy?.length ? `; suppressed by ${d.meta.suppressedBy.join(', ')}` : ''}.`
          : d.meta.baseline
            ? ` Baseline: P75 of ${d.meta.baseline}.`
            : '';
      out.push(
        `| \`${d.meta.id}\` | \`${d.meta.configKey}\` | ${d.meta.severity} | ${cell(d.meta.description.replace(/\.$/, ''))}.${extra} | ${cell(d.meta.fix)} | ${cell(detectorSettingsText(d))} |`,
      );
    }
    out.push('');
  }
  out.push(...wasteChargeTable(list));
  return out.join('\n').trimEnd() + '\n';
}

/**
 * Who charges a wasted LLM call, in priority order: each detector that charges waste and which
 * calls its rule counts (`meta.wasteRule`).
 */
function wasteChargeTable(list: readonly Detector[]): string[] {
  const charging = list
    .filter((d) => d.meta.priority !== undefined)
    .sort((a, b) => a.meta.priority! - b.meta.priority!);
  if (charging.length === 0) return [];
  return [
    '#### Who charges a wasted LLM call (priority order)',
    '',
    '| priority | detector | kind | the calls its waste counts |',
    '|---|---|---|---|',
    ...charging.map(
      (d) => `| ${d.meta.priority} | \`${d.meta.id}\` | ${d.meta.kind} | ${cell(d.meta.wasteRule ?? '—')} |`,
    ),
    '',
  ];
}
