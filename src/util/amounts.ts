/**
 * Ceilings on money and tokens: a value above one is not something a run measured, and a few of
 * them sum to Infinity (a report once held 1e308 and rendered as "$Infinity" while the bootstrap
 * called a 10^306-fold rise in waste "within noise"). Traces are held to the per-call ceilings,
 * reports (which sum traces) to the higher ones; a value above either is a validation error that
 * names its field.
 */
import { z } from 'zod';

/** One LLM call's recorded cost: a billion dollars. */
export const MAX_CALL_USD = 1e9;
/** Any dollar amount in a report (a trace, a detector, the run's total): a trillion dollars. */
const MAX_REPORT_USD = 1e12;
/** Any token count in a report: a quadrillion tokens. */
const MAX_REPORT_TOKENS = 1e15;

/** A dollar amount in a report: finite, non-negative, at most MAX_REPORT_USD. */
export const usdAmount = () =>
  z
    .number()
    .nonnegative()
    .max(MAX_REPORT_USD, { error: `over $${MAX_REPORT_USD.toExponential()}, not a plausible amount` });

/** A token count in a report: finite, non-negative, at most MAX_REPORT_TOKENS. */
export const tokenCount = () =>
  z
    .number()
    .nonnegative()
    .max(MAX_REPORT_TOKENS, {
      error: `over ${MAX_REPORT_TOKENS.toExponential()} tokens, not a plausible count`,
    });
