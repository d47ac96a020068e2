/** One select per filter (detector, severity, status, agent, test), each choice with its count. */
import type { FilterChoice, FilterKey, Filters } from '../model/findings.js';
import { FILTER_KEYS } from '../model/findings.js';
import { fmtInt, plural } from '../model/format.js';

const LABELS: Record<FilterKey, string> = {
  detector: 'Detector',
  severity: 'Severity',
  status: 'Status',
  agent: 'Agent',
  test: 'Test',
};

interface Props {
  choices: Record<FilterKey, FilterChoice[]>;
  filters: Filters;
  onChange: (filters: Filters) => void;
  shown: number;
  total: number;
}

export function FilterBar({ choices, filters, onChange, shown, total }: Props) {
  const active = FILTER_KEYS.some((k) => filters[k] !== undefined);
  return (
    <div class="filters" role="search">
      {FILTER_KEYS.filter((k) => choices[k].length > 0).map((k) => (
        <label key={k} class="filter">
          <span class="filter-label">{LABELS[k]}</span>
          <select
            name={k}
            value={filters[k] ?? ''}
            onChange={(e) => {
              const value = (e.currentTarget as HTMLSelectElement).value;
              const next: Filters = { ...filters };
              if (value === '') delete next[k];
              else next[k] = value;
              onChange(next);
            }}
          >
            <option value="">all</option>
            {choices[k].map((c) => (
              <option key={c.value} value={c.value}>
                {c.value} ({c.count})
              </option>
            ))}
          </select>
        </label>
      ))}
      <span class="filter-count" data-testid="shown-count">
        {shown === total ? plural(total, 'signal') : `${fmtInt(shown)} of ${plural(total, 'signal')}`}
      </span>
      {active && (
        <button type="button" class="link-button" onClick={() => onChange({})}>
          clear filters
        </button>
      )}
    </div>
  );
}
