/**
 * One event as the export pipeline holds it, serialized once: what the batcher, the call-order gate, the
 * deliveries and the spool pass between them.
 * @module
 */

/** One event, serialized once: `json` is sent (or spooled) as is; `bytes` is its UTF-8 length. */
export interface Entry {
  readonly json: string;
  readonly bytes: number;
  /** For a call event with an id: which call, and whether it is the end (kept behind its start). */
  readonly call?: { readonly id: string; readonly end: boolean };
}
