/**
 * Weave object and table refs (`weave:///<entity>/<project>/object/<name>:<digest>`, `.../table/<digest>`): built and read.
 * @module
 */

/** A parsed object ref. */
export interface ObjectRef {
  project: string;
  name: string;
  digest: string;
}

/** `weave:///<project>/object/<name>:<digest>`, the ref the Weave SDKs write for a published object. */
export function objectRef(project: string, name: string, digest: string): string {
  return `weave:///${project}/object/${name}:${digest}`;
}

/** `weave:///<project>/table/<digest>`, the ref of a table (a dataset's `rows`). */
export function tableRef(project: string, digest: string): string {
  return `weave:///${project}/table/${digest}`;
}

const OBJECT_REF = /^(?:weave|svc):\/\/\/([^/]+\/[^/]+)\/object\/([^/:]+):([^/]+)$/;
const TABLE_REF = /^(?:weave|svc):\/\/\/([^/]+\/[^/]+)\/table\/([^/]+)$/;

/** Reads an object ref (`weave:///` or `svc:///`); `undefined` when `ref` is not one. */
export function parseObjectRef(ref: unknown): ObjectRef | undefined {
  const m = typeof ref === 'string' ? OBJECT_REF.exec(ref) : null;
  return m ? { project: m[1]!, name: m[2]!, digest: m[3]! } : undefined;
}

/** Reads a table ref; `undefined` when `ref` is not one. */
export function parseTableRef(ref: unknown): { project: string; digest: string } | undefined {
  const m = typeof ref === 'string' ? TABLE_REF.exec(ref) : null;
  return m ? { project: m[1]!, digest: m[2]! } : undefined;
}

/** The class fields the Weave SDKs write on a published object (`_type`, `_class_name`, `_bases`), which the server reads as its class. */
export function weaveClass(name: string): { _type: string; _class_name: string; _bases: string[] } {
  return { _type: name, _class_name: name, _bases: ['Object', 'BaseModel'] };
}

/**
 * The value of a `Dataset` object version, as the Weave SDKs publish one: the class fields, its name, its description
 * (null when none) and its rows table's ref. `Dataset.publish` and the server's add-calls route both write this.
 */
export function datasetObjectVal(name: string, description: string | null, rowsRef: string): Record<string, unknown> {
  return { ...weaveClass('Dataset'), name, description, rows: rowsRef };
}

/**
 * A dataset named in a project as a ref: `name` (its latest version), `name:<digest|latest|vN>`, or a full object ref
 * (`weave:///` or `svc:///`, returned as given).
 */
export function datasetRefOf(project: string, nameOrRef: string): string {
  if (nameOrRef.includes('://')) return nameOrRef;
  const [name, version] = nameOrRef.split(':');
  return objectRef(project, name!, version || 'latest');
}

/** The object id for a run name: characters other than letters, digits, `-`, `_`, `.` become `-` (at most 128). */
export function objectIdOf(name: string): string {
  return name.replace(/[^\w.-]/g, '-').slice(0, 128) || 'evaluation';
}
