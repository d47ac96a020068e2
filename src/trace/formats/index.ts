/** The importers, in the order format detection tries them: most specific shape first. */
import type { Importer, InputFormat } from '../importer.js';
import { langfuseImporter } from './langfuse.js';
import { nativeImporter } from './native.js';
import { openaiAgentsImporter } from './openaiAgents.js';
import { openaiMessagesImporter } from './openaiMessages.js';
import { openinferenceImporter } from './openinference.js';
import { otelImporter } from './otel.js';
import { recordsImporter } from './records.js';

export const importers: readonly Importer[] = [
  nativeImporter,
  openinferenceImporter,
  otelImporter,
  langfuseImporter,
  openaiAgentsImporter,
  openaiMessagesImporter,
  recordsImporter,
];

export function importerFor(format: InputFormat): Importer {
  const found = importers.find((i) => i.format === format);
  if (!found) throw new Error(`no importer for format ${format}`);
  return found;
}
