/** `tracejury schema`: the JSON Schema of the trace format, of tracejury.yml or of Report v1. */
import { z } from 'zod';
import { configSchema } from '../../config/config.js';
import { ReportSchema } from '../../report/schema.js';
import { UsageError } from '../../trace/paths.js';
import { traceJsonSchema } from '../../trace/schema.js';
import { EXIT, type CliIO, type Command } from '../io.js';

const HELP = `tracejury schema trace|config|report

Prints the JSON Schema of the trace format, of tracejury.yml, or of the Report v1 JSON that
analyze --format json writes (for editors and validators).

Exit status: 0, or 2 for an unknown schema name.
`;

const SCHEMAS: Record<string, () => unknown> = {
  trace: traceJsonSchema,
  config: () => z.toJSONSchema(configSchema(), { io: 'input', unrepresentable: 'any' }),
  report: () => z.toJSONSchema(ReportSchema, { unrepresentable: 'any' }),
};

function run(args: string[], io: CliIO): number {
  const which = args[0];
  const make = which !== undefined && Object.hasOwn(SCHEMAS, which) ? SCHEMAS[which] : undefined;
  if (!make) throw new UsageError('usage: tracejury schema trace|config|report');
  io.stdout.write(JSON.stringify(make(), null, 2) + '\n');
  return EXIT.ok;
}

export const schemaCommand: Command = { name: 'schema', help: HELP, run };
