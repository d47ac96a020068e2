/**
 * The data contract between the HTML renderers and the viewer (report-ui/): what a page embeds as
 * JSON. The viewer imports these types only (and so this file imports types only, of modules the
 * browser build can read); reportPage.ts and the diff's page builder make the values.
 */
import type { Report } from '../schema.js';

/** What the page says of a detector beside its findings. */
export interface DetectorInfo {
  id: string;
  failureMode: string;
  description: string;
  /** What to change so the signal stops firing. */
  fix: string;
}

/** One embedded trace: which `<script id="tj-trace-N">` block holds it. */
export interface EmbeddedTraceInfo {
  block: number;
  id: string;
  file: string;
  line?: number | undefined;
  bytes: number;
  /** A Vitest run's saved copy: the tests that saved it. */
  tests?: string[] | undefined;
}

/** What the page does not hold of the traces the report names, and why. */
export interface TracesLeftOut {
  /** Traces the report names that the page does not embed. */
  traces: number;
  /** Of those, traces with a finding or a review item. */
  withFindings: number;
  /** Left out by the size budget. */
  overBudget: number;
  /** The budget in bytes; null when there was none. */
  budgetBytes: number | null;
  /** Files that could not be read again, with the reason and how many traces of the report they held. */
  unreadable: { file: string; reason: string; traces: number }[];
  /** Traces their file no longer holds (changed since the run), or that were not given. */
  notFound: number;
}

/** What the page says about the traces it does not embed. */
export interface PageTraces {
  embedded: EmbeddedTraceInfo[];
  leftOut: TracesLeftOut;
  /** How to get the traces left out (the command's own words), when there is a way. */
  howToGetAll?: string | undefined;
}

export interface ReportPage {
  kind: 'report';
  title: string;
  report: Report;
  /** Lines the text report words the same way. */
  lines: {
    cost: string;
    /** Waste in dollars, or "unknown" when no call's cost is known. */
    waste: string;
    /** What decides the gate: "failOn: critical, high; …", or a Vitest run's tests ("tests — 3 passed, 1 failed"). */
    gateThreshold: string;
    decisions?: string | undefined;
    baselines?: string | undefined;
    outcomes?: string | undefined;
  };
  /** The built-in detectors the report names (a custom detector has no entry). */
  detectors: Record<string, DetectorInfo>;
  traces: PageTraces;
}

/** The id of the `<script>` block holding the page data, and of each trace's. */
export const PAGE_DATA_ID = 'tj-page';
export const traceBlockId = (block: number): string => `tj-trace-${block}`;
