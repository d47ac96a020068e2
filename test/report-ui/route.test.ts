import { describe, expect, it } from 'vitest';
import { parseRoute, routeHash } from '../../report-ui/src/model/route.js';
import { htmlReportAnchor } from '../../src/report/html/anchor.js';

const TABS = ['findings', 'traces', 'run'];

describe('the page address', () => {
  it("opens the trace the PR comment's anchor names, with its detector", () => {
    const hash = htmlReportAnchor({
      traceId: 'checkout 003&x=1#y',
      file: 'runs/head.jsonl',
      detector: 'RETRY_STORM',
    });
    expect(parseRoute(hash, TABS)).toEqual({
      view: 'trace',
      traceId: 'checkout 003&x=1#y',
      file: 'runs/head.jsonl',
      detector: 'RETRY_STORM',
    });
  });

  it('keeps the opened step, and 0 for a step the reader closed', () => {
    const route = parseRoute('#trace=t&step=4', TABS);
    expect(route).toEqual({ view: 'trace', traceId: 't', step: 4 });
    expect(routeHash(route)).toBe('#trace=t&step=4');
    expect(parseRoute('#trace=t&step=0', TABS)).toMatchObject({ step: 0 });
    expect(parseRoute('#trace=t&step=x', TABS)).toEqual({ view: 'trace', traceId: 't' });
  });

  it('reads a tab with its filters, and writes it back the same', () => {
    const route = parseRoute('#findings?detector=RETRY_STORM&severity=high', TABS);
    expect(route).toEqual({
      view: 'tab',
      tab: 'findings',
      params: { detector: 'RETRY_STORM', severity: 'high' },
    });
    expect(routeHash(route)).toBe('#findings?detector=RETRY_STORM&severity=high');
    expect(routeHash({ view: 'tab', tab: 'findings', params: { test: 'a > b & c' } })).toBe(
      '#findings?test=a%20%3E%20b%20%26%20c',
    );
  });

  it('opens the first tab for an empty or unknown address', () => {
    expect(parseRoute('', TABS)).toEqual({ view: 'tab', tab: 'findings', params: {} });
    expect(parseRoute('#nothing-here', TABS)).toEqual({ view: 'tab', tab: 'findings', params: {} });
    expect(parseRoute('#trace=', TABS)).toEqual({ view: 'tab', tab: 'findings', params: {} });
  });
});
