/**
 * The typed client: one object composing a resource per endpoint group over one transport.
 * @module
 */
import { runtimeEnv } from '../internal/runtime.js';
import { CallsResource } from './resources/calls-resource.js';
import { FeedbackResource } from './resources/feedback-resource.js';
import { TablesResource } from './resources/tables-resource.js';
import { ObjectsResource } from './resources/objects-resource.js';
import { DatasetsResource } from './resources/datasets-resource.js';
import { TrainingJobsResource, TrajectoriesResource } from './resources/training-resource.js';
import { ConfigError } from '../errors.js';
import { Transport } from './core/transport.js';
import { DEFAULT_BASE_URL, type ClientOptions } from './core/client-options.js';

/**
 * Client of the Tracing, Feedback and Training Service Interface.
 * @example
 * const client = new Client({ baseUrl: 'http://127.0.0.1:6345' });
 * const { id } = await client.calls.start({ start: { project_id: 'acme/demo', op_name: 'f', started_at: new Date().toISOString(), inputs: {}, attributes: {} } });
 * @throws {ConfigError} when an option is malformed (e.g. a base URL that is not http(s)).
 */
export class Client {
  /** Resolved base URL, without a trailing slash. */
  readonly baseUrl: string;
  /** Call tracing endpoints. */
  readonly calls: CallsResource;
  /** Feedback: `create()` and time-bucketed `stats()` (spec endpoints 2 and 6). */
  readonly feedback: FeedbackResource;
  /** Tables: `query()` (spec endpoint 8) and `create()` (local server extension). */
  readonly tables: TablesResource;
  /** Versioned objects (`/obj/*`, Weave SDK compatibility routes of the local server): datasets, evaluations. */
  readonly objects: ObjectsResource;
  /** Datasets made from traced calls (`addCalls`, a weft extension of the local server). */
  readonly datasets: DatasetsResource;
  /** Trajectory logs of a model (preview, Bearer auth; spec endpoint 1). */
  readonly trajectories: TrajectoriesResource;
  /** Training jobs (preview, Bearer auth; spec endpoint 4). */
  readonly trainingJobs: TrainingJobsResource;
  /** @internal the shared HTTP layer */
  readonly transport: Transport;

  constructor(options: ClientOptions = {}) {
    const baseUrl = options.baseUrl ?? runtimeEnv().WEFT_BASE_URL ?? DEFAULT_BASE_URL;
    checkBaseUrl(baseUrl);
    const timeoutMs = options.timeoutMs ?? 60_000;
    const maxRetries = options.maxRetries ?? 2;
    checkNumber('timeoutMs', timeoutMs, 1);
    checkNumber('maxRetries', maxRetries, 0);
    const apiKey = options.apiKey ?? (runtimeEnv().WEFT_API_KEY || undefined);
    this.transport = new Transport({ baseUrl, apiKey, timeoutMs, maxRetries });
    this.baseUrl = this.transport.baseUrl;
    this.calls = new CallsResource(this.transport);
    this.feedback = new FeedbackResource(this.transport);
    this.tables = new TablesResource(this.transport);
    this.objects = new ObjectsResource(this.transport);
    this.datasets = new DatasetsResource(this.transport);
    this.trajectories = new TrajectoriesResource(this.transport);
    this.trainingJobs = new TrainingJobsResource(this.transport);
  }

  /** Closes the client's idle connections. */
  close(): Promise<void> {
    return this.transport.close();
  }
}

function checkBaseUrl(value: unknown): void {
  let ok = false;
  try {
    ok = typeof value === 'string' && /^https?:$/.test(new URL(value).protocol);
  } catch {
    ok = false;
  }
  if (!ok) throw new ConfigError(`baseUrl: expected an http(s) URL such as http://127.0.0.1:6345, got ${JSON.stringify(value)} (${typeof value})`);
}

/** Checks a numeric option; the message names it, the expectation and what was received. */
function checkNumber(name: string, value: unknown, min: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new ConfigError(`${name}: expected a finite number >= ${min}, got ${String(value)} (${typeof value})`);
  }
}
