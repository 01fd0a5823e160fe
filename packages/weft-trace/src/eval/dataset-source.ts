/**
 * The dataset of a run however `evaluate()` or `describeEval` was given it: a `Dataset` as is, plain rows as dataset
 * `<run>-dataset`, or a published dataset by name or ref, loaded from the server (issue 50 point 4).
 * @module
 */
import { Client } from '../api/client.js';
import { Dataset, type DatasetRow } from './dataset.js';
import { datasetRefOf, objectIdOf, parseObjectRef } from './refs.js';

/** Where a dataset named by name or ref is read: the run's client (else one made for the read, from `connection`), and the project `init()` set (for a bare name). */
export interface DatasetSource {
  client?: Client | undefined;
  connection?: { baseUrl: string; apiKey: string | undefined } | undefined;
  project?: string | undefined;
}

/**
 * The run's dataset. A string is a published dataset: a ref `weave:///<entity>/<project>/object/<name>:<digest>` (or
 * `svc:///...`; the digest may be `latest` or `v<N>`), or a name in the project `init()` set, meaning its latest
 * version (`name:<digest|vN>` for another), loaded through `from.client` (else a client made for the read: `from.connection`, else the `WEFT_*` env vars).
 * @param caller - the function named in error messages (`evaluate`, `describeEval`).
 * @throws {TypeError} when `dataset` is none of these, or is a name while no project is known (no `init()`).
 * @throws {NotFoundError} when the named dataset (or its rows table) does not exist; `APIError` when the server refuses or is away.
 */
export async function datasetOfRun<Row extends DatasetRow>(dataset: Dataset<Row> | readonly Row[] | string, runName: string, caller: string, from: DatasetSource): Promise<Dataset<Row>> {
  if (dataset instanceof Dataset) return dataset;
  if (typeof dataset !== 'string') return new Dataset({ name: `${objectIdOf(runName)}-dataset`.slice(0, 128), rows: dataset });
  const named = dataset.includes('://') ? parseObjectRef(dataset) : undefined;
  if (dataset.includes('://') && !named) throw new TypeError(`${caller}: dataset ${JSON.stringify(dataset)} is not an object ref weave:///<entity>/<project>/object/<name>:<digest>`);
  const project = named?.project ?? from.project;
  if (project === undefined) throw new TypeError(`${caller}: dataset ${JSON.stringify(dataset)} is a name: call init() first (its project is where the name is looked up) or give the dataset's ref`);
  const client = from.client ?? new Client(from.connection ?? {});
  try {
    return (await Dataset.load(client, datasetRefOf(project, dataset))) as unknown as Dataset<Row>;
  } finally {
    if (!from.client) await client.close();
  }
}
