/**
 * Dataset: rows to evaluate on, published as the Weave SDKs publish one (rows through `/table/create`, the object through `/obj/create`) and loaded back by ref.
 * @module
 */
import type { Client } from '../api/client.js';
import { ObjectId } from '../schema/objects.js';
import { contentKey, publishOnce } from './publish-cache.js';
import { datasetObjectVal, objectRef, parseObjectRef, parseTableRef, tableRef } from './refs.js';

/** A dataset row: any JSON object; `expected` (when present) is what scorers receive as `expected`. */
export type DatasetRow = Record<string, unknown>;

/** Options of {@link Dataset}. */
export interface DatasetOptions<R extends DatasetRow = DatasetRow> {
  /** Object id the dataset is published under (1-128 letters, digits, `-`, `_`, `.`). */
  name: string;
  /** The rows, in order (JSON objects). */
  rows: readonly R[];
  /** A line saying what the rows are. @defaultValue none */
  description?: string;
}

/** Where a published dataset lives. */
export interface PublishedDataset {
  /** `weave:///<entity>/<project>/object/<name>:<digest>`. */
  ref: string;
  /** The object version's digest (same rows and description, same digest). */
  digest: string;
  /** The rows table's digest. */
  tableDigest: string;
  /** One digest per row, in order. */
  rowDigests: string[];
}

/**
 * A named list of rows. Published (on first use by `evaluate()`, or by {@link Dataset.publish}) as a table of
 * rows plus a `Dataset` object holding the table's ref, versioned by content digest, as the Weave SDKs do; a
 * Weave SDK reads it back, and `Dataset.load()` reads a Weave SDK's.
 * @example
 * const ds = new Dataset({ name: 'capitals', rows: [{ q: 'France?', expected: 'Paris' }] });
 * const { ref } = await ds.publish(client, 'acme/demo');
 * const again = await Dataset.load(client, ref);
 */
export class Dataset<R extends DatasetRow = DatasetRow> {
  readonly name: string;
  readonly rows: readonly R[];
  readonly description: string | undefined;
  /** Set once published or loaded. */
  published: PublishedDataset | undefined;

  /** @throws {TypeError} when `name` is not a valid object id or `rows` is not an array of objects. */
  constructor(options: DatasetOptions<R>) {
    const name = ObjectId.safeParse(options?.name);
    if (!name.success) throw new TypeError(`Dataset name: expected 1-128 letters, digits, "-", "_" or ".", got ${JSON.stringify(options?.name)}`);
    if (!Array.isArray(options.rows)) throw new TypeError(`Dataset rows: expected an array of objects, got ${typeof options.rows}`);
    const bad = options.rows.findIndex((r) => r === null || typeof r !== 'object' || Array.isArray(r));
    if (bad >= 0) throw new TypeError(`Dataset rows[${bad}]: expected an object, got ${JSON.stringify(options.rows[bad])}`);
    this.name = name.data;
    this.rows = options.rows;
    this.description = options.description;
  }

  /** Number of rows. */
  get length(): number {
    return this.rows.length;
  }

  /**
   * Publishes the rows (`POST /table/create`) and the `Dataset` object (`POST /obj/create`) in `project`.
   * Publishing the same rows again answers the same digests (no new version); through the same `client`, what was
   * published before (the rows, the object) is not sent again.
   * @throws {APIError} (or a subclass) when the server refuses or is unreachable.
   */
  async publish(client: Client, project: string): Promise<PublishedDataset> {
    const table = await publishOnce(client, contentKey('table', project, this.rows), () => client.tables.create({ project_id: project, rows: [...this.rows] }));
    const val = datasetObjectVal(this.name, this.description ?? null, tableRef(project, table.digest));
    const create = async (): Promise<string> => (await client.objects.create({ obj: { project_id: project, object_id: this.name, val } })).digest;
    const digest = await publishOnce(client, contentKey('object', project, { id: this.name, val }), create);
    this.published = { ref: objectRef(project, this.name, digest), digest, tableDigest: table.digest, rowDigests: table.row_digests };
    return this.published;
  }

  /**
   * Loads a published dataset: `ref` is `weave:///<entity>/<project>/object/<name>:<digest>` (digest may be
   * `latest` or `v<N>`), whoever published it (weft or a Weave SDK).
   * @throws {TypeError} when `ref` is not an object ref, or the object is not a dataset (no `rows` table ref).
   * @throws {NotFoundError} when the object or its table does not exist.
   */
  static async load(client: Client, ref: string): Promise<Dataset> {
    const parsed = parseObjectRef(ref);
    if (!parsed) throw new TypeError(`Dataset.load: expected a ref weave:///<entity>/<project>/object/<name>:<digest>, got ${JSON.stringify(ref)}`);
    const { obj } = await client.objects.read({ project_id: parsed.project, object_id: parsed.name, digest: parsed.digest });
    const val = (obj.val ?? {}) as Record<string, unknown>;
    const table = parseTableRef(val['rows']);
    if (!table) throw new TypeError(`Dataset.load: ${ref} is not a dataset (its "rows" is not a table ref)`);
    const { rows } = await client.tables.query({ project_id: parsed.project, digest: table.digest });
    const dataset = new Dataset({
      name: parsed.name,
      rows: rows.map((r) => r.val as DatasetRow),
      ...(typeof val['description'] === 'string' ? { description: val['description'] } : {}),
    });
    dataset.published = { ref: objectRef(parsed.project, parsed.name, obj.digest), digest: obj.digest, tableDigest: table.digest, rowDigests: rows.map((r) => r.digest) };
    return dataset;
  }
}
