/**
 * OTLP/HTTP protobuf bodies: a binary ExportTraceServiceRequest decoded by protobufjs and turned
 * into the OTLP/JSON document the trace importer reads, and the binary responses the receiver
 * sends back. The importer then reads both encodings the same way, so a trace sent as protobuf
 * and the same trace sent as JSON import alike.
 */
import { otlpTraceTypes } from './otlpTraceProto.js';

/** OTLP/JSON writes trace and span ids as hex (not base64, as proto3's JSON mapping would). */
const HEX_BYTES = new Set(['traceId', 'spanId', 'parentSpanId']);

/**
 * The decoded message in OTLP/JSON form: ids as lower-case hex, `bytesValue` as base64, 64-bit
 * integers (fixed64 nanos, int64 `intValue`) as decimal strings, enums as numbers, each AnyValue
 * as the one `{stringValue|intValue|…}` member it holds. protobufjs's toObject does the longs,
 * enums and oneofs; this walk does the bytes, whose JSON form depends on the field.
 */
function toOtlpJson(value: unknown, key: string): unknown {
  if (value instanceof Uint8Array) {
    const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    return HEX_BYTES.has(key) ? bytes.toString('hex') : bytes.toString('base64');
  }
  if (Array.isArray(value)) return value.map((v) => toOtlpJson(v, key));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      // An empty id is an absent one (a root span's parentSpanId).
      if (HEX_BYTES.has(k) && v instanceof Uint8Array && v.byteLength === 0) continue;
      out[k] = toOtlpJson(v, k);
    }
    return out;
  }
  return value;
}

/** A binary ExportTraceServiceRequest as an OTLP/JSON document; throws when the bytes do not decode. */
export function decodeTraceRequest(body: Uint8Array): Record<string, unknown> {
  const { ExportTraceServiceRequest } = otlpTraceTypes();
  const message = ExportTraceServiceRequest.decode(body);
  const object = ExportTraceServiceRequest.toObject(message, {
    longs: String,
    enums: Number,
    defaults: false,
    arrays: false,
  });
  return toOtlpJson(object, '') as Record<string, unknown>;
}

/** A binary ExportTraceServiceResponse; empty (zero bytes) when every span was accepted. */
export function encodeTraceResponse(rejectedSpans: number, errorMessage: string): Uint8Array {
  const { ExportTraceServiceResponse } = otlpTraceTypes();
  const payload = rejectedSpans > 0 ? { partialSuccess: { rejectedSpans, errorMessage } } : {};
  return ExportTraceServiceResponse.encode(ExportTraceServiceResponse.fromObject(payload)).finish();
}

/** A binary google.rpc.Status, the body of an error response to a protobuf request. */
export function encodeRpcStatus(code: number, message: string): Uint8Array {
  const { RpcStatus } = otlpTraceTypes();
  return RpcStatus.encode(RpcStatus.fromObject({ code, message })).finish();
}
