/**
 * The feedback of an exported call record (`summary.feedback`, from `include_feedback`) as feedback create items for `weft calls import`.
 * @module
 */
import type { CallRecord } from 'weft-trace/wire';
import type { FeedbackCreateReq, FeedbackRecord } from 'weft-trace/wire';

/** `ref` moved from project `from` into project `to` when it points into `from`; other refs unchanged. */
function moveRef(ref: string | null | undefined, from: string, to: string): string | null | undefined {
  const prefix = `svc:///${from}/`;
  return ref && from !== to && ref.startsWith(prefix) ? `svc:///${to}/${ref.slice(prefix.length)}` : ref;
}

/**
 * The create items that store `record`'s feedback again, in `project`: each keeps its `id` (so an import run again
 * stores nothing twice: the server ignores a feedback id it holds), type, payload and refs; refs into the record's
 * own project move with it. `created_at` is the import's time: the interface's create request has no such field.
 *
 * @param record - a call record as `weft calls export` writes it (`summary.feedback` when it has feedback).
 * @param project - the project the call is imported into.
 * @returns the items, none when the record carries no feedback.
 */
export function feedbackItems(record: CallRecord, project: string): FeedbackCreateReq[] {
  const feedback = (record.summary?.feedback ?? []) as FeedbackRecord[];
  const from = record.project_id;
  return feedback.map((f) => ({
    project_id: project,
    id: f.id,
    feedback_type: f.feedback_type,
    payload: f.payload,
    svc_ref: moveRef(f.svc_ref, from, project) as string,
    call_ref: moveRef(f.call_ref, from, project) ?? null,
    annotation_ref: f.annotation_ref ?? null,
    runnable_ref: f.runnable_ref ?? null,
    trigger_ref: f.trigger_ref ?? null,
    creator: f.creator ?? null,
    queue_id: f.queue_id ?? null,
    svc_user_id: (f['svc_user_id'] as string | null | undefined) ?? null,
  }));
}
