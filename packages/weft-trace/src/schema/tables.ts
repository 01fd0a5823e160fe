/**
 * Table wire schemas: query rows by digest (spec endpoint 8) and the local create extension.
 * @module
 */
import { z } from 'zod';
import { SortByList } from './common.js';
import { ProjectId } from './project-id.js';

/** Spec "TableRowFilter": only rows whose digest is listed; another key is a 422 naming it. */
export const TableRowFilter = z.strictObject({ row_digests: z.array(z.string()).nullish() });
export type TableRowFilter = z.input<typeof TableRowFilter>;

/**
 * Body of `POST /table/query` (spec endpoint 8). `sort_by[].field` is a dotted path into each row's `val`
 * (`score`, `inputs.question`, `choices.0.text`, `usage."gpt-4.1".tokens` with a quoted segment holding dots);
 * `limit` absent means all rows, `offset` absent means 0.
 */
export const TableQueryReq = z.object({
  project_id: ProjectId,
  digest: z.string().min(1),
  filter: TableRowFilter.nullish(),
  limit: z.number().int().min(0).nullish(),
  offset: z.number().int().min(0).nullish(),
  sort_by: SortByList,
});
export type TableQueryReq = z.input<typeof TableQueryReq>;

/** Spec "TableRowSchema": the row's digest, its value, and its 0-based position in the table as created. */
export const TableRowSchema = z.looseObject({
  digest: z.string(),
  val: z.unknown(),
  original_index: z.number().int().optional(),
});
export type TableRowSchema = z.infer<typeof TableRowSchema>;

/** Answer of `POST /table/query`. */
export const TableQueryRes = z.looseObject({ rows: z.array(TableRowSchema) });
export type TableQueryRes = z.infer<typeof TableQueryRes>;

/**
 * Body of `POST /table/create`: an extension of the local server, not part of the spec. `rows` are any
 * JSON values (objects usually), in order; `undefined`, `NaN`, `Infinity`, functions and the like are refused
 * at runtime (the input type is `unknown[]`, so rows typed with optional fields need no cast).
 */
export const TableCreateReq = z.object({ project_id: ProjectId, rows: z.array(z.unknown().pipe(z.json())) });
export type TableCreateReq = z.input<typeof TableCreateReq>;

/**
 * Body of `POST /table/create` in the Weave SDK's shape (Weave SDK compatibility, not in the interface spec):
 * `{table: {project_id, rows}}`, the same fields one level down. Answered like {@link TableCreateReq}.
 */
export const WeaveTableCreateReq = z.object({ table: TableCreateReq });
export type WeaveTableCreateReq = z.input<typeof WeaveTableCreateReq>;

/** Answer of `POST /table/create` (extension): the table digest and one row digest per row, in order. */
export const TableCreateRes = z.looseObject({ digest: z.string(), row_digests: z.array(z.string()) });
export type TableCreateRes = z.infer<typeof TableCreateRes>;
