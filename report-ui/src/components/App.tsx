/** The page: header, totals, tabs, and the tab or trace the address names. */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Page } from '../model/page.js';
import { parseRoute, routeHash, type Route } from '../model/route.js';
import { buildTraceIndex } from '../model/traces.js';
import { DiffTabs, diffTabs } from './DiffTabs.js';
import { DiffTotals } from './DiffTotals.js';
import { Header } from './Header.js';
import { ReportTabs, reportTabs } from './ReportTabs.js';
import { TabBar } from './TabBar.js';
import { Totals } from './Totals.js';
import { TraceView } from './TraceView.js';

/** Changes the address without a history entry (filters), or with one (opening a trace). */
function go(hash: string, replace: boolean): void {
  if (!replace) {
    location.hash = hash;
    return;
  }
  try {
    history.replaceState(null, '', hash);
  } catch {
    location.replace(hash);
  }
}

export type Navigate = (route: Route, options?: { replace?: boolean }) => void;

export function App({ page }: { page: Page }) {
  const index = useMemo(() => buildTraceIndex(page), [page]);
  const tabs = useMemo(() => (page.kind === 'report' ? reportTabs(page) : diffTabs(page)), [page]);
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  const route = parseRoute(
    hash,
    tabs.map((t) => t.id),
  );
  const navigate: Navigate = (r, options = {}) => {
    const h = routeHash(r);
    go(h, options.replace === true);
    setHash(h);
  };
  useEffect(() => {
    if (route.view === 'trace') window.scrollTo(0, 0);
  }, [route.view === 'trace' ? route.traceId : '']);

  return (
    <div class="page">
      <Header page={page} />
      {page.kind === 'report' ? <Totals page={page} /> : <DiffTotals page={page} />}
      <TabBar tabs={tabs} current={route.view === 'tab' ? route.tab : undefined} />
      <main class="content">
        {route.view === 'trace' ? (
          <TraceView page={page} index={index} route={route} navigate={navigate} />
        ) : page.kind === 'report' ? (
          <ReportTabs page={page} index={index} route={route} navigate={navigate} />
        ) : (
          <DiffTabs page={page} index={index} route={route} navigate={navigate} />
        )}
      </main>
      <footer class="footer">
        tracejury {page.kind === 'report' ? page.report.tool.version : page.diff.tool.version} ·{' '}
        {page.kind === 'report'
          ? `generated ${page.report.generatedAt}`
          : `head generated ${page.diff.head.generatedAt}`}{' '}
        · this page loads nothing from the network
      </footer>
    </div>
  );
}
