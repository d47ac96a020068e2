/**
 * Puts the capture processor on the global OpenTelemetry tracer provider, without replacing a
 * provider the user set up: with none registered, a TracerProvider (SDK 3) carrying only our
 * processor is registered; with one registered, our processor is added to it. A context manager
 * that follows awaits (AsyncLocalStorage) is registered only when none is, since captures find
 * their spans through the active context.
 */
import { context, createContextKey, ROOT_CONTEXT, trace, type TracerProvider } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { TracerProvider as SdkTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { captureProcessor, isHandWired } from './spanProcessor.js';

/** The provider our processor was last put on; checked per capture, as a test may swap providers. */
let attachedTo: TracerProvider | undefined;

const PROBE = createContextKey('tracejury.contextProbe');

/** Whether the global context manager carries values into a callback (the no-op one does not). */
function contextPropagates(): boolean {
  return context.with(ROOT_CONTEXT.setValue(PROBE, true), () => context.active().getValue(PROBE) === true);
}

function ensureContextManager(): void {
  if (contextPropagates()) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  if (!contextPropagates())
    throw new Error(
      'captureTrace: the OpenTelemetry context manager does not carry context into callbacks, so spans ' +
        'cannot be told apart per capture. Register one that does (AsyncLocalStorageContextManager from ' +
        '@opentelemetry/context-async-hooks) before the first captureTrace.',
    );
}

/**
 * The provider the API hands tracers from. The global is a ProxyTracerProvider; its delegate is the
 * provider the user registered, and `getDelegateTracer` answers undefined while none is.
 */
function registeredProvider(): TracerProvider | undefined {
  const global = trace.getTracerProvider() as TracerProvider & {
    getDelegate?: () => TracerProvider;
    getDelegateTracer?: (name: string) => unknown;
  };
  if (typeof global.getDelegate !== 'function' || typeof global.getDelegateTracer !== 'function')
    return global;
  return global.getDelegateTracer('tracejury') === undefined ? undefined : global.getDelegate();
}

/**
 * The processor list of an SDK provider. SDK 2 and 3 (`TracerProvider`, `BasicTracerProvider`,
 * `NodeTracerProvider`) take processors in their constructor only and keep them in
 * `_activeSpanProcessor._spanProcessors`, a MultiSpanProcessor that reads that array on every
 * span; there is no public way to add one later, so this private field is the only one.
 */
interface WithProcessors {
  _activeSpanProcessor?: { _spanProcessors?: unknown };
}

function attach(provider: TracerProvider, processor: SpanProcessor): void {
  const multi = (provider as WithProcessors)._activeSpanProcessor;
  const list = multi?._spanProcessors;
  if (multi && Array.isArray(list)) {
    // A new array rather than push: the SDK keeps the array the user passed to the constructor,
    // and that one is theirs.
    if (!list.includes(processor)) multi._spanProcessors = [...(list as unknown[]), processor];
    return;
  }
  // Wired by hand (tracejuryProcessor() in the provider's spanProcessors): nothing to add.
  if (isHandWired()) return;
  const name = provider.constructor?.name ?? 'unknown';
  throw new Error(
    `captureTrace: the registered tracer provider (${name}) does not let tracejury add its span processor. ` +
      "Add it yourself: import { tracejuryProcessor } from 'tracejury/vitest' and pass " +
      'spanProcessors: [tracejuryProcessor(), …your processors] to the provider you register.',
  );
}

/** Makes sure spans started from now on reach the capture processor. Cheap once done. */
export function ensureCaptureTracing(): void {
  const current = registeredProvider();
  if (current !== undefined && current === attachedTo) return;
  ensureContextManager();
  const processor = captureProcessor();
  if (current === undefined) {
    const provider = new SdkTracerProvider({ spanProcessors: [processor] });
    // A provider the user registers after this fails to register (the API keeps the first): set
    // yours up before the first captureTrace, e.g. in a Vitest setup file.
    trace.setGlobalTracerProvider(provider);
    attachedTo = registeredProvider();
    return;
  }
  attach(current, processor);
  attachedTo = current;
}
