/**
 * A producer's span file read both ways it is written: the OTLP/JSON document through the loader
 * (as `tracejury analyze` reads a file), and the OTLP/protobuf request body its exporter sent
 * through the receiver's decoder and the same importers (as `startTraceReceiver` reads it).
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { readTraceValues } from '../../../src/trace/readInMemory.js';
import type { Trace } from '../../../src/trace/schema.js';
import { decodeTraceRequest } from '../../../vitest-plugin/receiver/otlpProtobuf.js';
import { loadTraces } from '../../../src/trace/load.js';
import { fixture } from '../../helpers/realLibraryRun.js';

/** The one trace of a JSON fixture, with the notes its reading left. */
export async function readJson(path: string): Promise<{ trace: Trace; notes: string[] }> {
  const { traces, stats } = await loadTraces(fixture(path));
  expect(stats.errors).toEqual([]);
  expect(traces).toHaveLength(1);
  return { trace: traces[0]!.trace, notes: stats.notes };
}

/** The one trace of a protobuf request body, decoded as the receiver decodes it. */
export function readProtobuf(path: string): Trace {
  const doc = decodeTraceRequest(readFileSync(fixture(path)));
  const { traces, stats } = readTraceValues(path, [doc]);
  expect(stats.errors).toEqual([]);
  expect(traces).toHaveLength(1);
  return traces[0]!.trace;
}
