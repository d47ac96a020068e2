/**
 * captureTrace beside a tracer provider the user registered first: our processor is added to it,
 * not put in its place, so the user's exporter keeps receiving every span. A provider we cannot
 * add to asks for tracejuryProcessor() by hand, and one wired by hand works.
 */
import {
  context,
  trace,
  type ProxyTracerProvider,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider as SdkTracerProvider,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { captureTrace, resetCapture, tracejuryProcessor } from '../../../vitest-plugin/capture/capture.js';
import { runSupportAgent } from '../../helpers/aiSdk5Agent.js';
import { expectRun, shape, EXPECTED_SHAPE } from '../../helpers/realLibraryRun.js';

function register(provider: TracerProvider) {
  trace.disable();
  expect(trace.setGlobalTracerProvider(provider)).toBe(true);
}

beforeEach(() => {
  resetCapture();
  context.disable();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});

afterAll(() => {
  trace.disable();
  context.disable();
});

/** A provider that is not the SDK's: it hands out another provider's tracers and hides its processors. */
class WrappingProvider implements TracerProvider {
  constructor(private readonly inner: TracerProvider) {}
  getTracer(name: string, version?: string): Tracer {
    return this.inner.getTracer(name, version);
  }
}

describe('captureTrace with a tracer provider the user registered', () => {
  it('adds its processor to the provider; the user’s exporter still sees every span', async () => {
    const exporter = new InMemorySpanExporter();
    const processors: SpanProcessor[] = [new SimpleSpanProcessor({ exporter })];
    const provider = new SdkTracerProvider({ spanProcessors: processors });
    register(provider);

    const trace1 = await captureTrace(() => runSupportAgent());
    expectRun(trace1);
    // SDK 3's SimpleSpanProcessor exports asynchronously.
    await provider.forceFlush();
    const names = exporter.getFinishedSpans().map((s) => s.name);
    expect(names.filter((n) => n === 'ai.toolCall')).toHaveLength(5);
    expect(names.filter((n) => n === 'ai.generateText.doGenerate')).toHaveLength(6);
    expect(names).toContain('ai.generateText');
    // Still the user's provider, and the array they passed is left as it was.
    expect((trace.getTracerProvider() as ProxyTracerProvider).getDelegate()).toBe(provider);
    expect(processors).toHaveLength(1);

    // Spans outside a capture still reach the user's exporter.
    exporter.reset();
    await runSupportAgent();
    await provider.forceFlush();
    expect(exporter.getFinishedSpans()).toHaveLength(12);
    // A second capture does not add the processor twice (each span read once: the shape holds).
    expect(shape(await captureTrace(() => runSupportAgent()))).toEqual(EXPECTED_SHAPE);
  });

  it('a provider it cannot add to: a clear error naming tracejuryProcessor()', async () => {
    register(new WrappingProvider(new SdkTracerProvider()));
    await expect(captureTrace(() => runSupportAgent())).rejects.toThrow(
      /registered tracer provider \(WrappingProvider\) does not let tracejury add its span processor.*tracejuryProcessor\(\)/,
    );
  });

  it('tracejuryProcessor() wired by hand into such a provider', async () => {
    const exporter = new InMemorySpanExporter();
    const inner = new SdkTracerProvider({
      spanProcessors: [tracejuryProcessor(), new SimpleSpanProcessor({ exporter })],
    });
    register(new WrappingProvider(inner));
    expectRun(await captureTrace(() => runSupportAgent()));
    await inner.forceFlush();
    expect(exporter.getFinishedSpans()).toHaveLength(12);
  });
});
