/**
 * The Datasets page's reads and its one write: datasets and their versions (`/objs/query`, class `Dataset`), a
 * version's rows (`/table/query`), and calls added to a dataset (`/weft/datasets/add_calls`).
 * @module
 */
import { DATASET_PATHS, type DatasetAddCallsRes, ENDPOINTS, type ObjSchema, parseTableRef, WEAVE_ENDPOINTS } from 'weft-trace/viewer';
import { request } from '../api';

/** A dataset version as the page lists it. */
export interface DatasetVersion {
  name: string;
  digest: string;
  /** 0-based: `v0` is the first version. */
  version: number;
  createdAt: string;
  /** The digest of its rows table (null when its `rows` is not a table ref). */
  table: string | null;
  description: string | null;
}

function versionOf(o: ObjSchema): DatasetVersion {
  const val = (o.val ?? {}) as Record<string, unknown>;
  return {
    name: o.object_id, digest: o.digest, version: o.version_index, createdAt: o.created_at,
    table: parseTableRef(val['rows'])?.digest ?? null, description: typeof val['description'] === 'string' ? val['description'] : null,
  };
}

async function queryObjects(body: Record<string, unknown>, signal?: AbortSignal): Promise<ObjSchema[]> {
  const res = await request(WEAVE_ENDPOINTS.objsQuery, body, signal);
  return ((await res.json()) as { objs: ObjSchema[] }).objs;
}

/** The project's datasets, each as its latest version, most recently changed first. */
export async function listDatasets(project: string, signal?: AbortSignal): Promise<DatasetVersion[]> {
  const objs = await queryObjects({ project_id: project, filter: { base_object_classes: ['Dataset'], latest_only: true }, sort_by: [{ field: 'created_at', direction: 'desc' }] }, signal);
  return objs.map(versionOf);
}

/** Every version of one dataset, oldest first. */
export async function listVersions(project: string, name: string, signal?: AbortSignal): Promise<DatasetVersion[]> {
  const objs = await queryObjects({ project_id: project, filter: { object_ids: [name] }, sort_by: [{ field: 'version_index', direction: 'asc' }] }, signal);
  return objs.map(versionOf);
}

/** The rows of a version's table, in order. */
export async function readRows(project: string, table: string, signal?: AbortSignal): Promise<unknown[]> {
  const res = await request(ENDPOINTS.tableQuery, { project_id: project, digest: table }, signal);
  return ((await res.json()) as { rows: Array<{ val: unknown }> }).rows.map((r) => r.val);
}

/** One call to add: its id and, when corrected, the expected output kept instead of its output. */
export interface CallToAdd {
  id: string;
  expected?: unknown;
}

/** Adds calls to a dataset (created by its first addition): one new version. @throws Error with the server's detail (e.g. a call that raised, given no correction). */
export async function addCallsToDataset(project: string, dataset: string, calls: readonly CallToAdd[]): Promise<DatasetAddCallsRes> {
  const res = await request(DATASET_PATHS.addCalls, { project_id: project, dataset, calls });
  return (await res.json()) as DatasetAddCallsRes;
}
