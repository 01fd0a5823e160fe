/**
 * OTLP/HTTP trace request bodies to one plain shape: gzip undone, protobuf decoded with the OTel proto definitions (protobufjs), JSON parsed.
 * @module
 */
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { HttpError } from '../http/http-error.js';
import { parseJson } from '../http/request-body.js';

/** Media type of OTLP/HTTP protobuf bodies; JSON ones are `application/json` (OTLP spec, "OTLP/HTTP Request"). */
export const OTLP_PROTOBUF = 'application/x-protobuf';

/** What weft uses of the generated root: the request message's `decode` and `toObject`. */
interface MessageType {
  decode(bytes: Uint8Array): unknown;
  toObject(message: unknown, options: Record<string, unknown>): Record<string, unknown>;
}
let exportTraceServiceRequest: MessageType | undefined;
/**
 * The request message of the static protobufjs module generated from the opentelemetry-proto definitions (shipped by
 * `@opentelemetry/otlp-transformer`), loaded at the first protobuf body: it and protobufjs take ~50 ms to load, which
 * every server start paid before. Required from this file (`__filename` in the CommonJS build, `import.meta.url` in
 * ESM, where a bundler's `require` shim throws).
 */
function requestType(): MessageType {
  if (exportTraceServiceRequest) return exportTraceServiceRequest;
  const from = typeof __filename === 'string' ? __filename : import.meta.url;
  const root = createRequire(from)('@opentelemetry/otlp-transformer/build/src/generated/root.js') as {
    opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: MessageType } } } } };
  };
  return (exportTraceServiceRequest = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest);
}

/** A 400 whose `detail` is one validation item at `body` (a body that cannot be read at all). */
function unreadable(msg: string, type: string): HttpError {
  return new HttpError(400, [{ loc: ['body'], msg, type }]);
}

/** `body` gunzipped when `Content-Encoding` says gzip (at most `maxBytes` out); 400 for a bad gzip stream or another coding. */
export function decodeContent(body: Uint8Array, encoding: string | undefined, maxBytes: number): Uint8Array {
  const coding = (encoding ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity') return body;
  if (coding !== 'gzip') throw new HttpError(415, `Content-Encoding ${JSON.stringify(encoding)} is not supported (gzip or none)`);
  try {
    return gunzipSync(body, { maxOutputLength: maxBytes });
  } catch (err) {
    const tooBig = (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
    if (tooBig) throw new HttpError(413, `the gunzipped request body is larger than the limit of ${maxBytes} bytes (maxBodyBytes)`);
    throw unreadable(`gzip decode error: ${(err as Error).message}`, 'gzip_invalid');
  }
}

/**
 * The `ExportTraceServiceRequest` of a body in OTLP's JSON shape (lowerCamelCase fields; int64 as strings,
 * ids in hex for JSON and base64 for protobuf, which the span reader tells apart by length).
 *
 * @throws HttpError 400 `{detail:[{loc, msg, type}]}` for protobuf that does not decode (`protobuf_invalid`)
 *   or JSON that does not parse (`json_invalid`); 422 for JSON nested past `LIMITS.maxJsonDepth`.
 */
export function decodeTraceRequest(bytes: Uint8Array, mediaType: string): unknown {
  if (mediaType === OTLP_PROTOBUF) {
    const ExportTraceServiceRequest = requestType();
    try {
      const message = ExportTraceServiceRequest.decode(bytes);
      return ExportTraceServiceRequest.toObject(message, { longs: String, bytes: String, enums: Number, defaults: false });
    } catch (err) {
      throw unreadable(`protobuf decode error (ExportTraceServiceRequest): ${(err as Error).message}`, 'protobuf_invalid');
    }
  }
  return parseJson(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'), 400);
}
