/**
 * The embedded data, read from the page's `<script type="application/json">` blocks: the page data
 * once at start, each trace only when its timeline is first opened (a page may embed megabytes of
 * traces, most never looked at).
 */
import { PAGE_DATA_ID, traceBlockId, type Page, type Trace } from './model/page.js';

function blockText(id: string): string {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id} block: it was cut short or edited`);
  return el.textContent ?? '';
}

export function readPage(): Page {
  return JSON.parse(blockText(PAGE_DATA_ID)) as Page;
}

const traces = new Map<number, Trace>();

export function readTrace(block: number): Trace {
  let t = traces.get(block);
  if (!t) {
    t = JSON.parse(blockText(traceBlockId(block))) as Trace;
    traces.set(block, t);
  }
  return t;
}
