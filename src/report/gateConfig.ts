/**
 * The `failOn:` section of tracejury.yml: what fails the gate. Short forms, as before:
 * `failOn: high` (this severity or worse) or `failOn: [critical, high]`. The long form says more:
 *
 * ```yaml
 * failOn:
 *   severity: high      # as the short form
 *   inputErrors: false  # records that could not be read do not fail the gate (default: they do)
 * ```
 */
import { z } from 'zod';
import { SEVERITIES, SeveritySchema, type Severity } from '../detect/signal.js';
import { nearest } from '../util/nearest.js';
import { quoted } from '../redact/safeText.js';

/** "expected one of …, got "hig" — did you mean "high"?" for a value that is no severity (list). */
function severityMessage(input: unknown): string {
  const values = Array.isArray(input) ? input : [input];
  const bad = values.find((v) => !(SEVERITIES as readonly unknown[]).includes(v));
  const hint = typeof bad === 'string' ? nearest(bad, SEVERITIES) : undefined;
  return (
    `expected one of ${SEVERITIES.join(', ')} (or a list of them)` +
    (bad === undefined ? '' : `, got ${quoted(bad)}`) +
    (hint ? ` — did you mean "${hint}"?` : '')
  );
}

export const DEFAULT_FAIL_ON: readonly Severity[] = ['critical', 'high'];

const SeveritiesSchema = z
  .union([SeveritySchema, z.array(SeveritySchema)], {
    // zod's own message for a union is "Invalid input": say what is allowed and what was wrong.
    error: (issue) => severityMessage(issue.input),
  })
  .describe('Severities that fail the gate: a list, or one severity meaning "this or worse"');

export const FailOnObjectSchema = z
  .object({
    severity: SeveritiesSchema.optional(),
    inputErrors: z
      .boolean()
      .optional()
      .describe('Input that could not be read fails the gate (default true); false to only list it'),
    outcome: z
      .boolean()
      .optional()
      .describe(
        'A trace whose recorded outcome failed (τ-bench reward 0, outcome.success false) fails the gate (default false)',
      ),
  })
  .strict();

export const FailOnSchema = z
  .union([SeveritiesSchema, FailOnObjectSchema], {
    error: (issue) =>
      typeof issue.input === 'object' && issue.input !== null && !Array.isArray(issue.input)
        ? `expected { severity, inputErrors, outcome }: severity ${severityMessage((issue.input as { severity?: unknown }).severity)}`
        : severityMessage(issue.input),
  })
  .describe(
    'What fails the gate: a severity ("this or worse"), a list of severities, or { severity, inputErrors, outcome } ' +
      `(default: ${DEFAULT_FAIL_ON.join(', ')})`,
  );
export type FailOnInput = z.infer<typeof FailOnSchema>;

export interface GatePolicy {
  /** Severities of confirmed findings that fail the gate. */
  severities: Severity[];
  /** Whether input that could not be read fails the gate. */
  inputErrors: boolean;
  /** Whether a trace whose recorded outcome failed fails the gate. */
  outcome: boolean;
}

function severitiesOf(v: Severity | Severity[] | undefined): Severity[] {
  if (v === undefined) return [...DEFAULT_FAIL_ON];
  if (Array.isArray(v)) return v;
  return SEVERITIES.slice(0, SEVERITIES.indexOf(v) + 1);
}

export function gatePolicy(v: FailOnInput | undefined): GatePolicy {
  if (v === undefined || typeof v === 'string' || Array.isArray(v))
    return { severities: severitiesOf(v), inputErrors: true, outcome: false };
  return {
    severities: severitiesOf(v.severity),
    inputErrors: v.inputErrors ?? true,
    outcome: v.outcome ?? false,
  };
}
