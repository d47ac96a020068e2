/**
 * Runs the attribution rules over one trace, where the trace is (the detection stage, in whatever
 * thread), and keeps what choosing a root cause later needs: each candidate with its step moved
 * off routers and executors, its agent and its sentence. The trace itself is not kept; choose.ts
 * decides once escalation has settled which findings stand.
 */
import type { Signal } from '../detect/signal.js';
import { redactAndCut } from '../redact/safeText.js';
import type { Trace } from '../trace/schema.js';
import { callsOf, stepAgents } from './calls.js';
import type { AttributionSettings } from './config.js';
import { namePatterns } from './namePattern.js';
import { createRoleLookup, type RoleOf } from './roles.js';
import type { AttributionContext, AttributionRule, CandidateDraft, Strength } from './rule.js';
import { ATTRIBUTION_RULES } from './rules/index.js';
import { stepText } from './stepText.js';

/** A value quoted in a sentence: redacted and cut, as everything from a trace is. */
const MAX_VALUE_CHARS = 80;
/** An input shorter than this is not looked for in a step: "hi" is everywhere. */
const MIN_INPUT_CHARS = 12;
/** How much of a candidate step the tribunal sees. */
const MAX_EXCERPT_CHARS = 1200;

export interface Candidate {
  step: number;
  agent: string;
  rule: string;
  confidence: number;
  strength: Strength;
  /** The rule's sentence about the step. */
  evidence: string;
  basis?: { detector: string; step: number };
  effect?: { step: number; evidence: string };
  /** The step's text, cut, for the tribunal (kept only when judges may be asked). */
  excerpt?: string;
}

/** What the attribution stage needs of a trace: its candidates, in rule order. */
export interface AttributionFacts {
  candidates: Candidate[];
  /** Rules that threw on the trace (a tracejury bug): the others' candidates still stand. */
  failures?: { rule: string; message: string }[];
  /** The run's task (its input), cut, for the tribunal (kept only when judges may be asked). */
  task?: string;
}

function fill(template: string, data: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => {
    const v = data[key];
    return v === undefined ? '' : typeof v === 'number' ? String(v) : redactAndCut(v, MAX_VALUE_CHARS);
  });
}

/**
 * The question asked and its relay: leading steps that no agent owns (the person asking) or that
 * restate the run's input. No agent decided anything there.
 */
export function handoverSteps(trace: Trace, agents: readonly (string | undefined)[]): number {
  const input = typeof trace.input === 'string' ? trace.input.replace(/\s+/g, ' ').trim() : '';
  const named = agents.some((a) => a !== undefined);
  let n = 0;
  for (const [i, s] of trace.steps.entries()) {
    if (s.type !== 'message' && s.type !== 'llm') break;
    const asker = named && s.type === 'message' && agents[i] === undefined;
    const relays = input.length >= MIN_INPUT_CHARS && stepText(s).replace(/\s+/g, ' ').includes(input);
    if (!asker && !relays) break;
    n = i + 1;
  }
  return n;
}

/**
 * Blame never lands on a router or an executor: a step an executor owns moves to the worker step
 * it ran for (the nearest earlier one), a router's (or the person's) to the worker it handed to
 * (the nearest later one, else earlier). Undefined when the run has no worker step to move to.
 */
function blameable(
  step: number,
  agents: readonly (string | undefined)[],
  roleOf: RoleOf,
  trace: Trace,
): number | undefined {
  // A message no agent owns is the person's (or the user's): no agent's decision.
  const isWorker = (k: number) =>
    !(agents[k] === undefined && trace.steps[k]?.type === 'message') && roleOf(agents[k]) === 'worker';
  if (isWorker(step - 1)) return step;
  if (roleOf(agents[step - 1]) === 'executor') {
    for (let k = step - 2; k >= 0; k--) if (isWorker(k)) return k + 1;
    return undefined;
  }
  for (let k = step; k < agents.length; k++) if (isWorker(k)) return k + 1;
  for (let k = step - 2; k >= 0; k--) if (isWorker(k)) return k + 1;
  return undefined;
}

export interface CandidateOptions {
  /** Keep each candidate step's text for the tribunal. */
  excerpts?: boolean;
  rules?: readonly AttributionRule[];
}

/** What every rule reads of a trace, worked out once. */
export function attributionContext(
  trace: Trace,
  signals: readonly Signal[],
  settings: Pick<AttributionSettings, 'roles' | 'readTools'>,
): AttributionContext {
  const roleOf = createRoleLookup(settings.roles);
  const agents = stepAgents(trace);
  return {
    trace,
    signals,
    roleOf,
    agents,
    calls: callsOf(trace, agents, roleOf),
    handover: handoverSteps(trace, agents),
    isReadTool: namePatterns(settings.readTools),
  };
}

export function attributionFacts(
  trace: Trace,
  signals: readonly Signal[],
  settings: AttributionSettings,
  options: CandidateOptions = {},
): AttributionFacts {
  const ctx = attributionContext(trace, signals, settings);
  const candidates: Candidate[] = [];
  const failures: { rule: string; message: string }[] = [];
  for (const rule of options.rules ?? ATTRIBUTION_RULES) {
    // One rule's bug must not cost the trace its analysis, nor the other rules their say.
    try {
      for (const draft of rule.find(ctx)) {
        const c = resolve(draft, rule, ctx, options.excerpts === true);
        if (c) candidates.push(c);
      }
    } catch (err) {
      const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      failures.push({ rule: rule.meta.id, message: redactAndCut(message, MAX_VALUE_CHARS * 2) });
    }
  }
  const task =
    options.excerpts && trace.input !== undefined
      ? stepText({ type: 'message', from: '', content: trace.input })
      : '';
  return {
    candidates,
    ...(failures.length > 0 ? { failures } : {}),
    ...(task !== '' ? { task: redactAndCut(task, MAX_EXCERPT_CHARS) } : {}),
  };
}

function resolve(
  draft: CandidateDraft,
  rule: AttributionRule,
  ctx: AttributionContext,
  excerpts: boolean,
): Candidate | undefined {
  const { trace, agents, roleOf } = ctx;
  if (draft.step < 1 || draft.step > trace.steps.length) return undefined;
  const step = blameable(draft.step, agents, roleOf, trace);
  if (step === undefined) return undefined;
  const template = rule.meta.messages[draft.messageId];
  if (template === undefined)
    throw new Error(`attribution rule ${rule.meta.id}: no message "${draft.messageId}"`);
  const effectTemplate = draft.effect ? rule.meta.messages[draft.effect.messageId] : undefined;
  return {
    step,
    agent: agents[step - 1] ?? trace.agentId,
    rule: rule.meta.id,
    confidence: draft.confidence,
    strength: draft.strength,
    evidence: fill(template, draft.data),
    ...(draft.basis ? { basis: draft.basis } : {}),
    ...(draft.effect && effectTemplate !== undefined
      ? { effect: { step: draft.effect.step, evidence: fill(effectTemplate, draft.effect.data) } }
      : {}),
    ...(excerpts ? { excerpt: redactAndCut(stepText(trace.steps[step - 1]!), MAX_EXCERPT_CHARS) } : {}),
  };
}
