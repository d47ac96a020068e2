/**
 * A compared quantity in words, as every renderer and the gate's reasons say it:
 * "success 66 % → 25 % (−42 pts, 95 % interval −50 … −33), 194 tasks paired", and, when the runs
 * are too few, "at 20 runs a side a drop under 41 points cannot be told from noise". Plain text:
 * the renderers escape it as they escape everything (a custom detector's id is in a label).
 */
import { formatUsd } from '../report/summarise.js';
import { fmtInt, plural } from '../util/thousands.js';
import { absoluteMinEffect, type RegressionPolicy } from './config.js';
import type { Quantity } from './quantity.js';

const MINUS = '−';

/** Rounded half away from zero, so that −37.5 and +37.5 read as −38 and +38. */
const roundHalfAway = (x: number) => Math.sign(x) * Math.round(Math.abs(x));

/** 66 %, 0.5 %, 7.5 %: whole percents from 10 up, one decimal below. */
export function percentText(share: number): string {
  const p = share * 100;
  const r = Math.abs(p) >= 10 || Number.isInteger(p) ? roundHalfAway(p) : roundHalfAway(p * 10) / 10;
  return `${r} %`;
}

/** A number of points with its sign: −42 pts, +2.5 pts, 0 pts. */
function points(change: number, unit = ' pts'): string {
  const p = change * 100;
  const r = Math.abs(p) >= 10 ? roundHalfAway(p) : roundHalfAway(p * 10) / 10;
  if (r === 0) return `0${unit}`;
  return `${r > 0 ? '+' : MINUS}${Math.abs(r)}${unit}`;
}

function signedUsd(x: number): string {
  if (x === 0) return '$0.00';
  return `${x > 0 ? '+' : MINUS}${formatUsd(Math.abs(x))}`;
}

function signedScore(x: number): string {
  const r = Math.round(x * 1000) / 1000;
  return r === 0 ? '0' : `${r > 0 ? '+' : MINUS}${Math.abs(r)}`;
}

/** A side's value: 66 %, $0.0123, 0.82; – when there is none. */
export function valueText(q: Pick<Quantity, 'unit'>, value: number | null): string {
  if (value === null) return '–';
  if (q.unit === 'share') return percentText(value);
  if (q.unit === 'usd') return formatUsd(value);
  return (Math.round(value * 1000) / 1000).toFixed(2);
}

/** A change in the quantity's unit, signed: −42 pts, +$0.0040 (+35 %), −0.05. */
export function deltaText(q: Pick<Quantity, 'unit' | 'relative'>, change: number): string {
  if (q.unit === 'share') return points(change);
  if (q.unit === 'usd')
    return `${signedUsd(change)}${q.relative !== null && change !== 0 ? ` (${points(q.relative, ' %')})` : ''}`;
  return signedScore(change);
}

/** One bound of an interval, in the quantity's unit without the word: −50, +$0.0012, −0.04. */
function boundText(q: Pick<Quantity, 'unit'>, x: number): string {
  if (q.unit === 'share') return points(x, '');
  if (q.unit === 'usd') return signedUsd(x);
  return signedScore(x);
}

/** "95 % interval −50 … −33", or '' with no interval. */
function intervalText(q: Pick<Quantity, 'unit' | 'interval'>): string {
  if (!q.interval) return '';
  return `95 % interval ${boundText(q, q.interval[0])} … ${boundText(q, q.interval[1])}`;
}

const UNIT_OF_PAIRING = {
  test: ['test', 'tests'],
  task: ['task', 'tasks'],
  trace: ['trace', 'traces'],
} as const;

/** "194 tasks paired", "50 tests paired", "100 runs a side" (or "100 and 80 runs"). */
export function pairingText(q: Pick<Quantity, 'pairing' | 'base' | 'head' | 'source'>): string {
  const p = q.pairing;
  if (p?.method === 'paired') {
    const [one, many] = UNIT_OF_PAIRING[p.by ?? 'task'];
    return `${plural(p.matched ?? 0, one, many)} paired`;
  }
  const unit = q.source === 'verdicts' ? ['verdict', 'verdicts'] : ['run', 'runs'];
  return q.base.runs === q.head.runs
    ? `${plural(q.base.runs, unit[0]!, unit[1]!)} a side`
    : `${fmtInt(q.base.runs)} and ${plural(q.head.runs, unit[0]!, unit[1]!)}`;
}

/** "success 66 % → 25 % (−42 pts, 95 % interval −50 … −33), 194 tasks paired". */
export function changeText(q: Quantity): string {
  const change =
    q.change === null ? '' : ` (${[deltaText(q, q.change), intervalText(q)].filter(Boolean).join(', ')})`;
  return `${q.label} ${valueText(q, q.base.mean)} → ${valueText(q, q.head.mean)}${change}, ${pairingText(q)}`;
}

/** "5 pts", "20 % of base's ($0.0021)", "0.05". */
export function minEffectText(q: Quantity, policy: RegressionPolicy): string {
  const abs = absoluteMinEffect(q.id, q.base.mean, policy);
  if (q.unit === 'share') return `${Math.round(abs * 1000) / 10} pts`;
  if (q.unit === 'usd')
    return `${Math.round(policy.minEffect[q.id === 'cost' ? 'cost' : 'waste'] * 100)} % of base's (${formatUsd(abs)})`;
  return String(abs);
}

/** "20 runs", "25 tasks": the units the smallest detectable change was worked out for. */
function unitsText(q: Quantity): string {
  const p = q.pairing;
  if (p?.method === 'paired') {
    const [one, many] = UNIT_OF_PAIRING[p.by ?? 'task'];
    return plural(p.matched ?? 0, one, many);
  }
  return plural(Math.min(q.base.runs, q.head.runs), 'run');
}

/**
 * "at 20 runs a side a drop under 41 points cannot be told from noise" (for success); undefined
 * when the quantity was not compared.
 */
export function minDetectableText(q: Quantity): string | undefined {
  if (q.status !== 'compared') return undefined;
  const move = q.better === 'higher' ? 'drop' : 'rise';
  const at = `at ${unitsText(q)} a side`;
  if (q.minDetectable === null) return `${at} no ${move} in ${q.label} can be told from noise`;
  const size =
    q.unit === 'share'
      ? `${Math.round(q.minDetectable * 100)} points`
      : q.unit === 'usd'
        ? formatUsd(q.minDetectable)
        : (Math.round(q.minDetectable * 100) / 100).toFixed(2);
  return `${at} a ${move} in ${q.label} under ${size} cannot be told from noise`;
}

/** A quantity as one row of the text, markdown and HTML tables, every cell worded. */
export interface QuantityRow {
  id: string;
  name: string;
  base: string;
  head: string;
  change: string;
  /** "−50 … −33", or – without an interval. */
  interval: string;
  /** "sign-flip, exact · 194 tasks paired"; – when not compared (the diff's notes say why). */
  test: string;
  /** "0.003 (0.006 adjusted)" for a gated quantity, "0.21" otherwise, – when not compared. */
  p: string;
  /** "FAILED", "within noise", "better", "worse, under its minimum effect (5 pts)", … */
  verdict: string;
  /** `failed`, `worse`, `better`, `neutral`: for colour. */
  tone: 'failed' | 'worse' | 'better' | 'neutral';
}

/** A p-value as a reader reads it: 0.031, 0.0004, < 0.0001. */
export const pText = (p: number): string =>
  p < 0.0001 ? '< 0.0001' : p < 0.001 ? p.toFixed(4) : String(Math.round(p * 1000) / 1000);

export function quantityRow(q: Quantity, policy: RegressionPolicy): QuantityRow {
  const compared = q.status === 'compared';
  const bounds = q.interval ? intervalText(q).replace(/^95 % interval /, '') : '–';
  let verdict: string;
  let tone: QuantityRow['tone'] = 'neutral';
  switch (q.decision) {
    case 'failed':
      verdict = 'FAILED: worse beyond noise';
      tone = 'failed';
      break;
    case 'small':
      verdict = `worse, under its minimum effect (${minEffectText(q, policy)})`;
      tone = 'worse';
      break;
    case 'excused':
      verdict = 'worse, excused: success rose beyond noise';
      tone = 'worse';
      break;
    case 'untested':
      verdict = `not compared${q.status === 'unknown' ? ' (unknown)' : ''}`;
      break;
    default:
      verdict = !compared
        ? q.status === 'unknown'
          ? 'unknown'
          : 'not compared'
        : (q.reading ?? 'within noise');
      if (q.reading === 'better') tone = 'better';
      if (q.reading === 'worse') tone = 'worse';
      if (compared && !q.gated) verdict += ' (not gated)';
  }
  return {
    id: q.id,
    name: q.label,
    base: valueText(q, q.base.mean),
    head: valueText(q, q.head.mean),
    change: q.change === null ? '–' : deltaText(q, q.change),
    interval: bounds,
    test: compared ? `${q.test ?? ''} · ${pairingText(q)}` : '–',
    p:
      q.p === null
        ? '–'
        : q.adjustedP !== null
          ? `${pText(q.p)} (${pText(q.adjustedP)} adjusted)`
          : pText(q.p),
    verdict,
    tone,
  };
}
