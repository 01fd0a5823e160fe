/**
 * Datasets made from traced calls (a weft extension, issue 50 point 4), zod-free so the viewer imports it: the route's
 * path, the shape of a row made from a call and the ref it keeps of its source call. The rows go in a
 * `Dataset` object as `Dataset.publish` writes one (`datasetObjectVal`, eval/refs.ts), so `evaluate()` reads either.
 * @module
 */

/** Path of the route that adds calls to a dataset (POST, JSON body `DatasetAddCallsReq`). */
export const DATASET_PATHS = { addCalls: '/weft/datasets/add_calls' } as const;

/** A dataset row made from a call: its inputs, its output or a reviewer's correction, and the call's ref. */
export interface CallDatasetRow {
  /** The call's `inputs`, as stored. */
  input: unknown;
  /** What scorers receive as `expected`: the call's output, or the correction given for it. */
  expected: unknown;
  /** `svc:///<entity>/<project>/call/<call id>` (spec "Reference strings"): where the row came from. */
  source_call: string;
}

/** `svc:///<project>/call/<id>`: the ref of a call (spec "Reference strings"), as feedback's `svc_ref` names one. */
export function callRef(project: string, callId: string): string {
  return `svc:///${project}/call/${callId}`;
}

const CALL_REF = /^(?:weave|svc):\/\/\/([^/]+\/[^/]+)\/call\/([^/]+)$/;

/** The project and call id of a call ref (`weave:///` or `svc:///`); `undefined` when `ref` is not one. */
export function parseCallRef(ref: unknown): { project: string; callId: string } | undefined {
  const m = typeof ref === 'string' ? CALL_REF.exec(ref) : null;
  return m ? { project: m[1]!, callId: m[2]! } : undefined;
}

/** A corrected expected output as typed (the viewer's form, `weft datasets add --expected`): JSON when it parses, else the text itself. */
export function expectedFromText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
