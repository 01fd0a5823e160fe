/**
 * Wire schemas of the call edits the Weave SDKs use (Weave SDK compatibility, not in the interface spec): call/update and calls/delete.
 * @module
 */
import { z } from 'zod';
import { ProjectId } from './project-id.js';

/** Call ids of one `/calls/delete` body, at most (the Weave server's limit). */
export const MAX_DELETE_IDS = 1_000;

/**
 * Body of `POST /call/update`: sets `display_name` of a started call (e.g. weave's `call.setDisplayName()`
 * after the call ended). `wb_user_id` is accepted and ignored.
 */
export const CallUpdateReq = z.object({
  project_id: ProjectId,
  call_id: z.string().min(1, 'call_id must not be empty'),
  display_name: z.string().nullish(),
  wb_user_id: z.string().nullish(),
});
export type CallUpdateReq = z.input<typeof CallUpdateReq>;

/** Body of `POST /calls/delete`: the calls, each deleted with all its descendants. `wb_user_id` is accepted and ignored. */
export const CallsDeleteReq = z.object({
  project_id: ProjectId,
  call_ids: z.array(z.string().min(1)).max(MAX_DELETE_IDS, `at most ${MAX_DELETE_IDS} call_ids`),
  wb_user_id: z.string().nullish(),
});
export type CallsDeleteReq = z.input<typeof CallsDeleteReq>;
