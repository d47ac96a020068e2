/**
 * Puts the capture processor on the global OpenTelemetry tracer provider, without replacing a
 * provider the user set up: with none registered, a TracerProvider (SDK 3) carrying only our
 * processor is registered; with one registered, our processor is added to it. A context manager
 * that follows awaits (AsyncLocalStorage) is registered only when none is, since captures find
 * their spans through the active context.
 *
 * The plugin's setup file does this before any test file runs (prepareCaptureTracing), because a
 * tracer handed out before a provider is registered can be lost for good: each copy of
 * `@opentelemetry/api` in a project (the OTel 2 and OTel 3 lines need different ones, and a copy
 * loaded both as ESM and as CommonJS counts twice) hands out proxies that only that copy ever
 * forwards, so an instrumentation made first, from another copy, records into a no-op tracer.
 * Once a provider is registered, every copy hands out the registered provider's tracers.
 */
import {
  context,
  createContextKey,
  ROOT_CONTEXT,
  trace,
  type Context,
  type ContextManager,
  type TracerProvider,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { TracerProvider as SdkTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { captureProcessor, isHandWired } from './spanProcessor.js';

/** The provider our processor was last put on; checked per capture, as a test may swap providers. */
let attachedTo: TracerProvider | undefined;

const PROBE = createContextKey('tracejury.contextProbe');

/**
 * The API's global registry (`globalThis[Symbol.for('opentelemetry.js.api.1')]`), read directly:
 * an API copy of a newer minor version than the one that registered refuses to see it (1.10 does
 * not read what 1.9 registered), and captures must work beside a provider registered by any copy.
 */
interface GlobalRegistry {
  version?: string;
  trace?: TracerProvider & {
    getDelegate?: () => TracerProvider;
    getDelegateTracer?: (name: string) => unknown;
  };
  context?: ContextManager;
}

const REGISTRY_KEY = Symbol.for('opentelemetry.js.api.1');

function registry(): GlobalRegistry | undefined {
  return (globalThis as Record<symbol, GlobalRegistry | undefined>)[REGISTRY_KEY];
}

/** The registered context manager, whichever API copy registered it (our copy's when it sees it). */
function contextManager(): Pick<ContextManager, 'active' | 'with'> {
  return registry()?.context ?? context;
}

/** The active context, through whichever API copy registered the context manager. */
export function activeContext(): Context {
  return contextManager().active();
}

/** Runs fn in ctx, through whichever API copy registered the context manager. */
export function withContext<T>(ctx: Context, fn: () => T): T {
  return contextManager().with(ctx, fn);
}

/** Whether the global context manager carries values into a callback (the no-op one does not). */
function contextPropagates(): boolean {
  return withContext(ROOT_CONTEXT.setValue(PROBE, true), () => activeContext().getValue(PROBE) === true);
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
 * provider registered, and `getDelegateTracer` answers undefined while none is.
 */
function registeredProvider(): TracerProvider | undefined {
  const global = registry()?.trace;
  if (global === undefined) return undefined;
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

function refusedRegistration(): Error {
  const version = registry()?.version;
  return new Error(
    'captureTrace: OpenTelemetry refused tracejury’s tracer provider' +
      (version
        ? ` (its globals were first registered by @opentelemetry/api ${version}, another copy than tracejury’s)`
        : '') +
      ', so no span can reach captureTrace. Register a tracer provider yourself in a Vitest setup file ' +
      "(test.setupFiles, which run before tracejury's) with spanProcessors: [tracejuryProcessor(), …] " +
      "(import { tracejuryProcessor } from 'tracejury/vitest').",
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
    // The API keeps the first provider registered; a refusal (another API copy registered its
    // globals first) would otherwise lose every span without a word.
    if (!trace.setGlobalTracerProvider(provider) || registeredProvider() !== provider)
      throw refusedRegistration();
    attachedTo = provider;
    return;
  }
  attach(current, processor);
  attachedTo = current;
}

/**
 * Called by the plugin's setup file, after the user's setup files and before any test file: a
 * provider one of those registered gets our processor, else ours is registered now, so that
 * instrumentations made in test files take their tracers from a registered provider. A problem is
 * not thrown here (a test file that never captures must still run): captureTrace meets it again
 * and throws it there.
 */
export function prepareCaptureTracing(): void {
  try {
    ensureCaptureTracing();
  } catch {
    // captureTrace's own call reports it.
  }
}
