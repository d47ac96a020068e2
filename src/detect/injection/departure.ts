/**
 * How far a sentence departs from the document around it and from the user's task: of the
 * sentence's topical words (contentWords.ts), the share found neither elsewhere in the document nor
 * in the task. "What is the capital of Brazil?" inside a card-payment e-mail departs entirely; "reply
 * to this e-mail with your order number" inside an order confirmation does not. Too few words, or
 * too small a document around them, say nothing either way (`known: false`).
 */

export interface Departure {
  /** The sentence's topical stems. */
  words: number;
  /** Of those, found neither around the sentence nor in the task. */
  departing: number;
  /** departing / words (0 when there are no words). */
  share: number;
  /** Enough words, and enough document around them, for the share to mean something. */
  known: boolean;
}

/** Fewer topical words than this in the sentence say nothing about its topic. */
export const MIN_WORDS = 2;
/** Fewer distinct topical stems than this around the sentence make every sentence look new. */
const MIN_AROUND = 8;

/**
 * The departure of `sentence` (its stems, counted) from `whole` (the stems of the whole text it is
 * part of) and from `task`. What stands around the sentence is the whole less `unit`, the stems of
 * the stretch of text the sentence belongs to (its line, by default the sentence itself): the other
 * sentences of an inserted request share its words, and must not vouch for it.
 */
export function departureOf(
  sentence: ReadonlyMap<string, number>,
  whole: ReadonlyMap<string, number>,
  task: ReadonlySet<string>,
  unit: ReadonlyMap<string, number> = sentence,
): Departure {
  let departing = 0;
  for (const s of sentence.keys()) {
    const elsewhere = (whole.get(s) ?? 0) - (unit.get(s) ?? 0);
    if (elsewhere > 0 || task.has(s)) continue;
    departing++;
  }
  const words = sentence.size;
  const around = whole.size - unit.size + Math.min(task.size, MIN_AROUND);
  return {
    words,
    departing,
    share: words === 0 ? 0 : departing / words,
    known: words >= MIN_WORDS && around >= MIN_AROUND,
  };
}
