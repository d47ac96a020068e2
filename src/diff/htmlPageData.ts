/**
 * The diff page's data: the contract between renderHtml.ts and the viewer (report-ui/), which
 * imports these types only. Rows are worded here with the text and markdown diffs' own helpers.
 */
import type { DetectorInfo, PageTraces } from '../report/html/pageData.js';
import type { DiffSignal } from './match.js';
import type { ReportDiff } from './schema.js';

/** One per-trace change with its noise interval, worded as the text diff words it. */
export interface NoiseRow {
  name: string;
  base: string;
  head: string;
  change: string;
  /** The 95 % interval of the change, or – with too few traces. */
  interval: string;
  /** `up`, `down`, `within noise`, or why there is no interval. */
  label: string;
}

export interface DiffPage {
  kind: 'diff';
  title: string;
  diff: ReportDiff;
  /** Head's findings that base had too, worst first (the diff itself only counts them). */
  persisting: DiffSignal[];
  lines: {
    waste: string;
    cost: string;
    findings: string;
    judges: string;
    /** "95% bootstrap interval of the change, 2,000 resamples". */
    method: string;
  };
  noise: NoiseRow[];
  detectors: Record<string, DetectorInfo>;
  /** Head's traces of new and persisting findings. */
  traces: PageTraces;
}
