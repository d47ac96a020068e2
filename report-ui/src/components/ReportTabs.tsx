/** A report page's tabs, and the one the address names. */
import { findingCount } from '../model/findings.js';
import type { ReportPage } from '../model/page.js';
import type { Route } from '../model/route.js';
import type { TraceIndex } from '../model/traces.js';
import type { Navigate } from './App.js';
import { FindingsTab } from './FindingsTab.js';
import { ReviewTab } from './ReviewTab.js';
import { RunTab } from './RunTab.js';
import { SessionsTab } from './SessionsTab.js';
import type { Tab } from './TabBar.js';
import { TestsTab } from './TestsTab.js';
import { TracesTab } from './TracesTab.js';

export function reportTabs(page: ReportPage): Tab[] {
  const r = page.report;
  return [
    { id: 'findings', label: 'Findings', count: findingCount(r.signals) },
    ...(r.tests ? [{ id: 'tests', label: 'Tests', count: r.tests.length }] : []),
    { id: 'traces', label: 'Traces', count: r.traces.length },
    ...(r.sessions.length > 0
      ? [{ id: 'sessions', label: 'Sessions', count: new Set(r.sessions.map((s) => s.sessionId)).size }]
      : []),
    ...(r.review.length > 0 ? [{ id: 'review', label: 'Review', count: r.review.length }] : []),
    { id: 'run', label: 'Run' },
  ];
}

interface Props {
  page: ReportPage;
  index: TraceIndex;
  route: Extract<Route, { view: 'tab' }>;
  navigate: Navigate;
}

export function ReportTabs({ page, index, route, navigate }: Props) {
  switch (route.tab) {
    case 'tests':
      return <TestsTab page={page} index={index} />;
    case 'traces':
      return <TracesTab page={page} index={index} />;
    case 'sessions':
      return <SessionsTab page={page} index={index} />;
    case 'review':
      return <ReviewTab items={page.report.review} index={index} />;
    case 'run':
      return <RunTab page={page} />;
    default:
      return <FindingsTab page={page} index={index} params={route.params} navigate={navigate} />;
  }
}
