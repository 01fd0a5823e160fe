/**
 * Object values by `<object_id>:<digest>`, many at once (for stream_query `expand_columns`): the SQL both engines run and
 * the map they answer. `ObjectStore.readVals` and `PgObjectStore.readVals` run it.
 * @module
 */
import type { Dialect } from '../db/dialect.js';

/** One stored object version, as an object ref names it (`.../object/<object_id>:<digest>`). */
export interface ObjectKey {
  object_id: string;
  digest: string;
}

/** The key of a version in the map `readVals` answers: `<object_id>:<digest>`. */
export const objectKeyOf = (k: ObjectKey): string => `${k.object_id}:${k.digest}`;

/** The statement reading the versions of a project named by a list of keys (the object id list serves the index). */
export function objectValsSql(d: Dialect): string {
  return d.sql(`SELECT object_id, digest, val FROM objects WHERE project_id = ? AND ${d.inList('object_id')} AND ${d.inList(`object_id || ':' || digest`)}`);
}

/** The parameters of {@link objectValsSql}. */
export function objectValsParams(d: Dialect, projectId: string, keys: readonly ObjectKey[]): unknown[] {
  return [projectId, d.list([...new Set(keys.map((k) => k.object_id))]), d.list([...new Set(keys.map(objectKeyOf))])];
}

/** A row {@link objectValsSql} selects (`val` as JSON text). */
export interface ObjectValRow extends ObjectKey {
  val: string;
}

/** The selected rows as a map from `<object_id>:<digest>` to the parsed value. */
export function valsByKey(rows: readonly ObjectValRow[]): Map<string, unknown> {
  return new Map(rows.map((r) => [objectKeyOf(r), JSON.parse(r.val) as unknown]));
}
