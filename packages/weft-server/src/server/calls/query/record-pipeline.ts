/**
 * Turns pages of stored call records into answered records: ref expansion, the `include_*` additions
 * and the `columns` projection of a stream query (spec endpoint 3, rules 1-4).
 * @module
 */
import type { FeedbackRecord } from 'weft-trace/wire';
import { compileColumns, parseColumns, type WireRecord } from './columns.js';
import { expandRefs } from './expand.js';
import { markDescendantErrors } from './descendant-errors.js';
import { addWeaveSummary } from './weave-summary.js';
import type { ObjectKey } from '../../objects/object-vals.js';
import { costsOf } from '../prices/prices.js';
import type { PriceTable } from '../prices/price-table.js';
import type { CallsQuery } from './query-sql.js';
import type { StoredCallRecord } from './records.js';
import { andThen, type MaybePromise } from '../../db/store-api.js';

/** What the pipeline reads besides the records: lookups the store answers (SQLite: values; PostgreSQL: Promises), and the prices. */
export interface PipelineDeps {
  /** Model prices for `include_costs`. */
  prices: PriceTable;
  /** Names of the user ids the users table knows (`include_usernames`). */
  usernames(ids: readonly string[]): MaybePromise<Map<string, string>>;
  /** Feedback about calls of one project, by call id, oldest first (`include_feedback`). */
  feedbackFor(projectId: string, callIds: readonly string[]): MaybePromise<Map<string, FeedbackRecord[]>>;
  /** Started calls of one project with the given ids (`expand_columns`). */
  callsById(projectId: string, ids: readonly string[]): MaybePromise<StoredCallRecord[]>;
  /** Object values of one project by `<object_id>:<digest>` (`expand_columns`; objects/object-vals.ts). */
  objectVals(projectId: string, keys: readonly ObjectKey[]): MaybePromise<Map<string, unknown>>;
  /** Values of rows of one table by row digest (`expand_columns`, a ref through a dataset's rows). */
  tableRows(projectId: string, digest: string, rowDigests: readonly string[]): MaybePromise<Map<string, unknown>>;
  /** Which of the given calls have a stored descendant with an exception (derived `descendant_error`). */
  descendantFailed(projectId: string, ids: readonly string[]): MaybePromise<Set<string>>;
}

/** Maps one page of records to the answered records: at once over values, later over Promises. */
export type RecordPipeline = (page: StoredCallRecord[]) => MaybePromise<WireRecord[]>;

/** The records of a page as `columns` projects them (`project`), with their `include_*` additions. */
function withAdditions(
  q: CallsQuery, deps: PipelineDeps, page: readonly StoredCallRecord[], project: ReturnType<typeof compileColumns>,
): MaybePromise<WireRecord[]> {
  const users = q.include_usernames ? deps.usernames(page.flatMap((r) => r.svc_user_id || [])) : undefined;
  return andThen(users, (names) =>
    andThen(q.include_feedback ? deps.feedbackFor(q.project_id, page.map((r) => r.id)) : undefined, (feedback) =>
      page.map((r) => {
        const top: WireRecord = {};
        if (q.include_storage_size) top['storage_size_bytes'] = r.storage_size_bytes ?? 0;
        if (q.include_total_storage_size) top['total_storage_size_bytes'] = r.total_storage_size_bytes ?? 0;
        if (names) top['svc_user_name'] = (r.svc_user_id && names.get(r.svc_user_id)) ?? null;
        const out = project ? project(r as WireRecord) : (r as WireRecord);
        const summary: WireRecord = {};
        if (q.include_costs) {
          // as Weave: no `costs` key when no model of the call's usage has a price
          const costs = costsOf(r.summary['usage'], deps.prices);
          if (Object.keys(costs).length > 0) summary['costs'] = costs;
        }
        if (feedback) summary['feedback'] = feedback.get(r.id) ?? [];
        if (Object.keys(summary).length > 0) out['summary'] = { ...(out['summary'] as WireRecord | undefined), ...summary };
        if (q.include_storage_size || q.include_total_storage_size) {
          // Re-added last from `top`, so they come after the record's own keys and survive `columns`.
          delete out['storage_size_bytes'];
          delete out['total_storage_size_bytes'];
        }
        return Object.assign(out, top);
      })));
}

/**
 * Builds the pipeline of a query. Answered records add, when asked:
 * `summary.costs` (model → cost in USD, see `costsOf`), `summary.feedback` (the call's feedback records,
 * oldest first), `storage_size_bytes`, `total_storage_size_bytes` and `svc_user_name` (null when the
 * users table does not know `svc_user_id`). These additions are kept whatever `columns` says.
 * With `expand_columns` and `return_expanded_column_values` not false, call and object refs in those columns are
 * replaced by call records and object values (expand.ts); with it false the refs are answered as stored. Every record's
 * `summary` gains `weave` (weave-summary.ts).
 *
 * @param q - the validated query.
 * @param deps - prices and the lookups of users, feedback, referenced calls, objects and table rows.
 * @returns the page mapper: synchronous over synchronous lookups (SQLite), else answering Promises (PostgreSQL).
 * @throws QueryError (→ 422) for an unknown column in `columns` or `expand_columns`.
 */
export function recordPipeline(q: CallsQuery, deps: PipelineDeps): RecordPipeline {
  const project = compileColumns(q);
  const expand = q.expand_columns ? parseColumns(q.expand_columns, ['expand_columns']) : [];
  const expanding = expand.length > 0 && q.return_expanded_column_values !== false;
  const adding = Boolean(q.include_costs || q.include_feedback || q.include_usernames || q.include_storage_size || q.include_total_storage_size);
  // the calls of this answer found without a failed descendant, so their descendants in later pages are not walked again
  const clean = new Set<string>();
  return function answer(page) {
    const records = page as unknown as WireRecord[];
    const expanded = andThen(markDescendantErrors(q.project_id, page, deps.descendantFailed, clean), () => {
      addWeaveSummary(page);
      return expanding ? expandRefs(deps, records, expand) : undefined;
    });
    if (!adding) return andThen(expanded, () => (project ? records.map(project) : records));
    return andThen(expanded, () => withAdditions(q, deps, page, project));
  };
}
