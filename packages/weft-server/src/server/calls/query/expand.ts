/**
 * stream_query `expand_columns`: replaces the refs in the named columns with what they point at: a call ref
 * (`svc:///<entity>/<project>/call/<id>`, a weft extension) with the call's record, an object (or op) ref stored through
 * `/obj/create` with the object's value (object-ref-reads.ts), as Weave's trace server expands them.
 * @module
 */
import { resolvePath } from '../../db/field-path.js';
import { type ColumnPath, setAt, type WireRecord } from './columns.js';
import { inTurn, type ObjectReads, parseObjectRef, resolveObjectRefs } from './object-ref-reads.js';
import type { StoredCallRecord } from './records.js';
import { andThen, type MaybePromise } from '../../db/store-api.js';
import { addWeaveSummary } from './weave-summary.js';

const CALL_REF = /^svc:\/\/\/([^/]+\/[^/]+)\/call\/([^/]+)$/;

/** What expansion reads: started calls by id, object values, table rows (the stores answer them). */
export interface RefReads extends ObjectReads {
  callsById(projectId: string, ids: readonly string[]): MaybePromise<StoredCallRecord[]>;
}

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

/** A found spot of one column: where in which record, and the value there. */
interface Spot {
  record: WireRecord;
  keys: (string | number)[];
  value: unknown;
  project: string;
}

/** What one column's refs point at, per project: calls by `<project>\n<id>`, object values by `<project>\n<ref>`. */
interface Targets {
  calls: Map<string, WireRecord>;
  objects: Map<string, unknown>;
}

/** Reads what the refs at `spots` point at, project by project. */
function readTargets(reads: RefReads, spots: readonly Spot[]): MaybePromise<Targets> {
  const wanted = new Map<string, { calls: Set<string>; objects: Set<string> }>();
  for (const spot of spots) {
    const entry = wanted.get(spot.project) ?? wanted.set(spot.project, { calls: new Set(), objects: new Set() }).get(spot.project)!;
    for (const v of Array.isArray(spot.value) ? spot.value : [spot.value]) {
      const id = callIdOf(v, spot.project);
      if (id) entry.calls.add(id);
      else if (parseObjectRef(v, spot.project)) entry.objects.add(v as string);
    }
  }
  const out: Targets = { calls: new Map(), objects: new Map() };
  const read = inTurn([...wanted], ([project, { calls, objects }]) =>
    andThen(calls.size > 0 ? reads.callsById(project, [...calls]) : [], (found) => {
      addWeaveSummary(found);
      for (const call of found) out.calls.set(`${project}\n${call.id}`, call);
      return andThen(objects.size > 0 ? resolveObjectRefs(reads, project, [...objects]) : new Map<string, unknown>(), (vals) => {
        for (const [ref, val] of vals) out.objects.set(`${project}\n${ref}`, val);
      });
    }));
  return andThen(read, () => out);
}

/** The value a ref is replaced by (a copy), or the ref itself when nothing was found for it. */
function target(targets: Targets, v: unknown, project: string): unknown {
  const id = callIdOf(v, project);
  if (id !== undefined) {
    const call = targets.calls.get(`${project}\n${id}`);
    return call ? structuredClone(call) : v;
  }
  const key = `${project}\n${String(v)}`;
  if (typeof v !== 'string' || !targets.objects.has(key)) return v;
  const val = structuredClone(targets.objects.get(key));
  // as Weave: an expanded object (a dict) names the ref it came from
  if (val !== null && typeof val === 'object' && !Array.isArray(val) && !('_ref' in val)) (val as Record<string, unknown>)['_ref'] = v;
  return val;
}

/**
 * Expands the refs of one page of records, column by column, shallow paths first (so `output.b` reads into the object
 * `output` expanded to, as Weave expands by depth). A column holding a ref, or an array of refs, gets what each points
 * at: a call's record, or an object's value (a dict gains `_ref`, the ref it came from; a path into the object that
 * leads nowhere gives null). Refs of another project, to calls not started or objects not stored, and table refs stay
 * as they are.
 *
 * @param reads - reads the referenced calls, objects and table rows.
 * @param records - the page; changed in place.
 * @param paths - parsed `expand_columns`.
 * @returns nothing, or a Promise when the reads answer Promises (PostgreSQL).
 */
export function expandRefs(reads: RefReads, records: WireRecord[], paths: readonly ColumnPath[]): MaybePromise<void> {
  const ordered = [...paths].sort((a, b) => a.below.length - b.below.length);
  return inTurn(ordered, (path) => {
    const spots: Spot[] = records.flatMap((record) => {
      const found = refsAt(record, path);
      return found ? [{ record, ...found, project: String(record['project_id']) }] : [];
    });
    return andThen(readTargets(reads, spots), (targets) => {
      for (const spot of spots) {
        const swap = (v: unknown): unknown => target(targets, v, spot.project);
        setAt(spot.record, spot.keys, Array.isArray(spot.value) ? spot.value.map(swap) : swap(spot.value));
      }
    });
  });
}
