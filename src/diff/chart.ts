/**
 * The change in waste per detector as bars in two table columns, drawn to one scale: a decrease
 * grows left from the line between them, an increase right (the columns are aligned right and
 * left). Text, so GitHub, a terminal's markdown viewer and a mail client all draw the same bars,
 * and a bar is only ever the one number it stands for.
 *
 * Not Mermaid: `xychart-beta` draws a bar from the bottom of its axis, not from zero, so a decrease
 * reads as a small increase, and a second bar series is drawn over the first in the same slot
 * (mermaid-js/mermaid#7392), hiding the smaller.
 */
import { formatUsd } from '../report/summarise.js';

/** Blocks the largest change takes. */
export const BAR_WIDTH = 16;

export interface WasteBar {
  /** The bar in the "waste down" column (empty for an increase). */
  down: string;
  /** The bar in the "waste up" column (empty for a decrease). */
  up: string;
}

/** A change too small for one block still shows, thinner than one, so no change reads as none. */
const SLIVER = '▏';

/** One bar per change (in order), and what one block is worth; none when nothing changed. */
export function wasteBars(deltas: readonly number[]): { bars: WasteBar[]; unit: string } | undefined {
  const max = Math.max(0, ...deltas.map((d) => Math.abs(d)).filter(Number.isFinite));
  if (max === 0) return undefined;
  const bars = deltas.map((d) => {
    if (!Number.isFinite(d) || d === 0) return { down: '', up: '' };
    const blocks = Math.round((Math.abs(d) / max) * BAR_WIDTH);
    const bar = blocks === 0 ? SLIVER : '█'.repeat(blocks);
    return d < 0 ? { down: bar, up: '' } : { down: '', up: bar };
  });
  return { bars, unit: formatUsd(max / BAR_WIDTH) };
}
