/**
 * The call exporter: the CallSink that turns start/end events into upsert_batch items and sends them in batches.
 * @module
 */
import type { Client } from '../api/client.js';
import type { EndedCallSchemaForInsert, StartedCallSchemaForInsert } from '../schema/calls.js';
import type { CallSink, ExportReport } from '../instrument/runtime.js';
import { Batcher } from './batcher.js';
import type { BatcherOptions } from './batcher-options.js';

/** Sends call events to `POST /call/upsert_batch` through `client`. */
export class CallExporter implements CallSink {
  private readonly batcher: Batcher;

  constructor(
    private readonly client: Client,
    readonly projectId: string,
    readonly userId: string | undefined,
    options: BatcherOptions,
  ) {
    this.batcher = new Batcher(async (batch) => {
      await this.client.calls.upsertBatch({ batch });
    }, options);
  }

  /** Events buffered or in flight. */
  get pendingCount(): number {
    return this.batcher.pendingCount;
  }

  start(start: StartedCallSchemaForInsert): void {
    this.batcher.enqueue({ mode: 'start', req: { start } });
  }

  end(end: EndedCallSchemaForInsert): void {
    this.batcher.enqueue({ mode: 'end', req: { end } });
  }

  flush(timeoutMs?: number): Promise<ExportReport> {
    return this.batcher.flush(timeoutMs);
  }

  shutdown(timeoutMs?: number): Promise<ExportReport> {
    return this.batcher.shutdown(timeoutMs);
  }
}
