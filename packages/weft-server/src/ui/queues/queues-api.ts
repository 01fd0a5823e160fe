/**
 * The Queues page's client of the review routes (`/weft/queues/*`, `/weft/annotation_fields/*`, weft extensions) and
 * the reviewer name this browser answers as (the feedback panel's creator name).
 * @module
 */
import { type AnnotationField, type Queue, type QueueItem, type QueueProgress, REVIEW_PATHS } from 'weft-trace/viewer';
import { request } from '../api';

export type QueueWithProgress = Queue & { progress: QueueProgress };
/** A queue as `queues/read` answers it. */
export interface QueueView {
  queue: Queue;
  fields: (AnnotationField & { ref: string })[];
  progress: QueueProgress;
}

const post = async <T>(path: string, body: unknown): Promise<T> => (await (await request(path, body)).json()) as T;

export const listQueues = async (project: string): Promise<QueueWithProgress[]> => (await post<{ queues: QueueWithProgress[] }>(REVIEW_PATHS.queueList, { project_id: project })).queues;
export const readQueue = (project: string, queue: string): Promise<QueueView> => post(REVIEW_PATHS.queueRead, { project_id: project, queue_id: queue });
export const nextItem = async (project: string, queue: string, reviewer: string): Promise<QueueItem | null> =>
  (await post<{ item: QueueItem | null }>(REVIEW_PATHS.queueNext, { project_id: project, queue_id: queue, reviewer })).item;
/** The items this reviewer finished, oldest added first. */
export const finishedBy = async (project: string, queue: string, reviewer: string): Promise<QueueItem[]> =>
  (await post<{ items: QueueItem[] }>(REVIEW_PATHS.queueItems, { project_id: project, queue_id: queue, reviewer, limit: 10_000 })).items.filter((i) => i.status === 'done' || i.status === 'skipped');
export const answerItem = (project: string, queue: string, item: string, reviewer: string, answers: { field_ref: string; value: unknown }[]): Promise<unknown> =>
  post(REVIEW_PATHS.queueAnswer, { project_id: project, queue_id: queue, item_id: item, reviewer, answers });
export const skipItem = (project: string, queue: string, item: string, reviewer: string): Promise<unknown> =>
  post(REVIEW_PATHS.queueSkip, { project_id: project, queue_id: queue, item_id: item, reviewer });
