/**
 * A Mermaid `xychart-beta` bar chart of waste by detector, base against head (GitHub renders
 * Mermaid in comments). Labels are redacted and reduced to identifier characters (mdFenceWord): a
 * label is text inside a code fence, where markdown escaping does not apply, so nothing from a
 * report may close the fence or the quoted label.
 */
import { joinMd, safeMd, mdFenceWord, type Markdown } from '../redact/markdown.js';
import type { DetectorDiff } from './totals.js';

export const CHART_MAX_DETECTORS = 10;

const num = (x: number) => Math.round(x * 1e6) / 1e6;

/** The chart's fenced block, or nothing when neither side has waste. */
export function wasteChart(detectors: readonly DetectorDiff[]): Markdown[] {
  const rows = detectors
    .filter((d) => d.wasteUsd.base > 0 || d.wasteUsd.head > 0)
    .slice(0, CHART_MAX_DETECTORS);
  if (rows.length === 0) return [];
  const max = Math.max(...rows.map((d) => Math.max(d.wasteUsd.base, d.wasteUsd.head)));
  const list = (items: Markdown[]) => joinMd(items, safeMd`, `);
  return [
    safeMd`\`\`\`mermaid`,
    safeMd`xychart-beta`,
    safeMd`  title "Waste by detector (USD): base, then head"`,
    safeMd`  x-axis [${list(rows.map((d) => safeMd`"${mdFenceWord(d.detector)}"`))}]`,
    safeMd`  y-axis "USD" 0 --> ${num(max * 1.1)}`,
    safeMd`  bar [${list(rows.map((d) => safeMd`${num(d.wasteUsd.base)}`))}]`,
    safeMd`  bar [${list(rows.map((d) => safeMd`${num(d.wasteUsd.head)}`))}]`,
    safeMd`\`\`\``,
  ];
}
