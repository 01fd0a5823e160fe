/**
 * Object values by `<object_id>:<digest>`, many at once (for stream_query `expand_columns`), as SQL steps for both
 * engines; `ObjectStore.readVals` runs them.
 * @module
 */
import type { Dialect } from '../db/dialect.js';
import { all, type Steps } from '../db/sql-steps.js';

/** One stored object version, as an object ref names it (`.../object/<object_id>:<digest>`). */
export interface ObjectKey {
  object_id: string;
  digest: string;
}

/** The key of a version in the map `readVals` answers: `<object_id>:<digest>`. */
export const objectKeyOf = (k: ObjectKey): string => `${k.object_id}:${k.digest}`;

/**
 * The values of the versions of a project named by a list of keys (the object id list serves the index), as a map
 * from `<object_id>:<digest>` to the parsed value; a version not stored is absent.
 */
export function* readVals(d: Dialect, projectId: string, keys: readonly ObjectKey[]): Steps<Map<string, unknown>> {
  const rows = yield* all<ObjectKey & { val: string }>(`SELECT object_id, digest, val FROM objects
    WHERE project_id = ? AND ${d.inList('object_id')} AND ${d.inList(`object_id || ':' || digest`)}`,
  [projectId, d.list([...new Set(keys.map((k) => k.object_id))]), d.list([...new Set(keys.map(objectKeyOf))])]);
  return new Map(rows.map((r) => [objectKeyOf(r), JSON.parse(r.val) as unknown]));
}
