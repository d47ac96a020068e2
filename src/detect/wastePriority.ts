/**
 * Who charges a wasted LLM call that several detectors see: the detector first in this list
 * (suppression.ts applies it; each detector's `meta.priority` is its place here). Two detectors may
 * both charge one trace, never one call.
 *
 * The order, and why:
 * 1. The four cost-waste detectors keep the reference's order (cost-waste-detectors.md, "Detector
 *    Priority & Suppression") among themselves: RETRY_LOOP, FALLBACK_STORM, FALLBACK_FAILURE, and
 *    OVERKILL_MODEL last. They judge the LLM call itself (the same prompt again, a needless model),
 *    the most direct account of why it was wasted, so the first three come before the loops.
 * 2. Then the structural detectors whose redundant steps are LLM calls: LLM_TRUNCATION_LOOP (a call
 *    cut off and asked again) and HARNESS_REJECTION (a turn the harness refused).
 * 3. Then those that charge the LLM calls that issued redundant tool calls, most specific first:
 *    RETRY_STORM (the same failing call retried says more than "a request repeated"), TOOL_LOOP
 *    (the same request made again), TOOL_THRASHING (a round of two tools made again, which a loop
 *    of the same requests already explains), STATE_HASH_LOOP (the work that led back to a state,
 *    read from state snapshots rather than from the calls themselves).
 * 4. OVERKILL_MODEL last, as in the reference: it charges only what a call cost above a cheap
 *    model, so a call that was not needed at all is charged in full by whoever says so, and
 *    overkill never on that call.
 */
export const WASTE_PRIORITY = [
  'RETRY_LOOP',
  'FALLBACK_STORM',
  'FALLBACK_FAILURE',
  'LLM_TRUNCATION_LOOP',
  'HARNESS_REJECTION',
  'RETRY_STORM',
  'TOOL_LOOP',
  'TOOL_THRASHING',
  'STATE_HASH_LOOP',
  'OVERKILL_MODEL',
] as const;

export type WasteChargingId = (typeof WASTE_PRIORITY)[number];

/** The detector's `meta.priority`: its place (from 1) in WASTE_PRIORITY. */
export function wastePriority(id: WasteChargingId): number {
  return WASTE_PRIORITY.indexOf(id) + 1;
}
