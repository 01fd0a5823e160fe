/**
 * What the server, the CLI and the viewer share about annotation fields and review queues, zod-free (the viewer
 * imports it): the routes' paths, the shapes of a field and an item, the feedback type an answer is stored under and
 * the check of an answer's value against its field.
 * @module
 */

/** Paths of the annotation field and review queue routes (POST, JSON bodies; weft extensions). */
export const REVIEW_PATHS = {
  fieldCreate: '/weft/annotation_fields/create',
  fieldList: '/weft/annotation_fields/list',
  queueCreate: '/weft/queues/create',
  queueList: '/weft/queues/list',
  queueRead: '/weft/queues/read',
  queueAdd: '/weft/queues/add',
  queueNext: '/weft/queues/next',
  queueAnswer: '/weft/queues/answer',
  queueSkip: '/weft/queues/skip',
  queueItems: '/weft/queues/items',
  queueAnswers: '/weft/queues/answers',
  queueFill: '/weft/queues/fill',
} as const;

/** The kinds of annotation field: thumbs (up / down), score (min, max, step), category (labels), text, preference (of a pair). */
export const FIELD_TYPES = ['thumbs', 'score', 'category', 'text', 'preference'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** The `base_object_class` (and leaf) an annotation field's versions are stored under, as Weave files its annotation specs. */
export const ANNOTATION_SPEC_CLASS = 'AnnotationSpec';

/** An annotation field as stored (the value of one version of object `<name>`). */
export interface AnnotationFieldSpec {
  name: string;
  type: FieldType;
  /** Shown to reviewers beside the field. */
  description: string;
  /** score: the lowest value, inclusive. */
  min?: number;
  /** score: the highest value, inclusive. */
  max?: number;
  /** score: values are `min + k * step`. */
  step?: number;
  /** category: the fixed labels. */
  labels?: string[];
  /** category: several labels may be chosen (the answer is then a list). */
  multiple?: boolean;
}

/** A field as the list route answers it: its spec, its ref (`svc:///<project>/object/<name>:<digest>`) and version. */
export interface AnnotationField extends AnnotationFieldSpec {
  ref: string;
  digest: string;
  version_index: number;
}

/** Status of a queue item: `taken` has a reviewer and an expiry (once past, it is pending again). */
export const ITEM_STATUSES = ['pending', 'taken', 'done', 'skipped'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

/** One item of a queue: the call its answers land on (and for a pair, the other call), with its state. */
export interface QueueItem {
  id: string;
  queue_id: string;
  project_id: string;
  call_id: string;
  /** A pair's second call (answers of its preference field still land on `call_id`). */
  other_call_id: string | null;
  trace_id: string | null;
  thread_id: string | null;
  status: ItemStatus;
  reviewer: string | null;
  claim_expires_at: string | null;
  done_at: string | null;
  added_at: string;
}

/** A queue's progress: items by status (an expired claim counts as pending) and each reviewer's done and skipped. */
export interface QueueProgress {
  total: number;
  pending: number;
  taken: number;
  done: number;
  skipped: number;
  reviewers: Record<string, { done: number; skipped: number }>;
}

/** The feedback type of an answer to field `name`: `wandb.annotation.<name>`, as Weave stores annotations. */
export function annotationFeedbackType(name: string): string {
  return `wandb.annotation.${name}`;
}

/** The object ref of a field version: `svc:///<project>/object/<name>:<digest>` (spec "Reference strings"). */
export function fieldRef(projectId: string, name: string, digest: string): string {
  return `svc:///${projectId}/object/${name}:${digest}`;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Why `value` is no answer to a score field, or null. */
function scoreProblem(field: AnnotationFieldSpec, value: unknown): string | null {
  const { min = 0, max = 1, step } = field;
  if (!isNumber(value) || value < min || value > max) return `expected a number from ${min} to ${max}, got ${JSON.stringify(value)}`;
  if (step !== undefined && step > 0) {
    const k = (value - min) / step;
    if (Math.abs(k - Math.round(k)) > 1e-9) return `expected ${min} plus a multiple of ${step}, got ${value}`;
  }
  return null;
}

/** Why `value` is no answer to a category field, or null. */
function categoryProblem(field: AnnotationFieldSpec, value: unknown): string | null {
  const labels = field.labels ?? [];
  const one = (v: unknown): boolean => typeof v === 'string' && labels.includes(v);
  if (!field.multiple) return one(value) ? null : `expected one of ${labels.map((l) => JSON.stringify(l)).join(', ')}, got ${JSON.stringify(value)}`;
  const ok = Array.isArray(value) && value.every(one) && new Set(value).size === value.length;
  return ok ? null : `expected a list of distinct labels among ${labels.map((l) => JSON.stringify(l)).join(', ')}, got ${JSON.stringify(value)}`;
}

/** Longest text answer, in characters. */
export const MAX_TEXT_ANSWER = 10_000;

/**
 * Why `value` is no answer to `field`, or null when it is one: thumbs take `true` (up) or `false` (down); scores a
 * number in `[min, max]` on the step; categories a label (or, `multiple`, a list of distinct labels); text a string of
 * at most {@link MAX_TEXT_ANSWER} characters; a preference `"a"`, `"b"` or `"tie"`.
 */
export function answerProblem(field: AnnotationFieldSpec, value: unknown): string | null {
  switch (field.type) {
    case 'thumbs':
      return typeof value === 'boolean' ? null : `expected true (up) or false (down), got ${JSON.stringify(value)}`;
    case 'score':
      return scoreProblem(field, value);
    case 'category':
      return categoryProblem(field, value);
    case 'text':
      return typeof value === 'string' && value.length <= MAX_TEXT_ANSWER ? null : `expected a string of at most ${MAX_TEXT_ANSWER} characters`;
    case 'preference':
      return value === 'a' || value === 'b' || value === 'tie' ? null : `expected "a", "b" or "tie", got ${JSON.stringify(value)}`;
  }
}
