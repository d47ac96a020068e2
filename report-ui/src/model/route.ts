/**
 * The page's address (its `#fragment`) as a route: a trace's timeline (`#trace=…&file=…&detector=…`,
 * the PR comment's links, written by the library's htmlReportAnchor) or a tab with its filters
 * (`#findings?detector=RETRY_STORM&severity=high`). An address that names nothing known opens the
 * first tab.
 */
import {
  fragmentParams,
  htmlReportAnchor,
  parseTraceAnchor,
  type TraceAnchor,
} from '../../../src/report/html/anchor.js';

export type Route =
  /** `step`: the step opened (from 1); 0 when the reader closed it. */
  | ({ view: 'trace'; step?: number | undefined } & TraceAnchor)
  | { view: 'tab'; tab: string; params: Record<string, string> };

export function parseRoute(hash: string, tabs: readonly string[]): Route {
  const trace = parseTraceAnchor(hash);
  if (trace) {
    const step = Number(fragmentParams(hash).get('step'));
    return { view: 'trace', ...trace, ...(Number.isInteger(step) && step >= 0 ? { step } : {}) };
  }
  const body = hash.replace(/^#/, '');
  const q = body.indexOf('?');
  const tab = q === -1 ? body : body.slice(0, q);
  const params = q === -1 ? new Map<string, string>() : fragmentParams(body.slice(q + 1));
  return {
    view: 'tab',
    tab: tabs.includes(tab) ? tab : tabs[0]!,
    params: Object.fromEntries(params),
  };
}

export function routeHash(route: Route): string {
  if (route.view === 'trace') {
    const anchor = htmlReportAnchor(route);
    return route.step !== undefined ? `${anchor}&step=${route.step}` : anchor;
  }
  const query = Object.entries(route.params)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  return `#${route.tab}${query ? `?${query}` : ''}`;
}
