/**
 * `POST /weft/annotation_fields/{create,list}` and `POST /weft/queues/{create,list,read,add,next,answer,skip,items,
 * answers,fill}` (weft extensions, issue 50): annotation fields and review queues, validated with zod (422
 * `{detail:[{loc, msg, type}]}`), stored by the queue and object stores of either engine.
 * @module
 */
import { Hono } from 'hono';
import {
  FieldCreateReq, FieldListReq, QueueAddReq, QueueAnswerReq, QueueAnswersReq, QueueCreateReq, QueueFillReq, QueueItemsReq,
  QueueListReq, QueueNextReq, QueueReadReq, QueueSkipReq, REVIEW_PATHS,
} from 'weft-trace/wire';
import { HttpError } from '../http/http-error.js';
import { postJson } from '../http/request-body.js';
import type { ObjectStore } from '../objects/object-store.js';
import { createField, listFields, resolveFields } from './annotation-fields.js';
import { answerItem } from './queue-answer.js';
import { type FillStores, fillQueues } from './queue-fill.js';
import { itemsToAdd } from './queue-items.js';
import type { StoredQueue } from './queue-store.js';

/** What the queue routes read and write. */
export interface QueueRouteStores extends FillStores {
  objects: ObjectStore;
}

/**
 * Builds the routes:
 * - `annotation_fields/create` → the field `{name, type, description, ..., ref, digest, version_index}`;
 *   `annotation_fields/list` → `{fields}` (the latest version of each).
 * - `queues/create` → the queue (409 when the project has one of that name; 422 for a field ref that is no field or a
 *   monitor that does not exist);
 *   `queues/list` → `{queues}` (each with `progress`); `queues/read` (by id or name) → `{queue, fields, progress}`.
 * - `queues/add` → `{added}` (items already in the queue are not added again).
 * - `queues/next` → `{item}` (null when none is free): the reviewer's held item, else the oldest free one, taken for
 *   `claim_seconds`.
 * - `queues/answer` → `{item, feedback}` (see queue-answer.ts); `queues/skip` → `{item}` (409 when another holds it).
 * - `queues/items` → `{items}`; `queues/answers` → `{answers}` (the feedback given through the queue).
 * - `queues/fill` → `{added}`: the dynamic and monitor fill of the project's queues, now.
 * Unknown queues and items answer 404 `{detail}`.
 */
export function queueRoutes(stores: QueueRouteStores, now: () => Date): Hono {
  const { queues, objects, feedback } = stores;
  const app = new Hono();
  const queueOf = async (projectId: string, idOrName: string): Promise<StoredQueue> => {
    const queue = await queues.read(projectId, idOrName);
    if (!queue) throw new HttpError(404, `no queue ${JSON.stringify(idOrName)} in project ${projectId}`);
    return queue;
  };
  postJson(app, REVIEW_PATHS.fieldCreate, FieldCreateReq, (body) => createField(objects, body, now()));
  postJson(app, REVIEW_PATHS.fieldList, FieldListReq, async (body) => ({ fields: await listFields(objects, body.project_id) }));
  postJson(app, REVIEW_PATHS.queueCreate, QueueCreateReq, async (body) => {
    await resolveFields(objects, body.project_id, body.fields, ['body', 'fields']);
    if (body.monitor && !(await stores.monitors.list(body.project_id)).some((m) => m.id === body.monitor!.monitor_id)) {
      throw HttpError.validation([{ loc: ['body', 'monitor', 'monitor_id'], msg: `no monitor ${body.monitor.monitor_id} in project ${body.project_id} (weft monitors ls)`, type: 'value_error' }]);
    }
    const queue = await queues.create(body, now());
    if (!queue) throw new HttpError(409, `project ${body.project_id} already has a queue named ${JSON.stringify(body.name)}`);
    return queue;
  });
  postJson(app, REVIEW_PATHS.queueList, QueueListReq, async (body) => {
    const list = await queues.list(body.project_id);
    return { queues: await Promise.all(list.map(async ({ cursor: _c, ...q }) => ({ ...q, progress: await queues.progress(q, now()) }))) };
  });
  postJson(app, REVIEW_PATHS.queueRead, QueueReadReq, async (body) => {
    const { cursor: _c, ...queue } = await queueOf(body.project_id, body.queue_id);
    return { queue, fields: await resolveFields(objects, queue.project_id, queue.fields, ['queue', 'fields']), progress: await queues.progress(queue, now()) };
  });
  postJson(app, REVIEW_PATHS.queueAdd, QueueAddReq, async (body) => {
    const queue = await queueOf(body.project_id, body.queue_id);
    return { added: await queues.addItems(queue, await itemsToAdd(stores.listCalls, queue, body), now()) };
  });
  postJson(app, REVIEW_PATHS.queueNext, QueueNextReq, async (body) => {
    const queue = await queueOf(body.project_id, body.queue_id);
    return { item: (await queues.claim(queue, { reviewer: body.reviewer, claimSeconds: body.claim_seconds }, now())) ?? null };
  });
  postJson(app, REVIEW_PATHS.queueAnswer, QueueAnswerReq, async (body) => answerItem(stores, await queueOf(body.project_id, body.queue_id), body, now));
  postJson(app, REVIEW_PATHS.queueSkip, QueueSkipReq, async (body) => {
    const queue = await queueOf(body.project_id, body.queue_id);
    const before = await queues.finish(queue, body.item_id, { status: 'skipped', reviewer: body.reviewer }, now());
    if (!before) {
      const [exists] = await queues.items(queue, { id: body.item_id, limit: 1, offset: 0 });
      throw exists ? new HttpError(409, `item ${body.item_id} is held or was finished by another reviewer`) : new HttpError(404, `no item ${body.item_id} in queue ${queue.name}`);
    }
    const [item] = await queues.items(queue, { id: body.item_id, limit: 1, offset: 0 });
    return { item };
  });
  postJson(app, REVIEW_PATHS.queueItems, QueueItemsReq, async (body) => ({ items: await queues.items(await queueOf(body.project_id, body.queue_id), body, now()) }));
  postJson(app, REVIEW_PATHS.queueAnswers, QueueAnswersReq, async (body) => {
    const queue = await queueOf(body.project_id, body.queue_id);
    return { answers: await feedback.forQueue(queue.project_id, queue.id) };
  });
  postJson(app, REVIEW_PATHS.queueFill, QueueFillReq, async (body) => ({ added: await fillQueues(stores, now(), body.project_id) }));
  return app;
}
