/**
 * The call exporter: the CallSink that turns start/end events into upsert_batch items and sends them in batches.
 * @module
 */
import type { Client } from '../api/client.js';
import { PayloadTooLargeError } from '../api/errors.js';
import { diag } from '../internal/diag.js';
import type { EndedCallSchemaForInsert, StartedCallSchemaForInsert, UpsertBatchItem } from '../schema/calls.js';
import type { CallSink, ExportReport } from '../instrument/runtime.js';
import { Batcher } from './batcher.js';
import type { BatcherOptions } from './batcher-options.js';
import { invalidItemIndexes } from './invalid-items.js';

/**
 * Sends call events to `POST /call/upsert_batch` through its own `client`. An exporter replaced by a
 * later `init()` (its `predecessor`) keeps accepting the end events of calls it started, and is flushed
 * with its successor until none of its calls are open and nothing of it is pending.
 */
export class CallExporter implements CallSink {
  private readonly batcher: Batcher;
  private openCalls = 0;

  constructor(
    private readonly client: Client,
    readonly projectId: string,
    readonly userId: string | undefined,
    options: BatcherOptions,
    private predecessor: CallExporter | undefined = undefined,
  ) {
    this.batcher = new Batcher((batch, signal) => this.send(batch, signal), options);
  }

  /** Events buffered or in flight, here and in predecessors. */
  get pendingCount(): number {
    return this.batcher.pendingCount + (this.predecessor?.pendingCount ?? 0);
  }

  start(start: StartedCallSchemaForInsert): void {
    this.openCalls++;
    this.batcher.enqueue({ mode: 'start', req: { start } });
  }

  end(end: EndedCallSchemaForInsert): void {
    this.openCalls--;
    this.batcher.enqueue({ mode: 'end', req: { end } });
  }

  /** Flushes predecessors and this exporter; reports this exporter's counters. */
  async flush(timeoutMs?: number): Promise<ExportReport> {
    const [, report] = await Promise.all([this.predecessor?.flush(timeoutMs), this.batcher.flush(timeoutMs)]);
    this.prune();
    return report;
  }

  /** Flushes, then refuses new events, here and in predecessors. */
  async shutdown(timeoutMs?: number): Promise<ExportReport> {
    const [, report] = await Promise.all([this.predecessor?.shutdown(timeoutMs), this.batcher.shutdown(timeoutMs)]);
    return report;
  }

  /** Aborts requests in flight and gives up on pending events, here and in predecessors. */
  abandon(): void {
    this.predecessor?.abandon();
    this.batcher.abandon();
  }

  /** Forgets a predecessor that has no open calls and nothing pending, and closes its connections. */
  private prune(): void {
    const p = this.predecessor;
    if (!p) return;
    p.prune();
    if (p.openCalls > 0 || p.pendingCount > 0) return;
    this.predecessor = p.predecessor;
    void p.client.close().catch(() => undefined);
  }

  /**
   * Sends a batch. When some items are refused as invalid, sends the others again without them; when
   * the body is over the server's size limit (413), sends each half on its own. Resolves with the
   * number of events left out.
   */
  private async send(batch: UpsertBatchItem[], signal: AbortSignal): Promise<number> {
    try {
      await this.client.calls.upsertBatch({ batch }, { signal });
      return 0;
    } catch (err) {
      if (err instanceof PayloadTooLargeError && batch.length > 1) {
        const half = Math.ceil(batch.length / 2);
        return (await this.send(batch.slice(0, half), signal)) + (await this.send(batch.slice(half), signal));
      }
      const bad = invalidItemIndexes(err);
      if (bad.size === 0 || bad.size >= batch.length) throw err;
      diag.warn(`${bad.size} invalid call event(s) left out of a batch: ${(err as Error).message}`);
      return bad.size + (await this.send(batch.filter((_, i) => !bad.has(i)), signal));
    }
  }
}
