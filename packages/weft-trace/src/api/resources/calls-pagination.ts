/**
 * Auto-pagination of stream_query: pages of `pageSize` records, each record yielded exactly once.
 * @module
 */
import type { z } from 'zod';
import { ConfigError } from '../../errors.js';
import { q } from './query-builder.js';
import type { CallsQueryReq, PartialCallRecord } from '../../schema/calls.js';
import type { Operation } from '../../schema/query.js';

/** A validated request (zod output), as the pager sends it page by page. */
type Request = z.output<typeof CallsQueryReq>;

/** Runs one page request and yields its records. */
export type PageReader = (req: Request) => AsyncIterable<PartialCallRecord>;

/** Options of `client.calls.iterate()`. */
export interface IterateOptions {
  /** Records requested per page (the `limit` of each request); an integer >= 1. @defaultValue 1000 */
  pageSize?: number;
}

/** Default records per page. */
export const DEFAULT_PAGE_SIZE = 1000;

/** The records after `last` in the default order (`started_at` asc, then `id` asc), index-friendly. */
function after(last: PartialCallRecord): Operation {
  const startedAt = q.field('started_at');
  return q.and(q.gte(startedAt, last.started_at ?? null), q.or(q.gt(startedAt, last.started_at ?? null), q.gt(q.field('id'), last.id)));
}

/**
 * Pages through a query. Without `sort_by` (the default order) pages continue after the last record
 * seen (keyset on `started_at`, `id`), so calls written meanwhile never shift a page: no record comes
 * twice, and none stored before the iteration began is skipped. With `sort_by`, pages use limit/offset
 * and ids of the previous page are skipped, so a record shifted onto the next page by rows written
 * mid-iteration does not come twice (rows written mid-iteration may also shift one past a page boundary). `limit` caps the total; `offset` skips records first.
 *
 * @param req - the validated request.
 * @param read - runs one page.
 * @param options - page size.
 * @throws ConfigError when `pageSize` is not an integer >= 1 (when iteration starts).
 */
export async function* paginate(req: Request, read: PageReader, options: IterateOptions = {}): AsyncGenerator<PartialCallRecord> {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw new ConfigError(`pageSize: expected an integer >= 1, got ${String(pageSize)} (${typeof pageSize})`);
  }
  const keyset = !req.sort_by || req.sort_by.length === 0;
  // the keyset reads started_at, which a server answers whatever `columns` says (as Weave's does); asked for all the same
  const columns = keyset && req.columns && !req.columns.includes('started_at') ? [...req.columns, 'started_at'] : req.columns;
  let remaining = req.limit ?? Infinity;
  let offset = req.offset ?? 0;
  let last: PartialCallRecord | undefined;
  // With offsets, a row written mid-iteration shifts the rest by one, so a record may come again at the
  // top of the next page; ids of the last and the current page are enough to skip it (memory stays O(pageSize)).
  let previousPage = new Set<string>();
  while (remaining > 0) {
    const page = new Set<string>();
    const limit = Math.min(pageSize, remaining);
    const where = keyset && last ? after(last) : undefined;
    const query = where ? { $expr: req.query ? q.and(req.query.$expr, where) : where } : req.query;
    let got = 0;
    for await (const record of read({ ...req, columns, query, limit, offset })) {
      got++;
      last = record;
      if (!keyset) {
        if (previousPage.has(record.id) || page.has(record.id)) continue;
        page.add(record.id);
      }
      remaining--;
      yield record;
    }
    if (got < limit) return;
    offset = keyset ? 0 : offset + got;
    previousPage = page;
  }
}
