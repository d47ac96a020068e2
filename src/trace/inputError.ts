/**
 * What the loader reports about input it could not read: the trace layer's own type. Reports carry
 * these (report/schema.ts imports this schema), but importers know nothing of reports.
 */
import { z } from 'zod';

export const InputErrorSchema = z.object({
  file: z.string(),
  /** 1-based line for line-oriented input; absent for whole-file problems. */
  line: z.number().int().positive().optional(),
  /** The field or JSON path at fault, when known. */
  field: z.string().optional(),
  message: z.string(),
});
export type InputError = z.infer<typeof InputErrorSchema>;

/** `file:line: field: message`, unstyled (renderers redact and escape what they print). */
export function formatInputError(e: InputError): string {
  return `${e.file}${e.line ? `:${e.line}` : ''}: ${e.field ? `${e.field}: ` : ''}${e.message}`;
}
