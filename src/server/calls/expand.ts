/**
 * stream_query `expand_columns`: replaces `svc:///<entity>/<project>/call/<id>` refs in the named columns
 * with the call records the store holds.
 * @module
 */
import { resolvePath } from '../db/field-path.js';
import { type ColumnPath, setAt, type WireRecord } from './columns.js';
import type { StoredCallRecord } from './records.js';
import { andThen, type MaybePromise } from '../db/store-api.js';

const CALL_REF = /^svc:\/\/\/([^/]+\/[^/]+)\/call\/([^/]+)$/;

/** The started calls of one project with the given ids (the call store answers it). */
export type CallsById = (projectId: string, ids: readonly string[]) => MaybePromise<StoredCallRecord[]>;

/** The call id of a ref to a call of `projectId`, else undefined (object refs, other projects, non-refs). */
function callIdOf(value: unknown, projectId: string): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = CALL_REF.exec(value);
  return m && m[1] === projectId ? m[2] : undefined;
}

/** The refs (a string, or the strings of an array) at a column of a record. */
function refsAt(record: WireRecord, path: ColumnPath): { keys: (string | number)[]; value: unknown } | undefined {
  const found = path.below.length === 0 ? (path.key in record ? { value: record[path.key], keys: [] } : undefined) : resolvePath(record[path.key], path.below, path.exact);
  return found && { keys: [path.key, ...found.keys], value: found.value };
}

/**
 * Expands the refs of one page of records, column by column in the order given (shallow paths first,
 * so `inputs.parent.inputs.x` can read into a call expanded by `inputs.parent`). A column holding a
 * call ref, or an array of them, gets the referenced call's record in place of each ref. Refs to calls
 * of another project, to calls not stored (or not started yet), and object refs stay as they are: this
 * store holds no objects.
 *
 * @param callsById - reads the referenced calls.
 * @param records - the page; changed in place.
 * @param paths - parsed `expand_columns`.
 * @returns nothing, or a Promise when `callsById` answers Promises (PostgreSQL).
 */
export function expandRefs(callsById: CallsById, records: WireRecord[], paths: readonly ColumnPath[]): MaybePromise<void> {
  const ordered = [...paths].sort((a, b) => a.below.length - b.below.length);
  const step = (n: number): MaybePromise<void> => {
    const path = ordered[n];
    if (!path) return;
    const spots = records.flatMap((record) => {
      const found = refsAt(record, path);
      return found ? [{ record, ...found, project: String(record['project_id']) }] : [];
    });
    const wanted = new Map<string, Set<string>>();
    for (const spot of spots) {
      for (const v of Array.isArray(spot.value) ? spot.value : [spot.value]) {
        const id = callIdOf(v, spot.project);
        if (id) (wanted.get(spot.project) ?? wanted.set(spot.project, new Set()).get(spot.project)!).add(id);
      }
    }
    const calls = new Map<string, WireRecord>();
    const read = (projects: [string, Set<string>][]): MaybePromise<void> => {
      const [first, ...more] = projects;
      if (!first) return;
      return andThen(callsById(first[0], [...first[1]]), (found) => {
        for (const call of found) calls.set(`${first[0]}\n${call.id}`, call);
        return read(more);
      });
    };
    return andThen(read([...wanted]), () => {
      for (const spot of spots) {
        const swap = (v: unknown): unknown => {
          const id = callIdOf(v, spot.project);
          const call = id === undefined ? undefined : calls.get(`${spot.project}\n${id}`);
          return call ? structuredClone(call) : v;
        };
        setAt(spot.record, spot.keys, Array.isArray(spot.value) ? spot.value.map(swap) : swap(spot.value));
      }
      return step(n + 1);
    });
  };
  return step(0);
}
