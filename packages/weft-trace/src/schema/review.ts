/**
 * Annotation fields and review queues (weft extensions, not in the interface spec; issue 50): the zod schemas of the
 * `/weft/annotation_fields/*` and `/weft/queues/*` request bodies. Shapes of the answers: review-refs.ts.
 * @module
 */
import { z } from 'zod';
import { CallsFilter } from './calls.js';
import { ObjectRef } from './common.js';
import { ProjectId } from './project-id.js';
import { Query } from './query.js';
import { FIELD_TYPES, ITEM_STATUSES } from './review-refs.js';

/** A field or queue name: letters, digits, `_`, `-`, `.`, 1 to 128 of them (it becomes an object id and a feedback type). */
const Name = z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'expected 1 to 128 letters, digits, "_", "-" or "."');
const Id = z.string().min(1, 'must not be empty');
const Reviewer = z.string().trim().min(1, 'reviewer must not be empty').max(200);

/** Body of `annotation_fields/create`: a new version of field `name` (same spec, same digest: nothing new is stored). */
export const FieldCreateReq = z.strictObject({
  project_id: ProjectId,
  name: Name,
  type: z.enum(FIELD_TYPES),
  description: z.string().max(10_000).default(''),
  min: z.number().finite().optional(),
  max: z.number().finite().optional(),
  step: z.number().finite().positive('step must be above 0').optional(),
  labels: z.array(z.string().min(1).max(200)).min(1).max(100).optional(),
  multiple: z.boolean().optional(),
}).superRefine((f, ctx) => {
  if (f.type === 'category' && !f.labels) ctx.addIssue({ code: 'custom', path: ['labels'], message: 'a category field needs labels' });
  if (f.labels && new Set(f.labels).size !== f.labels.length) ctx.addIssue({ code: 'custom', path: ['labels'], message: 'labels must be distinct' });
  if (f.type === 'score' && (f.min ?? 0) >= (f.max ?? 1)) ctx.addIssue({ code: 'custom', path: ['max'], message: `max must be above min (${f.min ?? 0})` });
});
export type FieldCreateReq = z.input<typeof FieldCreateReq>;

/** Body of `annotation_fields/list`: the latest version of each field of a project. */
export const FieldListReq = z.strictObject({ project_id: ProjectId });

/** A dynamic queue's source: new calls matching a calls filter and query, a sampled fraction of them. */
const DynamicFill = z.strictObject({
  filter: CallsFilter.nullish(),
  query: Query.nullish(),
  /** Fraction of the matching calls added, in (0, 1], decided by the call id. */
  sample_rate: z.number().gt(0, 'sample_rate must be above 0').lte(1, 'sample_rate must be at most 1').default(1),
});

/** A monitor-fed queue's source: the calls a monitor scored below `threshold` (by its metric, `monitorMetric`). */
const MonitorFill = z.strictObject({ monitor_id: Id, threshold: z.number().finite() });

/** Body of `queues/create`. */
export const QueueCreateReq = z.strictObject({
  project_id: ProjectId,
  name: Name,
  instructions: z.string().max(100_000).default(''),
  /** The fields reviewers answer, by version ref (`svc:///<project>/object/<name>:<digest>`), in order. */
  fields: z.array(ObjectRef).min(1, 'a queue needs at least one field').max(50),
  /** What an item added by trace or thread id stands for; its answers land on the trace's root (the thread's last root). */
  scope: z.enum(['call', 'trace', 'thread']).default('call'),
  dynamic: DynamicFill.nullish(),
  monitor: MonitorFill.nullish(),
});
export type QueueCreateReq = z.input<typeof QueueCreateReq>;

/** A stored queue. */
export interface Queue {
  id: string;
  project_id: string;
  name: string;
  instructions: string;
  fields: string[];
  scope: 'call' | 'trace' | 'thread';
  dynamic: z.output<typeof DynamicFill> | null;
  monitor: z.output<typeof MonitorFill> | null;
  created_at: string;
}

/** Body of `queues/list`. */
export const QueueListReq = z.strictObject({ project_id: ProjectId });
/** Body of `queues/read`: a queue by id or name. */
export const QueueReadReq = z.strictObject({ project_id: ProjectId, queue_id: Id });

/** One item to add by hand: a call, a trace, a thread, or a pair of calls (`call_ids`, two of them). */
const ItemRef = z.union([
  z.strictObject({ call_id: Id }),
  z.strictObject({ trace_id: Id }),
  z.strictObject({ thread_id: Id }),
  z.strictObject({ call_ids: z.tuple([Id, Id]) }),
]);
export type ItemRef = z.output<typeof ItemRef>;

/** Body of `queues/add`: items by hand, and/or every call a filter and query match now (at most `limit`). */
export const QueueAddReq = z.strictObject({
  project_id: ProjectId,
  queue_id: Id,
  items: z.array(ItemRef).max(10_000).nullish(),
  filter: CallsFilter.nullish(),
  query: Query.nullish(),
  limit: z.number().int().min(1).max(100_000).default(10_000),
});

/** Body of `queues/next`: take the next item for `reviewer` for `claim_seconds` (default 600). */
export const QueueNextReq = z.strictObject({
  project_id: ProjectId,
  queue_id: Id,
  reviewer: Reviewer,
  claim_seconds: z.number().int().min(1).max(86_400).default(600),
});

/** Body of `queues/answer`: answers to the item's fields (by field ref), stored as feedback; the item is then done. */
export const QueueAnswerReq = z.strictObject({
  project_id: ProjectId,
  queue_id: Id,
  item_id: Id,
  reviewer: Reviewer,
  answers: z.array(z.strictObject({ field_ref: ObjectRef, value: z.unknown() })).min(1).max(50),
});

/** Body of `queues/skip`. */
export const QueueSkipReq = z.strictObject({ project_id: ProjectId, queue_id: Id, item_id: Id, reviewer: Reviewer });

/** Body of `queues/items`: a page of items, oldest added first; `reviewer` keeps those held, done or skipped by them. */
export const QueueItemsReq = z.strictObject({
  project_id: ProjectId,
  queue_id: Id,
  status: z.enum(ITEM_STATUSES).nullish(),
  reviewer: z.string().nullish(),
  limit: z.number().int().min(1).max(10_000).default(1000),
  offset: z.number().int().min(0).default(0),
});

/** Body of `queues/answers`: the feedback given through the queue, oldest first. */
export const QueueAnswersReq = z.strictObject({ project_id: ProjectId, queue_id: Id });
/** Body of `queues/fill`: runs the dynamic and monitor fill of a project's queues now. */
export const QueueFillReq = z.strictObject({ project_id: ProjectId });
