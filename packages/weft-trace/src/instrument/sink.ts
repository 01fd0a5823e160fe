/**
 * The seam between instrument/ and export/: what op() needs from an initialised weft, held in the global registry.
 * @module
 */
import type { EndedCallSchemaForInsert, StartedCallSchemaForInsert } from '../schema/calls.js';
import type { FeedbackCreateReq } from '../schema/feedback.js';
import { getGlobal } from '../internal/global.js';

/**
 * Receives call events; implemented by the export pipeline. Must never throw. op() never changes an
 * event (or anything in it) after handing it over, so a sink may keep it and serialize it later.
 */
export interface CallSink {
  /** Project every call is recorded in (`<entity>/<project>`). */
  readonly projectId: string;
  /** `svc_user_id` stamped on every call, when set. */
  readonly userId: string | undefined;
  /** Where `init()` sends (base URL, API key): how other parts of the SDK (evaluations) make a client for the same server. */
  readonly connection?: { baseUrl: string; apiKey: string | undefined };
  /** Queues a start event. */
  start(start: StartedCallSchemaForInsert): void;
  /** Queues an end event. */
  end(end: EndedCallSchemaForInsert): void;
  /** Queues a feedback item for `POST /feedback/batch/create` (see `addFeedback()`). */
  feedback(item: FeedbackCreateReq): void;
  /** Sends everything queued; see `flush()`. */
  flush(timeoutMs?: number): Promise<ExportReport>;
  /** Flushes and stops accepting events; see `shutdown()`. */
  shutdown(timeoutMs?: number): Promise<ExportReport>;
  /**
   * True when nothing of trace `traceId` will be sent whatever happens in it (`init({ sampling })`'s rate left it out
   * and no tail rule can keep it, or it started here under an OTel span whose `sampled` flag is off): the W3C `sampled`
   * flag sent on to other processes is then off. Absent: all are sent.
   */
  leavesOut?(traceId: string): boolean;
}

/** Counters reported by `flush()` and `shutdown()`, in events. */
export interface ExportReport {
  /** Events acknowledged by the server (including events replayed from the disk spool). */
  sent: number;
  /** Events given up on (refused by the server, unreachable past the retry budget without a spool, queue or spool full, or after shutdown); `getExportStats().dropped` has them by reason. */
  dropped: number;
  /** Events written to the disk spool and not yet replayed: kept on disk, sent later (also by the next process using the same `spoolDir`). */
  spooled: number;
  /** Events still buffered or in flight (non-zero only after a timeout). */
  pending: number;
}

/** The registry's sink slot, which this module owns (typed here: the registry sits below it). */
const g = getGlobal() as { runtime: CallSink | null | undefined };

/** The active sink; `undefined` before `init()`, `null` when `init()` disabled tracing. */
export function getSink(): CallSink | null | undefined {
  return g.runtime;
}

/** Installs the active sink; `null` means "initialised, tracing disabled". */
export function setSink(sink: CallSink | null | undefined): void {
  g.runtime = sink;
}
