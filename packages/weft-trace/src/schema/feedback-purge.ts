/**
 * `POST /feedback/purge` (Weave SDK compatibility, not in the interface spec): delete feedback by id. The body is
 * Weave's `FeedbackPurgeReq`, `{project_id, query}`, and as in Weave the query may only name ids: one
 * `{$eq: [{$getField: "id"}, {$literal: "<id>"}]}` or an `$or` of them.
 * @module
 */
import { z } from 'zod';

const idEq = z.object({
  $eq: z.tuple([z.object({ $getField: z.literal('id') }).strict(), z.object({ $literal: z.string().min(1) }).strict()]),
}).strict();

/** The body: a project and an id query. */
export const FeedbackPurgeReq = z.object({
  project_id: z.string().min(1),
  query: z.object({
    $expr: z.union([idEq, z.object({ $or: z.array(idEq).min(1) }).strict()], {
      error: 'can only purge by one or more feedback ids: {$eq: [{$getField: "id"}, {$literal: id}]} or an $or of them',
    }),
  }).strict(),
});
export type FeedbackPurgeReq = z.output<typeof FeedbackPurgeReq>;

/** The ids a validated purge query names. */
export function purgeIds(req: FeedbackPurgeReq): string[] {
  const e = req.query.$expr;
  return ('$or' in e ? e.$or : [e]).map((x) => x.$eq[1].$literal);
}
