// @weft-test: postgres
// client().tables: requests validated before sending, answers parsed, wire names and path kept; against real servers.
import { describe, expect, it } from 'vitest';
import { APIError, Client, RequestValidationError } from '../../../src/index.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { useTestClient } from 'weft-test-kit/client.js';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { startCannedServer } from 'weft-test-kit/canned-server.js';

const server = useTestServer();
const client = useTestClient(server);

describe('client().tables', () => {
  it('create() then query() round-trips rows with their digests and original_index', async () => {
    const project = uniqueProject('api-tables');
    const rows = [{ q: 'a', score: 2 }, { q: 'b', score: 1 }];
    const created = await client().tables.create({ project_id: project, rows });
    const { rows: got } = await client().tables.query({ project_id: project, digest: created.digest, sort_by: [{ field: 'score' }] });
    expect(got).toEqual([
      { digest: created.row_digests[1], val: rows[1], original_index: 1 },
      { digest: created.row_digests[0], val: rows[0], original_index: 0 },
    ]);
  });

  it('refuses invalid requests before sending, with a detail per problem', async () => {
    const canned = await startCannedServer({ rows: [] });
    const c = new Client({ baseUrl: canned.url, maxRetries: 0 });
    try {
      const bad: [() => Promise<unknown>, string][] = [
        [() => c.tables.query({ project_id: '', digest: 'd' }), 'project_id'],
        [() => c.tables.query({ project_id: 'a/b', digest: 'd', limit: -1 }), 'limit'],
        [() => c.tables.query({ project_id: 'a/b', digest: 'd', sort_by: [{ field: 'x', order: 'sideways' as 'asc' }] }), 'sort_by.0.order'],
        [() => c.tables.create({ project_id: 'a/b', rows: [{ n: Number.NaN }] }), 'rows.0'],
        [() => c.tables.create({ project_id: 'a/b', rows: [undefined as never] }), 'rows.0'],
      ];
      for (const [call, loc] of bad) {
        const err = await call().catch((e: unknown) => e);
        expect(err, loc).toBeInstanceOf(RequestValidationError);
        expect((err as RequestValidationError).detail.map((d) => d.loc.join('.')).some((l) => l.startsWith(loc)), loc).toBe(true);
      }
      expect(canned.seen).toHaveLength(0);
    } finally {
      await c.close();
      await canned.close();
    }
  });

  it('sends wire names to the spec path and refuses an answer of the wrong shape', async () => {
    const canned = await startCannedServer({ rows: 'not a list' });
    const c = new Client({ baseUrl: canned.url, maxRetries: 0 });
    try {
      const err = await c.tables.query({ project_id: 'a/b', digest: 'd', filter: { row_digests: ['r'] }, sort_by: [{ field: 'x.y', order: 'desc' }] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(APIError);
      expect(String(err)).toMatch(/unexpected response shape from \/table\/query/);
      expect(canned.seen[0]).toMatchObject({ method: 'POST', url: '/table/query' });
      expect(JSON.parse(canned.seen[0]!.body)).toEqual({ project_id: 'a/b', digest: 'd', filter: { row_digests: ['r'] }, sort_by: [{ field: 'x.y', order: 'desc' }] });
    } finally {
      await c.close();
      await canned.close();
    }
  });

  it('answers no rows for an unknown table, as Weave', async () => {
    expect(await client().tables.query({ project_id: uniqueProject('none'), digest: 'missing' })).toEqual({ rows: [] });
  });
});
