/**
 * The HTML report's address of one trace: `#trace=<id>&file=<file>&detector=<id>`, each value
 * `encodeURIComponent`-encoded. The PR comment links to it (`report.html` + this), and the viewer,
 * which bundles this module, opens that trace's timeline with that detector's findings marked:
 * one module writes and reads the address, so the two cannot drift apart.
 *
 * Pure and free of Node APIs: it runs in the browser too.
 */

export interface TraceAnchor {
  traceId: string;
  /** The trace's file as the report names it: two files may hold traces with one id. */
  file?: string | undefined;
  /** A detector whose findings on the trace are highlighted. */
  detector?: string | undefined;
}

/** `#trace=…&file=…&detector=…`, to append to the report's URL. */
export function htmlReportAnchor(anchor: TraceAnchor): string {
  const parts = [`trace=${encodeURIComponent(anchor.traceId)}`];
  if (anchor.file !== undefined) parts.push(`file=${encodeURIComponent(anchor.file)}`);
  if (anchor.detector !== undefined) parts.push(`detector=${encodeURIComponent(anchor.detector)}`);
  return `#${parts.join('&')}`;
}

/**
 * The `key=value` pairs of a fragment (`#a=1&b=2`, the `#` optional), decoded. A pair that does not
 * decode (a stray `%`) is left out rather than failing the whole address; the first of a repeated
 * key wins.
 */
export function fragmentParams(fragment: string): Map<string, string> {
  const params = new Map<string, string>();
  const body = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  for (const pair of body.split('&')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const key = pair.slice(0, eq);
    if (params.has(key)) continue;
    try {
      params.set(key, decodeURIComponent(pair.slice(eq + 1)));
    } catch {
      // a malformed escape: that one value is unreadable, the rest of the address still works
    }
  }
  return params;
}

/** The trace a fragment names, or undefined when it names none. */
export function parseTraceAnchor(fragment: string): TraceAnchor | undefined {
  const params = fragmentParams(fragment);
  const traceId = params.get('trace');
  if (traceId === undefined || traceId === '') return undefined;
  const file = params.get('file');
  const detector = params.get('detector');
  return {
    traceId,
    ...(file !== undefined ? { file } : {}),
    ...(detector !== undefined && detector !== '' ? { detector } : {}),
  };
}
