/**
 * Posts batches of serialized events to one batch endpoint (`POST /call/upsert_batch`, `POST /feedback/batch/create`): retries, 413 split, 422 leave-out, refusals.
 * @module
 */
import type { Client } from '../api/client.js';
import { PayloadTooLargeError } from '../api/core/api-errors.js';
import { createFeedbackRaw, upsertCallsUnread } from '../api/core/raw-batch.js';
import { isRetryableError } from '../api/core/retry.js';
import type { RequestOptions } from '../api/core/transport.js';
import { safeMessage } from '../internal/safe-message.js';
import type { Entry } from './entry.js';
import { batchBody } from './entry-chunks.js';
import type { ExportOptions } from './export-options.js';
import { invalidItemIndexes } from './invalid-items.js';
import type { Reachability } from './reachability.js';
import { countDrop, stats, warnRateLimited } from './export-stats.js';

/** What became of a posted batch: acknowledged, dropped (refused by the server), or not delivered. */
export interface PostOutcome {
  sent: number;
  dropped: number;
  /** Events the server never acknowledged: it was unreachable past the retry budget, or the request was aborted. */
  undelivered: Entry[];
  /** Why `undelivered` is not empty. */
  error?: unknown;
}

type RetryOptions = Pick<ExportOptions, 'maxRetries' | 'retryInitialDelayMs' | 'retryMaxDelayMs' | 'retryBudgetMs'>;

/** A batch endpoint: the raw post (`api/core/raw-batch.ts`) for a serialized `{"batch": [...]}` body, and what its items are called in diagnostics. */
export interface BatchEndpoint {
  post(client: Client, body: string | Buffer, opts: RequestOptions): Promise<unknown>;
  /** Plural noun for warnings, e.g. `call event(s)`. */
  readonly items: string;
}

/** `POST /call/upsert_batch` (spec endpoint 5): start and end events; the answer's ids are not needed (the events carry them). */
export const CALLS_ENDPOINT: BatchEndpoint = { post: upsertCallsUnread, items: 'call event(s)' };

/** `POST /feedback/batch/create` (spec endpoint 2): feedback items. */
export const FEEDBACK_ENDPOINT: BatchEndpoint = { post: createFeedbackRaw, items: 'feedback item(s)' };

/** Posts batches to one endpoint through one client with the exporter's retry policy. Never throws. */
export class BatchSender {
  constructor(
    private readonly client: Client,
    private readonly options: RetryOptions,
    private readonly endpoint: BatchEndpoint = CALLS_ENDPOINT,
    /** Told of every attempt's outcome (the first-failure warning, refusals at exit). */
    private readonly reach?: Reachability,
  ) {}

  /**
   * Posts `batch`. A 413 sends each half on its own; a 422 naming items sends the others again
   * without them (those count as dropped `invalid`); another non-retryable status drops the batch
   * (`rejected`) with one warning naming the status and the server's detail.
   */
  async post(batch: Entry[], signal: AbortSignal): Promise<PostOutcome> {
    try {
      await this.request(batch, signal);
      this.reach?.succeeded();
      stats.sent += batch.length;
      return { sent: batch.length, dropped: 0, undelivered: [] };
    } catch (err) {
      this.reach?.failed(err);
      if (signal.aborted || isRetryableError(err)) return { sent: 0, dropped: 0, undelivered: batch, error: err };
      if (err instanceof PayloadTooLargeError && batch.length > 1) {
        const half = Math.ceil(batch.length / 2);
        const first = await this.post(batch.slice(0, half), signal);
        // the second half may hold ends of calls started in the first: never sent ahead of it
        const rest = batch.slice(half);
        if (first.undelivered.length > 0) return combine(first, { sent: 0, dropped: 0, undelivered: rest });
        return combine(first, await this.post(rest, signal));
      }
      return this.refused(batch, err, signal);
    }
  }

  private async refused(batch: Entry[], err: unknown, signal: AbortSignal): Promise<PostOutcome> {
    const bad = invalidItemIndexes(err);
    if (bad.size > 0) {
      const refused = refusedCalls(batch, bad);
      countDrop('invalid', bad.size, `the server refused them as invalid: ${safeMessage(err)}`);
      const rest = batch.filter((e, i) => !bad.has(i) && !refused.has(e));
      if (refused.size > 0) countDrop('invalid', refused.size, 'the start of their call was refused as invalid');
      const outcome = rest.length > 0 ? await this.post(rest, signal) : { sent: 0, dropped: 0, undelivered: [] };
      return combine(outcome, { sent: 0, dropped: batch.length - rest.length, undelivered: [] });
    }
    const status = (err as { status?: number }).status;
    warnRateLimited(`rejected-${status}`, () =>
      `the server refused a batch of ${batch.length} ${this.endpoint.items} with HTTP ${status ?? '(no status)'}; not retried, dropped: ${safeMessage(err)}`,
    );
    stats.dropped.rejected += batch.length;
    return { sent: 0, dropped: batch.length, undelivered: [] };
  }

  private async request(batch: Entry[], signal: AbortSignal): Promise<void> {
    const body = batchBody(batch);
    const bytes = body.length;
    stats.inFlightRequests++;
    stats.inFlightBytes += bytes;
    try {
      await this.endpoint.post(this.client, body, {
        signal,
        maxRetries: this.options.maxRetries,
        retry: {
          initialDelayMs: this.options.retryInitialDelayMs,
          maxDelayMs: this.options.retryMaxDelayMs,
          budgetMs: this.options.retryBudgetMs,
        },
        onRetry: (info) => {
          stats.retried++;
          this.reach?.failed(info.error);
        },
        unrefRetryWait: true, // exit is handled by lifecycle.ts within exitTimeoutMs
      });
    } finally {
      stats.inFlightRequests--;
      stats.inFlightBytes -= bytes;
    }
  }
}

/**
 * Gives up on the events of `out` the server never took: counts them as dropped, `abandoned` when
 * `signal` ended them at the exit deadline, else `unreachable`, with `what` before the reason.
 * @returns how many were dropped.
 */
export function dropUndelivered(out: PostOutcome, signal: AbortSignal, what = ''): number {
  const lost = out.undelivered.length;
  const why = signal.aborted ? abandonReason(signal) : `the server was unreachable past the retry budget: ${safeMessage(out.error)}`;
  countDrop(signal.aborted ? 'abandoned' : 'unreachable', lost, `${what}${why}`);
  return lost;
}

/** Why `signal` ended the requests: the reason given to `abandon()`, else the exit deadline. */
function abandonReason(signal: AbortSignal): string {
  return typeof signal.reason === 'string' ? signal.reason : 'the exit deadline passed';
}

/** Ends (outside `bad`) whose start is among the `bad` items: an end is not sent once its start was refused. */
function refusedCalls(batch: Entry[], bad: Set<number>): Set<Entry> {
  const starts = new Set<string>();
  for (const i of bad) {
    const call = batch[i]?.call;
    if (call && !call.end) starts.add(call.id);
  }
  const out = new Set<Entry>();
  if (starts.size === 0) return out;
  batch.forEach((e, i) => {
    if (!bad.has(i) && e.call?.end && starts.has(e.call.id)) out.add(e);
  });
  return out;
}

function combine(a: PostOutcome, b: PostOutcome): PostOutcome {
  return { sent: a.sent + b.sent, dropped: a.dropped + b.dropped, undelivered: [...a.undelivered, ...b.undelivered], error: a.error ?? b.error };
}
