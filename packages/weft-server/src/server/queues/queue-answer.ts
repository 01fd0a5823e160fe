/**
 * An item answered: each answer checked against its field (422 `{detail}` naming the answer), the item marked done
 * by the reviewer (409 when another holds or finished it), then the answers stored as feedback on the item's call
 * (`annotation_ref`: the field version, `queue_id`: the queue, `creator`: the reviewer, payload `{value}`); if that
 * write fails the item is put back as it was. A reviewer answering an item again replaces their earlier answers.
 * @module
 */
import type { z } from 'zod';
import { annotationFeedbackType, answerProblem, type FeedbackCreateRes, type Queue, type QueueAnswerReq, type QueueItem } from 'weft-trace/wire';
import type { FeedbackStore } from '../feedback/feedback-store.js';
import { HttpError } from '../http/http-error.js';
import type { ObjectStore } from '../objects/object-store.js';
import { resolveFields } from './annotation-fields.js';
import type { QueueStore } from './queue-store.js';

/** The stores an answer touches. */
export interface AnswerStores {
  queues: QueueStore;
  objects: ObjectStore;
  feedback: FeedbackStore;
}

/** The answer of `queues/answer`: the item, done, and one stored feedback record per answer. */
export interface AnswerRes {
  item: QueueItem;
  feedback: FeedbackCreateRes[];
}

/** @throws HttpError 422 for an answer to a field the queue does not have, or a value its field refuses. */
async function feedbackItems(stores: AnswerStores, queue: Queue, body: z.output<typeof QueueAnswerReq>, callId: string) {
  const fields = await resolveFields(stores.objects, queue.project_id, queue.fields, ['queue', 'fields']);
  return body.answers.map((a, i) => {
    const field = fields.find((f) => f.ref === a.field_ref);
    if (!field) throw HttpError.validation([{ loc: ['body', 'answers', String(i), 'field_ref'], msg: `expected one of the queue's fields ${queue.fields.join(', ')}`, type: 'value_error' }]);
    const problem = answerProblem(field, a.value);
    if (problem) throw HttpError.validation([{ loc: ['body', 'answers', String(i), 'value'], msg: `${field.name}: ${problem}`, type: 'value_error' }]);
    return {
      project_id: queue.project_id, feedback_type: annotationFeedbackType(field.name), payload: { value: a.value },
      svc_ref: `svc:///${queue.project_id}/call/${callId}`, annotation_ref: field.ref, queue_id: queue.id, creator: body.reviewer,
    };
  });
}

/**
 * Answers an item (see the module comment).
 * @throws HttpError 404 for an unknown item, 409 for one another reviewer holds or finished, 422 for a bad answer.
 */
export async function answerItem(stores: AnswerStores, queue: Queue, body: z.output<typeof QueueAnswerReq>, now: () => Date): Promise<AnswerRes> {
  const [current] = await stores.queues.items(queue, { limit: 1, offset: 0, id: body.item_id });
  if (!current) throw new HttpError(404, `no item ${body.item_id} in queue ${queue.name}`);
  const items = await feedbackItems(stores, queue, body, current.call_id);
  const before = await stores.queues.finish(queue, body.item_id, { status: 'done', reviewer: body.reviewer }, now());
  if (!before) throw new HttpError(409, `item ${body.item_id} is held or was finished by another reviewer`);
  let feedback: FeedbackCreateRes[];
  try {
    feedback = await stores.feedback.createBatch(items, now);
  } catch (err) {
    await stores.queues.reopen(queue, before);
    throw err;
  }
  if (before.status === 'done' && before.reviewer === body.reviewer) {
    const fresh = new Set(feedback.map((f) => f.id));
    const earlier = (await stores.feedback.forQueue(queue.project_id, queue.id))
      .filter((f) => f.call_id === current.call_id && f.creator === body.reviewer && !fresh.has(f.id)).map((f) => f.id);
    if (earlier.length > 0) await stores.feedback.purge(queue.project_id, earlier);
  }
  const [item] = await stores.queues.items(queue, { limit: 1, offset: 0, id: body.item_id });
  return { item: item!, feedback };
}
