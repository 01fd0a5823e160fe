/**
 * Table wire schemas: query rows by digest (spec endpoint 8) and the local create extension.
 * @module
 */
import { z } from 'zod';
import { ProjectId, SortBy } from './common.js';

/** Spec "TableRowFilter". */
export const TableRowFilter = z.object({ row_digests: z.array(z.string()).nullish() });
export type TableRowFilter = z.input<typeof TableRowFilter>;

/** Body of `POST /table/query`. */
export const TableQueryReq = z.object({
  project_id: ProjectId,
  digest: z.string().min(1),
  filter: TableRowFilter.nullish(),
  limit: z.number().int().min(0).nullish(),
  offset: z.number().int().min(0).nullish(),
  sort_by: z.array(SortBy).nullish(),
});
export type TableQueryReq = z.input<typeof TableQueryReq>;

/** Spec "TableRowSchema". */
export const TableRowSchema = z.looseObject({
  digest: z.string(),
  val: z.unknown(),
  original_index: z.number().int().optional(),
});
export type TableRowSchema = z.infer<typeof TableRowSchema>;

/** Answer of `POST /table/query`. */
export const TableQueryRes = z.looseObject({ rows: z.array(TableRowSchema) });
export type TableQueryRes = z.infer<typeof TableQueryRes>;

/** Body of `POST /table/create`: an extension of the local server, not part of the spec. */
export const TableCreateReq = z.object({ project_id: ProjectId, rows: z.array(z.unknown()) });
export type TableCreateReq = z.input<typeof TableCreateReq>;

/** Answer of `POST /table/create` (extension). */
export const TableCreateRes = z.looseObject({ digest: z.string(), row_digests: z.array(z.string()) });
export type TableCreateRes = z.infer<typeof TableCreateRes>;
