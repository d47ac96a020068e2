/**
 * The traces a grouping reader (records, OTLP spans, Langfuse observations) holds open, by trace id,
 * with the bookkeeping every such reader needs alike:
 * - close(key) takes a group out when the loader says its last record has been read;
 * - a window: when records come from a pipe, at most `maxOpenTraces` groups are held, and the least
 *   recently appended one is closed early to make room;
 * - a record whose trace was closed already starts another trace of the same id, and the report
 *   gets a note saying so (expected from a pipe whose records are far apart; from a file it means
 *   the first pass missed an id, which it should not).
 */
import type { ImportSink } from '../importer.js';

/** How many closed ids are remembered for the note: ids only, but a pipe may never end. */
const MAX_REMEMBERED_CLOSED = 100_000;

interface Open<G> {
  group: G;
  lastLine: number | undefined;
}

interface Closed {
  line: number | undefined;
  early: boolean;
}

export class OpenGroups<G> {
  private readonly open = new Map<string, Open<G>>();
  private readonly closed = new Map<string, Closed>();

  constructor(
    private readonly sink: ImportSink,
    private readonly maxOpen: number | undefined,
  ) {}

  get size(): number {
    return this.open.size;
  }

  get(key: string): G | undefined {
    return this.open.get(key)?.group;
  }

  /** The open group of `key` (made by `make` when there is none), now the most recently appended. */
  append(key: string, line: number | undefined, make: () => G): G {
    let entry = this.open.get(key);
    if (entry) {
      // Only a window needs the order of appends; moving costs a delete and an insert per record.
      if (this.maxOpen !== undefined) {
        this.open.delete(key);
        this.open.set(key, entry);
      }
    } else {
      const before = this.closed.get(key);
      if (before) {
        this.closed.delete(key);
        this.noteReopened(key, before, line);
      }
      entry = { group: make(), lastLine: line };
      this.open.set(key, entry);
    }
    if (line !== undefined) entry.lastLine = line;
    return entry.group;
  }

  /**
   * Takes the group of `key` out (its trace is about to be built), remembering that it was closed
   * (`early`: by the window) so that a later record of it gets a note; `whole`: the group came
   * whole in one value, and another value with its id is no surprise.
   */
  take(key: string, how: 'closed' | 'early' | 'whole' = 'closed'): G | undefined {
    const entry = this.open.get(key);
    if (!entry) return undefined;
    this.open.delete(key);
    if (how === 'whole') return entry.group;
    this.closed.set(key, { line: entry.lastLine, early: how === 'early' });
    if (this.closed.size > MAX_REMEMBERED_CLOSED) this.closed.delete(this.closed.keys().next().value!);
    return entry.group;
  }

  /** The groups the window has no room for, least recently appended first, taken out. */
  overflow(): [string, G][] {
    const out: [string, G][] = [];
    if (this.maxOpen === undefined) return out;
    while (this.open.size > this.maxOpen) {
      const key = this.open.keys().next().value!;
      out.push([key, this.take(key, 'early')!]);
    }
    return out;
  }

  /** Every open group, taken out: in order of first record, or with a window, of last record. */
  drain(): [string, G][] {
    const out: [string, G][] = [...this.open].map(([key, e]) => [key, e.group]);
    this.open.clear();
    return out;
  }

  private noteReopened(key: string, before: Closed, line: number | undefined): void {
    const at = before.line === undefined ? '' : ` at line ${before.line}`;
    const from = line === undefined ? 'its later records' : `its records from line ${line} on`;
    this.sink.note?.(
      before.early
        ? `trace ${key} was closed early${at}: the input is a pipe and its records are not contiguous (at most ${this.maxOpen} traces are held open while reading a pipe); ${from} form another trace. Save the input to a file to have every trace read whole.`
        : `trace ${key} was closed${at}, where its id was last seen by the first pass over the file, but ${from} belong to it too and form another trace (please report this with the line)`,
    );
  }
}
