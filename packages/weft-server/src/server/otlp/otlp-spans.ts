/**
 * The spans of an `ExportTraceServiceRequest` (OTLP's JSON shape) read into span records, every problem collected as a `{loc, msg, type}` item.
 * @module
 */
import type { DetailItem } from 'weft-trace/wire';
import type { SpanRecord, StatusCode } from 'weft-trace/otel';

/** One span of the request and the project its resource names (`weft.project`), if any. */
export interface OtlpSpan {
  span: SpanRecord;
  resourceProject: string | undefined;
}

/** Resource attribute naming the project of its spans (overrides the `project_id` header). */
export const PROJECT_ATTRIBUTE = 'weft.project';

/** Deepest `arrayValue` / `kvlistValue` nesting read; deeper values are refused (no unbounded recursion). */
const MAX_VALUE_DEPTH = 32;

type Loc = (string | number)[];
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

class Reader {
  readonly issues: DetailItem[] = [];

  problem(loc: Loc, msg: string, type = 'value_error'): undefined {
    if (this.issues.length < 100) this.issues.push({ loc: ['body', ...loc.map(String)], msg, type });
    return undefined;
  }

  /** An id: hex (OTLP/JSON) or base64 (protobuf bytes); `bytes` long; '' or absent is `undefined` when `optional`. */
  id(v: unknown, bytes: number, loc: Loc, optional: boolean): string | undefined {
    if ((v === undefined || v === '') && optional) return undefined;
    if (typeof v === 'string') {
      const hex = new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`).test(v) ? v.toLowerCase() : Buffer.from(v, 'base64').toString('hex');
      if (hex.length === bytes * 2 && !/^0+$/.test(hex)) return hex;
    }
    return this.problem(loc, `expected a non-zero ${bytes}-byte id in hex (or base64)`, 'id_invalid');
  }

  /** Unix nanoseconds (string or number) to ms; `undefined` when absent or 0 and `optional`. */
  time(v: unknown, loc: Loc, optional: boolean): number | undefined {
    const ns = typeof v === 'string' && /^\d+$/.test(v) ? Number(BigInt(v) / 1000n) / 1000 : typeof v === 'number' && v >= 0 ? v / 1e6 : NaN;
    if ((v === undefined || ns === 0) && optional) return undefined;
    if (Number.isFinite(ns) && ns > 0 && ns < 253402300800000) return ns;
    return this.problem(loc, 'expected Unix time in nanoseconds (uint64, as a string or number) between 1970 and 9999', 'time_invalid');
  }

  /** An `AnyValue` to a JSON value. */
  value(v: unknown, loc: Loc, depth = 0): unknown {
    if (!isObj(v)) return null;
    if (depth > MAX_VALUE_DEPTH) return this.problem(loc, `value nested deeper than ${MAX_VALUE_DEPTH} levels`, 'value_too_deep') ?? null;
    if ('stringValue' in v) return String(v.stringValue);
    if ('boolValue' in v) return Boolean(v.boolValue);
    if ('intValue' in v) {
      const n = Number(v.intValue);
      return Number.isSafeInteger(n) ? n : String(v.intValue);
    }
    if ('doubleValue' in v) {
      const n = Number(v.doubleValue);
      return Number.isFinite(n) ? n : String(v.doubleValue);
    }
    if ('arrayValue' in v) return list((v.arrayValue as Obj | undefined)?.values).map((x, i) => this.value(x, [...loc, 'arrayValue', 'values', i], depth + 1));
    if ('kvlistValue' in v) return this.attributes((v.kvlistValue as Obj | undefined)?.values, [...loc, 'kvlistValue', 'values'], depth + 1);
    if ('bytesValue' in v) return String(v.bytesValue);
    return null;
  }

  /** `KeyValue[]` to an object. */
  attributes(v: unknown, loc: Loc, depth = 0): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    list(v).forEach((kv, i) => {
      if (!isObj(kv) || typeof kv.key !== 'string') return this.problem([...loc, i, 'key'], 'expected a KeyValue with a string key');
      out[kv.key] = this.value(kv.value, [...loc, i, 'value'], depth);
    });
    return out;
  }

  span(s: unknown, loc: Loc, resource: Record<string, unknown>, scope: SpanRecord['scope']): SpanRecord | undefined {
    if (!isObj(s)) return this.problem(loc, 'expected a Span object');
    const before = this.issues.length;
    const traceId = this.id(s.traceId, 16, [...loc, 'traceId'], false);
    const spanId = this.id(s.spanId, 8, [...loc, 'spanId'], false);
    const parentSpanId = this.id(s.parentSpanId, 8, [...loc, 'parentSpanId'], true);
    const startMs = this.time(s.startTimeUnixNano, [...loc, 'startTimeUnixNano'], false);
    const endMs = this.time(s.endTimeUnixNano, [...loc, 'endTimeUnixNano'], true);
    const attributes = this.attributes(s.attributes, [...loc, 'attributes']);
    const events = list(s.events).map((e, i) => {
      const ev = isObj(e) ? e : {};
      const at = [...loc, 'events', i];
      return { name: String(ev.name ?? ''), timeMs: this.time(ev.timeUnixNano, [...at, 'timeUnixNano'], true) ?? startMs ?? 0, attributes: this.attributes(ev.attributes, [...at, 'attributes']) };
    });
    const links = list(s.links).flatMap((l, i) => {
      const at = [...loc, 'links', i];
      const link = isObj(l) ? l : {};
      const t = this.id(link.traceId, 16, [...at, 'traceId'], false);
      const sp = this.id(link.spanId, 8, [...at, 'spanId'], false);
      return t && sp ? [{ traceId: t, spanId: sp, attributes: this.attributes(link.attributes, [...at, 'attributes']) }] : [];
    });
    const status = isObj(s.status) ? s.status : {};
    const code = Number(status.code ?? 0);
    if (code !== 0 && code !== 1 && code !== 2) this.problem([...loc, 'status', 'code'], 'expected a status code 0 (unset), 1 (ok) or 2 (error)');
    if (this.issues.length > before || !traceId || !spanId || startMs === undefined) return undefined;
    return {
      traceId, spanId, parentSpanId, name: typeof s.name === 'string' ? s.name : '', kind: Math.max(0, Number(s.kind ?? 1) - 1),
      startMs, endMs, attributes, events, links, resource, scope,
      status: { code: code as StatusCode, message: typeof status.message === 'string' && status.message !== '' ? status.message : undefined },
    };
  }
}

/**
 * Reads every span of an `ExportTraceServiceRequest`. OTLP's `SpanKind` (1 internal ... 5 consumer) becomes the
 * API's (0 ... 4). A span without an end time is a span still running.
 *
 * @returns the spans and the problems found (`loc` starting at `body`, at most 100 items); the caller stores
 *   nothing when there is any problem.
 */
export function readOtlpSpans(body: unknown): { spans: OtlpSpan[]; issues: DetailItem[] } {
  const r = new Reader();
  const spans: OtlpSpan[] = [];
  if (!isObj(body)) {
    r.problem([], 'expected an ExportTraceServiceRequest object', 'model_type');
    return { spans, issues: r.issues };
  }
  list(body.resourceSpans).forEach((rs, i) => {
    const rsObj = isObj(rs) ? rs : {};
    const resource = r.attributes(isObj(rsObj.resource) ? rsObj.resource.attributes : undefined, ['resourceSpans', i, 'resource', 'attributes']);
    const project = typeof resource[PROJECT_ATTRIBUTE] === 'string' ? resource[PROJECT_ATTRIBUTE] : undefined;
    list(rsObj.scopeSpans).forEach((ss, j) => {
      const ssObj = isObj(ss) ? ss : {};
      const sc = isObj(ssObj.scope) ? ssObj.scope : {};
      const scope = { name: typeof sc.name === 'string' ? sc.name : '', version: typeof sc.version === 'string' ? sc.version : undefined };
      list(ssObj.spans).forEach((s, k) => {
        const span = r.span(s, ['resourceSpans', i, 'scopeSpans', j, 'spans', k], resource, scope);
        if (span) spans.push({ span, resourceProject: project });
      });
    });
  });
  return { spans, issues: r.issues };
}
