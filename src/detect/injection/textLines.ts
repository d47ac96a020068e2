/** Where the lines of a text start and end, for the reading of its sentences (readerRequests.ts). */

/**
 * The line breaks of a text, found in one pass, so that every sentence finds its line by a binary
 * search (a text without line breaks must not be walked to its ends for every sentence).
 */
export class Lines {
  private readonly breaks: Int32Array;
  constructor(private readonly text: string) {
    let n = 0;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
    this.breaks = new Int32Array(n);
    n = 0;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.breaks[n++] = i;
  }
  /** The index of the first break at or after `at`. */
  private next(at: number): number {
    let lo = 0;
    let hi = this.breaks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.breaks[mid]! < at) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  /** Where the line holding `at` starts. */
  startOf(at: number): number {
    const k = this.next(at);
    return k === 0 ? 0 : this.breaks[k - 1]! + 1;
  }
  /** Where the line holding `at` ends (its break, or the text's end). */
  endOf(at: number): number {
    const k = this.next(at);
    return k < this.breaks.length ? this.breaks[k]! : this.text.length;
  }
}
