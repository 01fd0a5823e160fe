/**
 * The spec's "Reference strings" split into their parts.
 * @module
 */

/** The parts of a spec "Reference strings" value: `svc:///<entity>/<project>/<kind>/<rest>`. */
export interface ParsedRef {
  /** `<entity>/<project>`. */
  project: string;
  kind: 'object' | 'op' | 'call';
  /** `<name>:<digest>` for object and op refs, the call id for call refs. */
  rest: string;
}

const REF_PARTS = /^svc:\/\/\/([^/]+\/[^/]+)\/(object|op|call)\/([^/]+)$/;

/** Splits a ref string into project, kind and rest; undefined when it is not of a spec ref shape. */
export function parseRef(ref: string): ParsedRef | undefined {
  const m = REF_PARTS.exec(ref);
  return m ? { project: m[1]!, kind: m[2] as ParsedRef['kind'], rest: m[3]! } : undefined;
}

/** `weave:///<entity>/<project>/...` written as the spec's `svc:///<entity>/<project>/...`; anything else unchanged. */
export function toSvcRef(ref: unknown): unknown {
  return typeof ref === 'string' && ref.startsWith('weave:///') ? `svc:///${ref.slice('weave:///'.length)}` : ref;
}

/** An op or object ref in either scheme: `weave:///` (the Weave SDKs) or the spec's `svc:///`; group 3 is the name. */
const NAMED_REF = /^(weave|svc):\/\/\/[^/]+\/[^/]+\/(op|object)\/([^/:]+):/;

/**
 * The short name of an op: the `<name>` of an op (or object) ref `weave:///<entity>/<project>/op/<name>:<digest>` (or
 * `svc:///...`), else the op name as it is. Weave's `summary.weave.trace_name` of a call without a display name.
 */
export function opShortName(opName: string): string {
  return NAMED_REF.exec(opName)?.[3] ?? opName;
}
