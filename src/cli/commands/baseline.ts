/** `tracejury baseline update|show|reset`: per-agent P75 baselines from good runs. */
import path from 'node:path';
import { analyze, DEFAULT_STATE_DIR } from '../../analyze.js';
import { describeLeftOut, whyNotLearned, type LeftOutReason } from '../../baseline/learn.js';
import {
  agentLabel,
  DEFAULT_BASELINE_FILE,
  emptyBaselines,
  keysOfAgent,
  mergeBaselines,
  readBaselineFile,
  resetBaselines,
  summariseBaselines,
  updateBaselines,
  withBaselineLock,
  writeBaselineFile,
  type BaselineFile,
} from '../../baseline/store.js';
import { loadConfig } from '../../config/config.js';
import { quoted, terminalText } from '../../redact/safeText.js';
import { UsageError } from '../../trace/paths.js';
import type { Trace } from '../../trace/schema.js';
import { nearest } from '../../util/nearest.js';
import { plural } from '../../util/thousands.js';
import { GLOSSARY } from '../glossary.js';
import { writeInputErrors } from '../inputErrors.js';
import { EXIT, type CliIO, type Command } from '../io.js';
import { writeJsonToStdout } from '../output.js';
import {
  agentOption,
  configOption,
  inputFormatOption,
  optionsUsage,
  parseCommandArgs,
  stateDirOption,
} from '../options.js';

const HELP_INTRO = `tracejury baseline update|show|reset

Six detectors (STEP_COUNT_INFLATION, SLOW_STEP, CONTEXT_BLOAT, REASONING_STALL, COST_SPIKE,
SESSION_LATENCY) compare a run with the P75 of its agent's last good runs once 20 exist.
update learns only good runs (status ok, no high or critical finding, a successful outcome where
one is recorded); show lists each agent's runs and P75s; reset forgets all or one agent's runs.

Exit status: 0, or 2 for usage errors, an unknown agent or an unreadable store.
`;

const UPDATE_OPTIONS = {
  'state-dir': stateDirOption,
  'input-format': inputFormatOption,
  config: configOption,
  agent: agentOption,
};

const SHOW_OPTIONS = {
  'state-dir': stateDirOption,
  config: configOption,
  format: {
    argument: 'text|json',
    description: 'text or json (default: text)',
    parse: (value: string): 'text' | 'json' => {
      if (value === 'text' || value === 'json') return value;
      throw new UsageError(`--format ${value}: expected text or json`);
    },
  },
};

const RESET_OPTIONS = { 'state-dir': stateDirOption };

const USAGE = `usage:
  tracejury baseline update <paths…> ${optionsUsage(UPDATE_OPTIONS, ['agent', 'state-dir', 'input-format', 'config'])}
  tracejury baseline show [agent] ${optionsUsage(SHOW_OPTIONS, ['format', 'state-dir', 'config'])}
  tracejury baseline reset [agent] ${optionsUsage(RESET_OPTIONS)}`;

async function run(args: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'update') return update(rest, io);
  if (sub === 'show') return show(rest, io);
  if (sub === 'reset') return reset(rest, io);
  throw new UsageError(USAGE);
}

function baselineFileOf(stateDir: string | undefined, io: CliIO): string {
  return path.join(path.resolve(io.cwd, stateDir ?? DEFAULT_STATE_DIR), DEFAULT_BASELINE_FILE);
}

/**
 * Learns only good runs: the traces go through analyze (detectors against the baselines as they
 * stand, no judges), and a run with status other than ok, a failed recorded outcome or a high or
 * critical finding is left out (baseline/learn.ts), with the count of each reason printed.
 */
async function update(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('baseline update', args, UPDATE_OPTIONS);
  if (positionals.length === 0)
    throw new UsageError('baseline update needs at least one path, directory or glob');
  const configFile = values.config ? path.resolve(io.cwd, values.config) : undefined;
  const config = loadConfig(configFile, io.cwd);
  const stateDir = path.resolve(io.cwd, values['state-dir'] ?? DEFAULT_STATE_DIR);
  const file = path.join(stateDir, DEFAULT_BASELINE_FILE);
  // Fail on an unreadable or damaged store before reading the traces; it is read again under the lock.
  readBaselineFile(file);
  // The new runs are collected apart (windowed, so memory stays bounded) and merged into the store
  // under the lock, so that concurrent updates keep each other's runs and the lock is held briefly.
  let added = emptyBaselines();
  const pending: Trace[] = [];
  const leftOut = new Map<LeftOutReason, number>();
  let learned = 0;
  const report = await analyze(positionals, {
    configFile,
    inputFormat: values['input-format'],
    stateDir,
    cwd: io.cwd,
    ...(values.agent !== undefined ? { agent: values.agent } : {}),
    escalate: false,
    notify: false,
    inputBaselines: false,
    onTrace: ({ trace }, signals) => {
      const reason = whyNotLearned(trace, signals);
      if (reason) {
        leftOut.set(reason, (leftOut.get(reason) ?? 0) + 1);
        return;
      }
      learned++;
      pending.push(trace);
      if (pending.length >= 1000) added = updateBaselines(added, pending.splice(0), config.baselines.window);
    },
  });
  added = updateBaselines(added, pending, config.baselines.window);
  const store = await withBaselineLock(file, () => {
    const merged = mergeBaselines(readBaselineFile(file), added, config.baselines.window);
    writeBaselineFile(file, merged);
    return merged;
  });
  writeInputErrors(io, report.inputs);
  const learnedAgents = Object.keys(added.agents).length;
  io.stdout.write(
    `learned ${plural(learned, 'run')} of ${plural(learnedAgents, 'agent')}; ${describeLeftOut(leftOut)}\n`,
  );
  const agents = Object.entries(store.agents).map(
    ([k, v]) => `${terminalText(agentLabel(k), 80)} (${plural(v.runs.length, 'run')})`,
  );
  const shown = agents.slice(0, 10).join(', ') + (agents.length > 10 ? `, … ${agents.length - 10} more` : '');
  io.stdout.write(`baselines: ${shown || 'no successful runs'} → ${path.relative(io.cwd, file)}\n`);
  return report.inputs.traces === 0 ? EXIT.usage : EXIT.ok;
}

/** The store keys an `[agent]` argument names; a name with no baseline is a usage error naming those that exist. */
function agentKeysOrFail(store: BaselineFile, agent: string): string[] {
  const keys = keysOfAgent(store, agent);
  if (keys.length > 0) return keys;
  const known = Object.keys(store.agents);
  const hint = nearest(agent, known);
  throw new UsageError(
    `no baseline for agent ${quoted(agent)}${hint ? ` — did you mean ${quoted(hint)}?` : ''}` +
      (known.length
        ? ` (agents: ${known
            .slice(0, 10)
            .map((k) => quoted(k))
            .join(', ')}${known.length > 10 ? ', …' : ''})`
        : ' (the store is empty)'),
  );
}

const METRIC_LABELS: Record<string, (v: number) => string> = {
  stepCount: (v) => `steps ${fmtNumber(v)}`,
  maxStepDurationMs: (v) => `slowest step ${fmtNumber(v)} ms`,
  maxPromptTokens: (v) => `largest prompt ${fmtNumber(v)} tokens`,
  llmToolRatio: (v) => `LLM/tool calls ${fmtNumber(v)}`,
  totalTokens: (v) => `tokens ${fmtNumber(v)}`,
  durationMs: (v) => `duration ${fmtNumber(v)} ms`,
};

function fmtNumber(v: number): string {
  return Number.isInteger(v) ? v.toLocaleString('en-US') : v.toFixed(2);
}

function show(args: string[], io: CliIO): number {
  const { values, positionals } = parseCommandArgs('baseline show', args, SHOW_OPTIONS);
  if (positionals.length > 1) throw new UsageError(USAGE);
  const format = values.format ?? 'text';
  const config = loadConfig(values.config ? path.resolve(io.cwd, values.config) : undefined, io.cwd);
  const { minRuns, window } = config.baselines;
  const file = baselineFileOf(values['state-dir'], io);
  const store = readBaselineFile(file);
  const only = positionals[0] === undefined ? undefined : agentKeysOrFail(store, positionals[0]);
  const agents = summariseBaselines(store, minRuns, window, only);
  if (format === 'json') {
    writeJsonToStdout(io, { file: path.relative(io.cwd, file), minRuns, window, agents });
    return EXIT.ok;
  }
  const lines = [
    `baselines in ${path.relative(io.cwd, file)} (active from ${minRuns} runs; the last ${window} kept)`,
  ];
  if (agents.length === 0) lines.push('  no agents yet: `tracejury baseline update <traces>` learns them');
  for (const a of agents) {
    const state = a.active ? 'active' : `static thresholds until ${minRuns}`;
    lines.push(`  ${terminalText(agentLabel(a.agent))}: ${plural(a.runs, 'run')} — ${state}`);
    const p75 = Object.entries(a.p75).map(([m, v]) => METRIC_LABELS[m]!(v));
    if (p75.length) lines.push(`    P75: ${p75.join(', ')}`);
  }
  io.stdout.write(lines.join('\n') + '\n');
  return EXIT.ok;
}

async function reset(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('baseline reset', args, RESET_OPTIONS);
  if (positionals.length > 1) throw new UsageError(USAGE);
  const agent = positionals[0];
  const file = baselineFileOf(values['state-dir'], io);
  readBaselineFile(file);
  const removed = await withBaselineLock(file, () => {
    const store = readBaselineFile(file);
    const keys = agent === undefined ? undefined : agentKeysOrFail(store, agent);
    const gone = Object.entries(store.agents).filter(([k]) => keys === undefined || keys.includes(k));
    writeBaselineFile(file, resetBaselines(store, keys));
    return { agents: gone.length, runs: gone.reduce((n, [, v]) => n + v.runs.length, 0) };
  });
  io.stdout.write(
    `baselines: removed ${plural(removed.runs, 'run')} of ${plural(removed.agents, 'agent')}` +
      `${agent === undefined ? ' (all)' : ` (${terminalText(agent)})`} → ${path.relative(io.cwd, file)}\n`,
  );
  return EXIT.ok;
}

export const baselineCommand: Command = {
  name: 'baseline',
  help: `${HELP_INTRO}\n${USAGE}\n\n${GLOSSARY}\n`,
  run,
};
