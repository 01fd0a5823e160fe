/**
 * Object and file wire schemas of the Weave SDK compatibility endpoints (not in the interface spec): obj/create, obj/read, objs/query, file/create, file/content.
 * @module
 */
import { z } from 'zod';
import { SortByList } from './common.js';
import { ProjectId } from './project-id.js';

/** An object id as the Weave server takes it: 1-128 characters of letters, digits, `-`, `_` and `.`. */
export const ObjectId = z
  .string()
  .min(1, 'object_id must not be empty')
  .max(128, 'object_id must be at most 128 characters')
  .regex(/^[\w.-]+$/, 'object_id may hold only letters, digits, "-", "_" and "."');

/** `obj` of `POST /obj/create`: the value to store as a new version of `object_id` (any JSON value). */
export const ObjSchemaForInsert = z.object({
  project_id: ProjectId,
  object_id: ObjectId,
  val: z.unknown().pipe(z.json()),
  builtin_object_class: z.string().nullish(),
  wb_user_id: z.string().nullish(),
});
export type ObjSchemaForInsert = z.input<typeof ObjSchemaForInsert>;

/** Body of `POST /obj/create` (Weave SDK compatibility). */
export const ObjCreateReq = z.object({ obj: ObjSchemaForInsert });
export type ObjCreateReq = z.input<typeof ObjCreateReq>;

/** Answer of `POST /obj/create`: the version's digest (same value, same digest). */
export const ObjCreateRes = z.looseObject({ digest: z.string() });
export type ObjCreateRes = z.infer<typeof ObjCreateRes>;

/** Body of `POST /obj/read`: `digest` is a version's digest, `latest`, or `v<N>` (version index N). */
export const ObjReadReq = z.object({
  project_id: ProjectId,
  object_id: ObjectId,
  digest: z.string().min(1, 'digest must not be empty'),
});
export type ObjReadReq = z.input<typeof ObjReadReq>;

/**
 * One stored object version (Weave's "ObjSchema"): `created_at` ISO 8601 UTC, `version_index` 0-based per
 * `object_id`, `is_latest` 1 for the newest version else 0, `kind` `op` for ops (a `CustomWeaveType` of type
 * `Op`) else `object`, `base_object_class` from the value's `_class_name` / `_bases` (null for plain values).
 */
export const ObjSchema = z.looseObject({
  project_id: z.string(),
  object_id: z.string(),
  created_at: z.string(),
  deleted_at: z.string().nullable(),
  digest: z.string(),
  version_index: z.number().int(),
  is_latest: z.number().int(),
  kind: z.enum(['op', 'object']),
  base_object_class: z.string().nullable(),
  leaf_object_class: z.string().nullable(),
  val: z.unknown(),
  size_bytes: z.number().int(),
});
export type ObjSchema = z.infer<typeof ObjSchema>;

/** Answer of `POST /obj/read`. */
export const ObjReadRes = z.looseObject({ obj: ObjSchema });
export type ObjReadRes = z.infer<typeof ObjReadRes>;

/** `filter` of `POST /objs/query`: every given condition must hold. */
export const ObjectVersionFilter = z.object({
  object_ids: z.array(z.string()).nullish(),
  base_object_classes: z.array(z.string()).nullish(),
  leaf_object_classes: z.array(z.string()).nullish(),
  is_op: z.boolean().nullish(),
  latest_only: z.boolean().nullish(),
});
export type ObjectVersionFilter = z.input<typeof ObjectVersionFilter>;

/**
 * Body of `POST /objs/query`. `sort_by` fields: `object_id`, `created_at`, `version_index`; without it, oldest
 * first. `metadata_only` leaves `val` out (answered as `{}`). `limit` absent: all.
 */
export const ObjQueryReq = z.object({
  project_id: ProjectId,
  filter: ObjectVersionFilter.nullish(),
  limit: z.number().int().min(0).nullish(),
  offset: z.number().int().min(0).nullish(),
  sort_by: SortByList,
  metadata_only: z.boolean().nullish(),
});
export type ObjQueryReq = z.input<typeof ObjQueryReq>;

/** Answer of `POST /objs/query`. */
export const ObjQueryRes = z.looseObject({ objs: z.array(ObjSchema) });
export type ObjQueryRes = z.infer<typeof ObjQueryRes>;

/** The text fields of the `POST /file/create` multipart form (the `file` part is checked by the route). */
export const FileCreateForm = z.object({ project_id: ProjectId });

/** Answer of `POST /file/create`: the content digest (sha256, base64url with `-`→`X`, `_`→`Y`, no `=`). */
export const FileCreateRes = z.looseObject({ digest: z.string() });
export type FileCreateRes = z.infer<typeof FileCreateRes>;

/** Body of `POST /file/content`: answered with the stored bytes (`application/octet-stream`). */
export const FileContentReq = z.object({ project_id: ProjectId, digest: z.string().min(1, 'digest must not be empty') });
export type FileContentReq = z.input<typeof FileContentReq>;
