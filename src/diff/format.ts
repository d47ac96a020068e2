/** How both diff renderers write money, counts and changes. */
import { formatUsd } from '../report/summarise.js';
import { fmtInt } from '../util/thousands.js';
import type { Delta } from './delta.js';

export const signedUsd = (d: number): string =>
  d === 0 ? '$0.00' : d < 0 ? `-${formatUsd(-d)}` : `+${formatUsd(d)}`;

export const signedInt = (d: number): string => (d === 0 ? '0' : d < 0 ? `-${fmtInt(-d)}` : `+${fmtInt(d)}`);

/** "+35%", "-10%", "new" (from 0), "" (0 → 0). */
export function relativeText(d: Pick<Delta, 'relative' | 'delta'>): string {
  if (d.delta === 0) return '';
  if (d.relative === null) return 'new';
  const p = Math.round(d.relative * 1000) / 10;
  return `${p > 0 ? '+' : ''}${p}%`;
}

/** "$0.12 → $0.20 (+$0.08, +66.7%)". */
export function usdChange(d: Delta): string {
  const rel = relativeText(d);
  return `${formatUsd(d.base)} → ${formatUsd(d.head)} (${signedUsd(d.delta)}${rel ? `, ${rel}` : ''})`;
}

/** "3 → 5 (+2)". */
export function countChange(d: Delta): string {
  return `${fmtInt(d.base)} → ${fmtInt(d.head)} (${signedInt(d.delta)})`;
}
