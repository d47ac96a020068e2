/** Every signal of the report, filtered by the address's filters, grouped by detector. */
import { useMemo } from 'preact/hooks';
import {
  filterChoices,
  filterRows,
  findingRows,
  FILTER_KEYS,
  groupByDetector,
  type Filters,
} from '../model/findings.js';
import type { ReportPage } from '../model/page.js';
import type { TraceIndex } from '../model/traces.js';
import type { Navigate } from './App.js';
import { FilterBar } from './FilterBar.js';
import { FindingGroup } from './FindingGroup.js';

interface Props {
  page: ReportPage;
  index: TraceIndex;
  params: Record<string, string>;
  navigate: Navigate;
}

export function FindingsTab({ page, index, params, navigate }: Props) {
  const rows = useMemo(() => findingRows(page, index), [page, index]);
  const filters: Filters = {};
  for (const k of FILTER_KEYS) if (params[k] !== undefined && params[k] !== '') filters[k] = params[k];
  const shown = filterRows(rows, filters);
  const groups = groupByDetector(shown);
  // Filters in one order, so one selection is one address whatever order it was made in.
  const setFilters = (next: Filters) => {
    const params: Record<string, string> = {};
    for (const k of FILTER_KEYS) if (next[k] !== undefined) params[k] = next[k]!;
    navigate({ view: 'tab', tab: 'findings', params }, { replace: true });
  };
  if (rows.length === 0) return <p class="empty">No detector fired on this run.</p>;
  return (
    <section aria-label="Findings">
      <FilterBar
        choices={filterChoices(rows, filters)}
        filters={filters}
        onChange={setFilters}
        shown={shown.length}
        total={rows.length}
      />
      {groups.map((g) => (
        <FindingGroup key={g.detector} group={g} info={page.detectors[g.detector]} />
      ))}
      {shown.length === 0 && <p class="empty">No signal matches these filters.</p>}
    </section>
  );
}
