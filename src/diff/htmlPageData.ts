/**
 * The diff page's data: the contract between renderHtml.ts and the viewer (report-ui/), which
 * imports these types only. Rows are worded here with the text and markdown diffs' own helpers.
 */
import type { DetectorInfo, PageTraces } from '../report/html/pageData.js';
import type { DiffSignal } from './match.js';
import type { QuantityRow } from './quantityText.js';
import type { ReportDiff } from './schema.js';

export type { QuantityRow };

export interface DiffPage {
  kind: 'diff';
  title: string;
  diff: ReportDiff;
  /** Head's findings that base had too, worst first (the diff itself only counts them). */
  persisting: DiffSignal[];
  lines: {
    /** The verdict, as the comment's first line says it (without the title). */
    verdict: string;
    /** "66 % → 25 %, from recorded outcomes", or undefined when no side records success. */
    success?: string | undefined;
    waste: string;
    cost: string;
    findings: string;
    judges: string;
    /** How the quantities were tested. */
    method: string;
    /** "at 20 runs a side a drop in success under 41 points cannot be told from noise", when it applies. */
    detectable?: string | undefined;
  };
  /** Every quantity compared, worded as the text diff words it. */
  quantities: QuantityRow[];
  detectors: Record<string, DetectorInfo>;
  /** Head's traces of new and persisting findings. */
  traces: PageTraces;
}
