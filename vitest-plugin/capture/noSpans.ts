/**
 * What captureTrace says when a call recorded no span: the causes users meet, the one that is
 * detectably true first (the OpenAI Agents SDK under Vitest), each with its fix.
 */

/** Where `@openai/agents-core` keeps its trace provider (agents-core's getGlobalTraceProvider). */
const AGENTS_TRACE_PROVIDER = Symbol.for('openai.agents.core.traceProvider');

interface AgentsTraceProvider {
  createTrace?: (options: object) => { traceId?: unknown } | undefined;
}

/**
 * Whether the OpenAI Agents SDK is loaded with its tracing off. Its provider is private about
 * that, but a disabled one answers createTrace with its no-op trace (id `no-op`); a real trace is
 * only created, never started, so asking records nothing.
 */
function agentsSdkTracingOff(): boolean {
  const provider = (globalThis as Record<symbol, AgentsTraceProvider | undefined>)[AGENTS_TRACE_PROVIDER];
  if (typeof provider?.createTrace !== 'function') return false;
  try {
    return provider.createTrace({})?.traceId === 'no-op';
  } catch {
    return false;
  }
}

const AGENTS_SDK_OFF =
  'The OpenAI Agents SDK is loaded with its tracing switched off: it turns tracing off when NODE_ENV is ' +
  "'test', which Vitest sets (OPENAI_AGENTS_DISABLE_TRACING=0 does not turn it back on). Call " +
  "setTracingDisabled(false) from '@openai/agents' before the run, and send its traces to " +
  'OpenTelemetry with OpenInference’s bridge (new OpenAIAgentsInstrumentation() from ' +
  "'@arizeai/openinference-instrumentation-openai-agents', then .manuallyInstrument(agents)).";

const CAUSES = [
  'AI SDK 5: experimental_telemetry: { isEnabled: true }; AI SDK 7: telemetry: { integrations: ' +
    "[new OpenTelemetry()] } (from '@ai-sdk/otel') or registerTelemetry(…).",
  'An instrumentation (OpenInference, @opentelemetry/instrumentation-*) patches an SDK that is ' +
    'imported with `import` only through its manuallyInstrument(module), where it has one; ' +
    'registerInstrumentations patches modules loaded with require afterwards, in the versions it supports ' +
    '(@opentelemetry/instrumentation-openai: openai below 7).',
  'An instrumentation given a tracerProvider of its own records into that provider: add ' +
    "tracejuryProcessor() (from 'tracejury/vitest') to its spanProcessors.",
  'Spans are seen only when started inside fn (not by an agent run begun before captureTrace) and ' +
    'sampled by your provider.',
];

/** The error message of a capture that recorded no span. */
export function noSpansMessage(): string {
  const causes = agentsSdkTracingOff() ? [AGENTS_SDK_OFF, ...CAUSES] : CAUSES;
  return `captureTrace: no spans were captured during the call.${causes.map((c) => `\n  - ${c}`).join('')}`;
}
