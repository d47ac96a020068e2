/**
 * The agent as a process of its own, the way a deployed agent (or one written in another language)
 * runs: its spans go out through the OpenTelemetry OTLP/HTTP exporter to wherever
 * OTEL_EXPORTER_OTLP_ENDPOINT points. evals/other-process.test.ts starts a trace receiver and
 * hands this process the receiver's env.
 *
 *   node --import tsx agent-process.ts "Where is my order 4412?"
 */
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { createSupportAgent } from './agent.js';

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
// The exporter reads its endpoint and protocol from the OTEL_EXPORTER_OTLP_* environment.
const provider = new TracerProvider({
  spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
});
trace.setGlobalTracerProvider(provider);

const answer = await createSupportAgent().run(process.argv[2] ?? 'Where is my order 4412?');
console.log(answer);
await provider.shutdown(); // flushes the spans before the process ends
