/**
 * A Mermaid `xychart-beta` bar chart of waste by detector, base against head (GitHub renders
 * Mermaid in comments). Labels are reduced to identifier characters: a label is text inside a
 * code fence, where markdown escaping does not apply, so nothing from a report may close the fence
 * or the quoted label.
 */
import type { DetectorDiff } from './totals.js';

export const CHART_MAX_DETECTORS = 10;

const label = (s: string) => s.replace(/[^A-Za-z0-9_.:-]/g, '_').slice(0, 40);
const num = (x: number) => String(Math.round(x * 1e6) / 1e6);

/** The chart's fenced block, or nothing when neither side has waste. */
export function wasteChart(detectors: readonly DetectorDiff[]): string[] {
  const rows = detectors
    .filter((d) => d.wasteUsd.base > 0 || d.wasteUsd.head > 0)
    .slice(0, CHART_MAX_DETECTORS);
  if (rows.length === 0) return [];
  const max = Math.max(...rows.map((d) => Math.max(d.wasteUsd.base, d.wasteUsd.head)));
  return [
    '```mermaid',
    'xychart-beta',
    '  title "Waste by detector (USD): base, then head"',
    `  x-axis [${rows.map((d) => `"${label(d.detector)}"`).join(', ')}]`,
    `  y-axis "USD" 0 --> ${num(max * 1.1)}`,
    `  bar [${rows.map((d) => num(d.wasteUsd.base)).join(', ')}]`,
    `  bar [${rows.map((d) => num(d.wasteUsd.head)).join(', ')}]`,
    '```',
  ];
}
