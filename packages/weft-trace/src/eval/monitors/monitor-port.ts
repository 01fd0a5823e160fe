/**
 * What a monitor pass needs of a server, whether it runs inside `weft serve` (over the store) or in a worker
 * (`weft monitors run`, over HTTP): the monitors, a page of a monitor's ended calls, feedback writes, progress.
 * @module
 */
import type { FeedbackCreateReq } from '../../schema/feedback.js';
import type { Monitor } from '../../schema/monitors.js';

/** An ended call as a monitor reads it (a `/calls/stream_query` record's columns). */
export interface EndedCall {
  id: string;
  op_name?: string | null;
  ended_at?: string | null;
  inputs?: unknown;
  output?: unknown;
  exception?: unknown;
}

/** The server side of a monitor pass. */
export interface MonitorPort {
  /** Every monitor to run. */
  monitors(): Promise<Monitor[]>;
  /** Runs a `/calls/stream_query` body (see `endedCallsQuery`) and answers its records. */
  query(body: Record<string, unknown> & { project_id: string }): Promise<EndedCall[]>;
  /** Stores feedback items (ids given: a repeated item is kept once). */
  writeFeedback(items: FeedbackCreateReq[]): Promise<void>;
  /** Saves a monitor's progress; `false` when the monitor no longer exists. */
  saveProgress(monitor: Monitor, endedAt: string, callId: string): Promise<boolean>;
}
