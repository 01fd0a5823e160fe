/**
 * `POST /otel/v1/traces`: OTLP/HTTP trace export (JSON or protobuf, optionally gzip) stored as calls, all or nothing.
 * @module
 */
import { Hono } from 'hono';
import { spanToCall } from 'weft-trace/otel';
import type { DetailItem } from 'weft-trace/wire';
import type { CallStore } from '../calls/call-store.js';
import type { UpsertItem } from '../calls/write/call-writes.js';
import { GRANTED_PROJECTS } from '../http/auth.js';
import { mediaType } from '../http/content-type.js';
import { HttpError } from '../http/http-error.js';
import { decodeContent, decodeTraceRequest, OTLP_PROTOBUF } from './otlp-decode.js';
import { PROJECT_ATTRIBUTE, readOtlpSpans } from './otlp-spans.js';
import { isProjectId, projectIdMessage } from 'weft-trace/wire';

/** The path OTel SDKs post traces to under `OTEL_EXPORTER_OTLP_ENDPOINT` (OTLP spec, "OTLP/HTTP"). */
export const OTLP_TRACES_PATH = '/otel/v1/traces';
/** The media types the route takes besides JSON (for `requireJsonBody`). */
export const OTLP_MEDIA_TYPES: ReadonlyMap<string, readonly string[]> = new Map([[OTLP_TRACES_PATH, [OTLP_PROTOBUF]]]);
/** Request header naming the project of spans whose resource has no `weft.project` attribute. */
export const PROJECT_HEADER = 'project_id';

/**
 * The project of spans that name none: `otel/<service.name>` (every OTel SDK sets `service.name`, by default
 * `unknown_service:<process>`), so an SDK configured with `OTEL_EXPORTER_OTLP_ENDPOINT` alone is stored too.
 */
export function defaultProject(resource: Readonly<Record<string, unknown>>): string {
  const service = typeof resource['service.name'] === 'string' && resource['service.name'] !== '' ? resource['service.name'] : 'unknown_service';
  return `otel/${service.replaceAll('/', '_')}`;
}

/**
 * Builds the OTLP route. Each span becomes a call by the precedence table of `weft-trace/otel` (ids as `weftCallId` /
 * `weftTraceId` map them); the project is the resource attribute `weft.project`, else the `project_id` header,
 * else {@link defaultProject}.
 * Answers an empty `ExportTraceServiceResponse` (protobuf or `{}`, as the request was). A body that cannot be
 * decoded gets 400, spans that are invalid or name a malformed project 422, both `{detail:[{loc, msg, type}]}`, and
 * nothing is stored; a project the API key is not granted gets 403.
 *
 * @param calls - where calls are written (one transaction per request).
 * @param maxBodyBytes - the largest body, also after gunzip.
 * @see OTLP specification, "OTLP/HTTP" (request, response, failures)
 */
export function otlpRoutes(calls: CallStore, maxBodyBytes: number): Hono {
  const app = new Hono();
  app.post(OTLP_TRACES_PATH, async (c) => {
    const type = mediaType(c.req.header('content-type'));
    const raw = new Uint8Array(await c.req.arrayBuffer());
    const body = decodeContent(raw, c.req.header('content-encoding'), maxBodyBytes);
    const { spans, issues } = readOtlpSpans(decodeTraceRequest(body, type));
    const header = c.req.header(PROJECT_HEADER);
    const granted = c.get(GRANTED_PROJECTS as never) as readonly string[] | undefined;
    const items: UpsertItem[] = [];
    const problems: DetailItem[] = [...issues];
    for (const { span, resourceProject } of spans) {
      const project = resourceProject ?? header ?? defaultProject(span.resource);
      if (!isProjectId(project)) {
        if (problems.length === 0) {
          const msg = projectIdMessage(project);
          problems.push({ loc: resourceProject ? ['body', 'resource', 'attributes', PROJECT_ATTRIBUTE] : ['header', PROJECT_HEADER], msg, type: 'project_invalid' });
        }
        continue;
      }
      if (granted && !granted.includes(project)) throw new HttpError(403, `this API key is not granted project ${JSON.stringify(project)}`);
      const { start, end } = spanToCall(span, project);
      items.push({ mode: 'start', req: { start } } as UpsertItem);
      if (span.endMs !== undefined) items.push({ mode: 'end', req: { end } } as UpsertItem);
    }
    if (problems.length > 0) throw HttpError.validation(problems);
    if (items.length > 0) await calls.upsertBatch(items);
    if (type === OTLP_PROTOBUF) return c.body(new Uint8Array(0), 200, { 'content-type': OTLP_PROTOBUF });
    return c.json({}, 200);
  });
  return app;
}
