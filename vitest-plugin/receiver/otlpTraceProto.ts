/**
 * The OTLP trace messages as a protobufjs JSON descriptor, so that protobufjs (not hand-written
 * wire parsing) decodes what exporters send as `application/x-protobuf`. No installed package
 * ships the opentelemetry-proto `.proto` files or a generated decoder (@opentelemetry/otlp-
 * transformer only encodes requests), so the messages are transcribed here, field number for field
 * number, from opentelemetry-proto v1 (https://github.com/open-telemetry/opentelemetry-proto):
 *
 * - opentelemetry/proto/collector/trace/v1/trace_service.proto: ExportTraceServiceRequest,
 *   ExportTraceServiceResponse, ExportTracePartialSuccess
 * - opentelemetry/proto/trace/v1/trace.proto: ResourceSpans, ScopeSpans, Span, Span.Event,
 *   Span.Link, Status (and the SpanKind, StatusCode enums)
 * - opentelemetry/proto/resource/v1/resource.proto: Resource
 * - opentelemetry/proto/common/v1/common.proto: AnyValue, ArrayValue, KeyValueList, KeyValue,
 *   InstrumentationScope, EntityRef
 *
 * and, for error responses as the OTLP/HTTP spec asks (a Status message in the request's
 * encoding), google.rpc.Status from googleapis google/rpc/status.proto (`details`, a repeated
 * google.protobuf.Any, is left out: the receiver never sends any).
 *
 * Field names are written in their proto3 JSON form (lowerCamelCase), which is also how OTLP/JSON
 * names them, so a decoded message already carries the keys the trace importer reads. Only the
 * numbers and types matter on the wire; fields a newer proto adds are skipped by the decoder.
 */
import protobuf from 'protobufjs';

const repeated = (type: string, id: number) => ({ rule: 'repeated', type, id });

const common = {
  nested: {
    AnyValue: {
      oneofs: {
        value: {
          oneof: [
            'stringValue',
            'boolValue',
            'intValue',
            'doubleValue',
            'arrayValue',
            'kvlistValue',
            'bytesValue',
          ],
        },
      },
      fields: {
        stringValue: { type: 'string', id: 1 },
        boolValue: { type: 'bool', id: 2 },
        intValue: { type: 'int64', id: 3 },
        doubleValue: { type: 'double', id: 4 },
        arrayValue: { type: 'ArrayValue', id: 5 },
        kvlistValue: { type: 'KeyValueList', id: 6 },
        bytesValue: { type: 'bytes', id: 7 },
      },
    },
    ArrayValue: { fields: { values: repeated('AnyValue', 1) } },
    KeyValueList: { fields: { values: repeated('KeyValue', 1) } },
    KeyValue: {
      fields: {
        key: { type: 'string', id: 1 },
        value: { type: 'AnyValue', id: 2 },
      },
    },
    InstrumentationScope: {
      fields: {
        name: { type: 'string', id: 1 },
        version: { type: 'string', id: 2 },
        attributes: repeated('KeyValue', 3),
        droppedAttributesCount: { type: 'uint32', id: 4 },
      },
    },
    EntityRef: {
      fields: {
        schemaUrl: { type: 'string', id: 1 },
        type: { type: 'string', id: 2 },
        idKeys: repeated('string', 3),
        descriptionKeys: repeated('string', 4),
      },
    },
  },
};

const resource = {
  nested: {
    Resource: {
      fields: {
        attributes: repeated('opentelemetry.proto.common.v1.KeyValue', 1),
        droppedAttributesCount: { type: 'uint32', id: 2 },
        entityRefs: repeated('opentelemetry.proto.common.v1.EntityRef', 3),
      },
    },
  },
};

const KEY_VALUE = 'opentelemetry.proto.common.v1.KeyValue';

const trace = {
  nested: {
    TracesData: { fields: { resourceSpans: repeated('ResourceSpans', 1) } },
    ResourceSpans: {
      fields: {
        resource: { type: 'opentelemetry.proto.resource.v1.Resource', id: 1 },
        scopeSpans: repeated('ScopeSpans', 2),
        schemaUrl: { type: 'string', id: 3 },
      },
    },
    ScopeSpans: {
      fields: {
        scope: { type: 'opentelemetry.proto.common.v1.InstrumentationScope', id: 1 },
        spans: repeated('Span', 2),
        schemaUrl: { type: 'string', id: 3 },
      },
    },
    Span: {
      fields: {
        traceId: { type: 'bytes', id: 1 },
        spanId: { type: 'bytes', id: 2 },
        traceState: { type: 'string', id: 3 },
        parentSpanId: { type: 'bytes', id: 4 },
        flags: { type: 'fixed32', id: 16 },
        name: { type: 'string', id: 5 },
        kind: { type: 'SpanKind', id: 6 },
        startTimeUnixNano: { type: 'fixed64', id: 7 },
        endTimeUnixNano: { type: 'fixed64', id: 8 },
        attributes: repeated(KEY_VALUE, 9),
        droppedAttributesCount: { type: 'uint32', id: 10 },
        events: repeated('Event', 11),
        droppedEventsCount: { type: 'uint32', id: 12 },
        links: repeated('Link', 13),
        droppedLinksCount: { type: 'uint32', id: 14 },
        status: { type: 'Status', id: 15 },
      },
      nested: {
        SpanKind: {
          values: {
            SPAN_KIND_UNSPECIFIED: 0,
            SPAN_KIND_INTERNAL: 1,
            SPAN_KIND_SERVER: 2,
            SPAN_KIND_CLIENT: 3,
            SPAN_KIND_PRODUCER: 4,
            SPAN_KIND_CONSUMER: 5,
          },
        },
        Event: {
          fields: {
            timeUnixNano: { type: 'fixed64', id: 1 },
            name: { type: 'string', id: 2 },
            attributes: repeated(KEY_VALUE, 3),
            droppedAttributesCount: { type: 'uint32', id: 4 },
          },
        },
        Link: {
          fields: {
            traceId: { type: 'bytes', id: 1 },
            spanId: { type: 'bytes', id: 2 },
            traceState: { type: 'string', id: 3 },
            attributes: repeated(KEY_VALUE, 4),
            droppedAttributesCount: { type: 'uint32', id: 5 },
            flags: { type: 'fixed32', id: 6 },
          },
        },
      },
    },
    Status: {
      // Field 1 is reserved in trace.proto (a removed deprecated_code).
      fields: {
        message: { type: 'string', id: 2 },
        code: { type: 'StatusCode', id: 3 },
      },
      nested: {
        StatusCode: { values: { STATUS_CODE_UNSET: 0, STATUS_CODE_OK: 1, STATUS_CODE_ERROR: 2 } },
      },
    },
  },
};

const traceService = {
  nested: {
    ExportTraceServiceRequest: {
      fields: { resourceSpans: repeated('opentelemetry.proto.trace.v1.ResourceSpans', 1) },
    },
    ExportTraceServiceResponse: { fields: { partialSuccess: { type: 'ExportTracePartialSuccess', id: 1 } } },
    ExportTracePartialSuccess: {
      fields: {
        rejectedSpans: { type: 'int64', id: 1 },
        errorMessage: { type: 'string', id: 2 },
      },
    },
  },
};

const rpc = {
  nested: {
    Status: {
      fields: {
        code: { type: 'int32', id: 1 },
        message: { type: 'string', id: 2 },
      },
    },
  },
};

const descriptor = {
  nested: {
    opentelemetry: {
      nested: {
        proto: {
          nested: {
            common: { nested: { v1: common } },
            resource: { nested: { v1: resource } },
            trace: { nested: { v1: trace } },
            collector: { nested: { trace: { nested: { v1: traceService } } } },
          },
        },
      },
    },
    google: { nested: { rpc } },
  },
};

let root: protobuf.Root | undefined;

/** The message types, built once on first use (a receiver that only sees JSON never needs them). */
export function otlpTraceTypes() {
  root ??= protobuf.Root.fromJSON(descriptor);
  return {
    ExportTraceServiceRequest: root.lookupType(
      'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest',
    ),
    ExportTraceServiceResponse: root.lookupType(
      'opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse',
    ),
    RpcStatus: root.lookupType('google.rpc.Status'),
  };
}
