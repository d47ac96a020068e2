import { describe, expect, it } from 'vitest';
import {
  filterChoices,
  filterRows,
  findingCount,
  findingRows,
  groupByDetector,
  severityCounts,
} from '../../report-ui/src/model/findings.js';
import { buildTraceIndex } from '../../report-ui/src/model/traces.js';
import { cleanTrace, pageOf, stormTrace } from './pageFixture.js';

async function rowsOf() {
  const page = await pageOf([
    stormTrace('storm-1', 'support'),
    stormTrace('storm-2', 'billing'),
    cleanTrace(),
  ]);
  return { page, rows: findingRows(page, buildTraceIndex(page)) };
}

describe('the findings list', () => {
  it('has a row per signal with its trace, file, agent and whether its timeline is in the page', async () => {
    const { page, rows } = await rowsOf();
    expect(rows).toHaveLength(page.report.signals.length);
    const storm = rows.find((r) => r.detector === 'RETRY_STORM' && r.traceId === 'storm-2')!;
    expect(storm).toMatchObject({
      file: '<input>[1]',
      agent: 'billing',
      steps: [2, 3, 4],
      embedded: true,
      status: 'finding',
    });
  });

  it('narrows by each filter, and by several at once', async () => {
    const { rows } = await rowsOf();
    const storms = filterRows(rows, { detector: 'RETRY_STORM' });
    expect(storms.map((r) => r.traceId)).toEqual(['storm-1', 'storm-2']);
    expect(filterRows(rows, { detector: 'RETRY_STORM', agent: 'billing' }).map((r) => r.traceId)).toEqual([
      'storm-2',
    ]);
    expect(filterRows(rows, { severity: 'low' })).toEqual([]);
    expect(filterRows(rows, {})).toHaveLength(rows.length);
  });

  it('counts each filter choice under the other filters, worst severity first', async () => {
    const { rows } = await rowsOf();
    const choices = filterChoices(rows, { agent: 'billing' });
    const detectors = Object.fromEntries(choices.detector.map((c) => [c.value, c.count]));
    expect(detectors.RETRY_STORM).toBe(1);
    // The agent filter's own choices ignore the agent filter: switching agents is one click.
    expect(choices.agent.map((c) => [c.value, c.count])).toEqual([
      ['billing', rows.filter((r) => r.agent === 'billing').length],
      ['support', rows.filter((r) => r.agent === 'support').length],
    ]);
    const severities = choices.severity.map((c) => c.value);
    expect(severities).toEqual(
      [...severities].sort(
        (a, b) =>
          ['critical', 'high', 'medium', 'low'].indexOf(a) - ['critical', 'high', 'medium', 'low'].indexOf(b),
      ),
    );
  });

  it('groups rows by detector, worst group first, findings before suppressed or shadow rows', async () => {
    const { rows } = await rowsOf();
    const tagged = rows.map((r, i) => (i === 0 ? { ...r, status: 'suppressed' } : r));
    const groups = groupByDetector(tagged);
    const ranks = groups.map((g) => ['critical', 'high', 'medium', 'low'].indexOf(g.severity));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const first = groups.find((g) => g.rows.some((r) => r.status === 'suppressed'))!;
    expect(first.rows.at(-1)!.status).toBe('suppressed');
  });

  it('counts findings by severity, not other statuses', async () => {
    const { rows } = await rowsOf();
    const counts = severityCounts(rows.map((r, i) => (i === 0 ? { ...r, status: 'shadow' } : r)));
    const total = counts.critical + counts.high + counts.medium + counts.low;
    expect(total).toBe(rows.length - 1);
  });
});

describe('the Findings tab’s count', () => {
  // The tab (ReportTabs) and the card (Totals) both show findingCount.
  it('is the card’s: findings only, while the list holds every signal under its status filter', async () => {
    const { page: analysed } = await rowsOf();
    // One signal left in the gray zone (for review) and one suppressed: listed, not counted.
    const signals = analysed.report.signals.map((s, i) =>
      i === 0 ? { ...s, status: 'review' as const } : i === 1 ? { ...s, status: 'suppressed' as const } : s,
    );
    const page = { ...analysed, report: { ...analysed.report, signals } };
    const rows = findingRows(page, buildTraceIndex(page));
    const findings = rows.filter((r) => r.status === 'finding').length;
    expect(findingCount(page.report.signals)).toBe(findings);
    expect(findings).toBeLessThan(rows.length);
  });
});
