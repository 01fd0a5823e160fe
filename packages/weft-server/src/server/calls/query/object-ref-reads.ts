/**
 * Reads the values object refs point at, for stream_query `expand_columns`, as Weave's trace server resolves a ref
 * (its `_refs_read_batch_within_project`): `(weave|svc):///<entity>/<project>/(object|op)/<name>:<digest>` is the
 * stored version's value, and an extra path after it (`/key/<k>`, `/attr/<a>`, `/index/<i>`, `/id/<row digest>`) walks
 * into it, through the object and table refs it meets on the way (a dataset row ref `.../attr/rows/id/<digest>` reads
 * the row of the dataset's table).
 * @module
 */
import { andThen, type MaybePromise } from '../../db/store-api.js';
import { type ObjectKey, objectKeyOf } from '../../objects/object-vals.js';
import type { TableRowSchema } from 'weft-trace/wire';
import type { TableQuery } from '../../tables/table-store.js';

/** What resolving reads: object values by `<object_id>:<digest>`, and table rows' values by row digest. */
export interface ObjectReads {
  objectVals(projectId: string, keys: readonly ObjectKey[]): MaybePromise<Map<string, unknown>>;
  tableRows(projectId: string, digest: string, rowDigests: readonly string[]): MaybePromise<Map<string, unknown>>;
}

const OBJECT_REF = /^(?:weave|svc):\/\/\/([^/]+\/[^/]+)\/(?:object|op)\/([^/:]+):([^/]+)((?:\/[^/]+\/[^/]*)*)$/;
const TABLE_REF = /^(?:weave|svc):\/\/\/([^/]+\/[^/]+)\/table\/([^/]+)((?:\/[^/]+\/[^/]*)*)$/;

/** The edges of an extra path, in pairs: `[op, arg, op, arg, ...]` (percent-decoded). */
function extraOf(text: string): string[] {
  return text.split('/').slice(1).map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  });
}

/** An object ref of `projectId`, split: its key and the extra path after it; undefined for anything else. */
export function parseObjectRef(value: unknown, projectId: string): { key: ObjectKey; extra: string[] } | undefined {
  const m = typeof value === 'string' ? OBJECT_REF.exec(value) : null;
  return m && m[1] === projectId ? { key: { object_id: m[2]!, digest: m[3]! }, extra: extraOf(m[4]!) } : undefined;
}

function parseTableRef(value: unknown, projectId: string): { digest: string; extra: string[] } | undefined {
  const m = typeof value === 'string' ? TABLE_REF.exec(value) : null;
  return m && m[1] === projectId ? { digest: m[2]!, extra: extraOf(m[3]!) } : undefined;
}

/** One ref being resolved: its value so far and the extra path left; `object` or `table` while a read is pending. */
interface Work {
  val: unknown;
  extra: string[];
  object?: ObjectKey;
  table?: string;
  /** The root object is not stored: the ref stays as it is. */
  missing?: boolean;
}

/** Rounds of reads before giving up on a ref (refs pointing into each other); such a ref reads as null. */
const MAX_ROUNDS = 32;

/** Walks `w.extra` from `w.val` until it ends, or meets a ref of the project (which becomes the pending read). */
function walk(w: Work, projectId: string): void {
  while (w.extra.length > 0) {
    const obj = parseObjectRef(w.val, projectId);
    const table = obj ? undefined : parseTableRef(w.val, projectId);
    if (obj || table) {
      if (obj) w.object = obj.key;
      else w.table = table!.digest;
      w.extra = [...(obj ?? table)!.extra, ...w.extra];
      return;
    }
    const [op, arg = ''] = w.extra;
    w.extra = w.extra.slice(2);
    if ((op === 'key' || op === 'attr') && w.val !== null && typeof w.val === 'object' && !Array.isArray(w.val)) {
      w.val = Object.hasOwn(w.val, arg) ? (w.val as Record<string, unknown>)[arg] : null;
    } else if (op === 'index' && Array.isArray(w.val) && /^\d+$/.test(arg)) {
      w.val = w.val[Number(arg)] ?? null;
    } else {
      w.val = null;
      w.extra = [];
    }
  }
}

/**
 * Resolves object refs of one project: each to the value it points at (null where its extra path leads nowhere), or
 * absent from the answer when its object is not stored (the caller keeps the ref then).
 *
 * @param reads - the object and table reads of the store.
 * @param projectId - the project whose refs these are (other projects' refs are never read).
 * @param refs - object ref strings of `projectId` (see {@link parseObjectRef}).
 * @returns ref → value; a Promise of it when the reads answer Promises (PostgreSQL).
 */
export function resolveObjectRefs(reads: ObjectReads, projectId: string, refs: readonly string[]): MaybePromise<Map<string, unknown>> {
  const work = new Map<string, Work>();
  for (const ref of new Set(refs)) {
    const parsed = parseObjectRef(ref, projectId);
    if (parsed) work.set(ref, { val: null, extra: parsed.extra, object: parsed.key });
  }
  const round = (n: number): MaybePromise<Map<string, unknown>> => {
    const pending = [...work.values()].filter((w) => w.object || w.table);
    if (pending.length === 0 || n >= MAX_ROUNDS) {
      const out = new Map<string, unknown>();
      for (const [ref, w] of work) if (!w.missing) out.set(ref, w.object || w.table ? null : w.val);
      return out;
    }
    const objects = pending.filter((w) => w.object);
    return andThen(objects.length > 0 ? reads.objectVals(projectId, objects.map((w) => w.object!)) : new Map<string, unknown>(), (vals) => {
      for (const w of objects) {
        const key = objectKeyOf(w.object!);
        // the root of a ref not stored: keep the ref; a version missing deeper in the path: null
        if (vals.has(key)) w.val = vals.get(key);
        else Object.assign(w, { missing: n === 0, val: null, extra: [] });
        w.object = undefined;
      }
      return andThen(readTables(reads, projectId, pending.filter((w) => w.table)), () => {
        for (const w of work.values()) if (!w.missing) walk(w, projectId);
        return round(n + 1);
      });
    });
  };
  return round(0);
}

/** Runs `step` on each of `items` in order, each once the previous one's answer (a Promise on PostgreSQL) settled. */
export function inTurn<T>(items: readonly T[], step: (item: T) => MaybePromise<void>, at = 0): MaybePromise<void> {
  return at < items.length ? andThen(step(items[at]!), () => inTurn(items, step, at + 1)) : undefined;
}

/** Reads the rows pending table reads point at (`id/<row digest>` first in their extra path), table by table. */
function readTables(reads: ObjectReads, projectId: string, waiting: readonly Work[]): MaybePromise<void> {
  const byTable = new Map<string, Work[]>();
  for (const w of waiting) (byTable.get(w.table!) ?? byTable.set(w.table!, []).get(w.table!)!).push(w);
  return inTurn([...byTable], ([digest, ws]) => {
    const rowDigests = ws.flatMap((w) => (w.extra[0] === 'id' && w.extra[1] !== undefined ? [w.extra[1]] : []));
    return andThen(rowDigests.length > 0 ? reads.tableRows(projectId, digest, rowDigests) : new Map<string, unknown>(), (rows) => {
      for (const w of ws) {
        const row = w.extra[0] === 'id' ? w.extra[1] : undefined;
        w.val = row !== undefined && rows.has(row) ? rows.get(row) : null;
        w.extra = row !== undefined && rows.has(row) ? w.extra.slice(2) : [];
        w.table = undefined;
      }
    });
  });
}

/** The `/table/query` of the rows of one table with the given row digests (what `tableRows` asks a table store). */
export function rowsQuery(projectId: string, digest: string, rowDigests: readonly string[]): TableQuery {
  return { project_id: projectId, digest, filter: { row_digests: [...rowDigests] } };
}

/** Table rows as `tableRows` answers them: row digest → value. */
export function rowVals(rows: readonly TableRowSchema[]): Map<string, unknown> {
  return new Map(rows.map((r) => [r.digest, r.val]));
}
