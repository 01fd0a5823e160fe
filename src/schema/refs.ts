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
