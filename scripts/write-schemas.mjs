// Writes the published JSON Schemas (trace, config, report) from the zod schemas in build/.
// Editors use schemas/tracejury.config.schema.json to autocomplete tracejury.yml.
import { mkdirSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { configJsonSchema } from '../build/config/config.js';
import { ReportSchema, traceJsonSchema } from '../build/index.js';

const dir = new URL('../schemas/', import.meta.url);
mkdirSync(dir, { recursive: true });
const write = (name, schema) => writeFileSync(new URL(name, dir), JSON.stringify(schema, null, 2) + '\n');
write('trace.schema.json', traceJsonSchema());
write('tracejury.config.schema.json', configJsonSchema());
write('report.schema.json', z.toJSONSchema(ReportSchema, { unrepresentable: 'any' }));
