/** A diff page's tabs, and the one the address names. */
import type { DiffPage } from '../model/page.js';
import type { Route } from '../model/route.js';
import type { TraceIndex } from '../model/traces.js';
import type { Navigate } from './App.js';
import { ChangesTab } from './ChangesTab.js';
import { DiffFindingList } from './DiffFindingList.js';
import { OutcomesTab } from './OutcomesTab.js';
import { ReviewTab } from './ReviewTab.js';
import { SessionChanges } from './SessionChanges.js';
import type { Tab } from './TabBar.js';

export function diffTabs(page: DiffPage): Tab[] {
  const { diff } = page;
  const changedSessions = diff.sessions.filter((s) => s.delta !== 0).length;
  return [
    { id: 'new', label: 'New findings', count: diff.signals.new.length },
    { id: 'resolved', label: 'Resolved', count: diff.signals.resolved.length },
    { id: 'persisting', label: 'Persisting', count: diff.signals.persisting },
    ...(diff.outcomes
      ? [
          {
            id: 'outcomes',
            label: 'Outcomes',
            count: diff.outcomes.flipped.toFailCount + diff.outcomes.flipped.toPassCount,
          },
        ]
      : []),
    { id: 'changes', label: 'Quantities' },
    ...(changedSessions > 0 ? [{ id: 'sessions', label: 'Sessions', count: changedSessions }] : []),
    ...(diff.review.length > 0 ? [{ id: 'review', label: 'Review', count: diff.review.length }] : []),
  ];
}

interface Props {
  page: DiffPage;
  index: TraceIndex;
  route: Extract<Route, { view: 'tab' }>;
  navigate: Navigate;
}

export function DiffTabs({ page, index, route }: Props) {
  switch (route.tab) {
    case 'resolved':
      return (
        <DiffFindingList signals={page.diff.signals.resolved} kind="resolved" page={page} index={index} />
      );
    case 'persisting':
      return (
        <DiffFindingList
          signals={page.persisting}
          kind="persisting"
          page={page}
          index={index}
          total={page.diff.signals.persisting}
        />
      );
    case 'changes':
      return <ChangesTab page={page} />;
    case 'outcomes':
      return <OutcomesTab page={page} index={index} />;
    case 'sessions':
      return <SessionChanges sessions={page.diff.sessions} />;
    case 'review':
      return <ReviewTab items={page.diff.review} index={index} />;
    default:
      return <DiffFindingList signals={page.diff.signals.new} kind="new" page={page} index={index} />;
  }
}
