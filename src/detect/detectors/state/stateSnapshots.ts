/**
 * Shared plumbing for the state detectors (not a detector): `state` steps grouped per agentId in
 * trace order, flattened to leaf paths, and small helpers to describe values in messages.
 *
 * Walking is bounded (depth and node count) because a state snapshot is untrusted data of any size.
 */
import type { Trace } from '../../../trace/schema.js';
import { fmtThousands } from '../../../util/thousands.js';
import { redactAndCut } from '../../../redact/safeText.js';

export interface Snapshot {
  /** 1-based step number. */
  step: number;
  agentId: string;
  state: Record<string, unknown>;
}

const NO_SNAPSHOTS: ReadonlyMap<string, readonly Snapshot[]> = new Map();
// The last trace's snapshots (one entry rather than a WeakMap: see measureTrace in src/trace/measure.ts).
let lastTrace: Trace | undefined;
let lastSteps = 0;
let lastByAgent: ReadonlyMap<string, readonly Snapshot[]> = NO_SNAPSHOTS;

/**
 * `state` steps per agentId, in trace order. Six detectors ask for them on every trace, so they are
 * grouped once per trace and shared read-only (a trace without any gets one shared empty map).
 */
export function snapshotsByAgent(trace: Trace): ReadonlyMap<string, readonly Snapshot[]> {
  if (trace === lastTrace && trace.steps.length === lastSteps) return lastByAgent;
  let any = false;
  for (const s of trace.steps) {
    if (s.type === 'state') {
      any = true;
      break;
    }
  }
  lastByAgent = any ? groupSnapshots(trace) : NO_SNAPSHOTS;
  lastTrace = trace;
  lastSteps = trace.steps.length;
  return lastByAgent;
}

function groupSnapshots(trace: Trace): Map<string, Snapshot[]> {
  const out = new Map<string, Snapshot[]>();
  trace.steps.forEach((s, i) => {
    if (s.type !== 'state') return;
    const list = out.get(s.agentId) ?? [];
    list.push({ step: i + 1, agentId: s.agentId, state: s.state });
    out.set(s.agentId, list);
  });
  return out;
}

export const MAX_DEPTH = 16;
export const MAX_NODES = 10_000;

export type ValueType = 'null' | 'string' | 'number' | 'boolean' | 'array' | 'object' | 'other';

export function typeOfValue(v: unknown): ValueType {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  if (t === 'string' || t === 'number' || t === 'boolean' || t === 'object') return t;
  return 'other';
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

export const joinPath = (parent: string, key: string) => (parent ? `${parent}.${key}` : key);

/**
 * Every node of a state by path: objects are descended into (and listed themselves), arrays and
 * primitives are leaves. `a.b` for nested keys.
 */
export function flattenState(state: Record<string, unknown>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const walk = (obj: Record<string, unknown>, prefix: string, depth: number) => {
    for (const [k, v] of Object.entries(obj)) {
      if (out.size >= MAX_NODES) return;
      const path = joinPath(prefix, k);
      out.set(path, v);
      if (isPlainObject(v) && depth < MAX_DEPTH) walk(v, path, depth + 1);
    }
  };
  walk(state, '', 0);
  return out;
}

/** Leaf paths only (non-object values), from a flattened state. */
export function leaves(flat: Map<string, unknown>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of flat) if (!isPlainObject(v)) out.set(k, v);
  return out;
}

/**
 * Visits every object in a value (nested objects and objects inside arrays), with its path:
 * `bookings[0]` for array elements.
 */
export function visitObjects(
  value: unknown,
  visit: (obj: Record<string, unknown>, path: string) => void,
  path = '',
  depth = 0,
  budget = { nodes: MAX_NODES },
): void {
  if (depth > MAX_DEPTH || budget.nodes <= 0) return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => visitObjects(v, visit, `${path}[${i}]`, depth + 1, budget));
  } else if (isPlainObject(value)) {
    budget.nodes -= 1;
    visit(value, path);
    for (const [k, v] of Object.entries(value)) {
      if (v !== null && typeof v === 'object') visitObjects(v, visit, joinPath(path, k), depth + 1, budget);
    }
  }
}

/** Lowercase word tokens of a key: `startDate` → [start, date], `check_in` → [check, in]. */
export function keyTokens(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** A short, single-line rendering of a value for messages and evidence. */
export function preview(v: unknown, max = 40): string {
  let s: string;
  try {
    s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  } catch {
    s = String(v);
  }
  return redactAndCut(s, max);
}

/** Lists up to `n` items, then "and K more". */
export function listSome(items: readonly string[], n = 5): string {
  return items.length <= n
    ? items.join(', ')
    : `${items.slice(0, n).join(', ')} and ${fmtThousands(items.length - n)} more`;
}
