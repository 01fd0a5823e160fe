// @weft-test: postgres
// Property test of the batch writer: one batch stores exactly what its items applied one request at a time store
// (rows and refs); and the display_name rule that makes it hold (an end's name wins over its start's, whichever
// arrives first; a start without a name never clears one), checked over HTTP on the run's store (SQLite or PostgreSQL).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openStore, type Store, type UpsertItem } from '../../../src/server/index.js';
import { batchItems, namedIds } from 'weft-test-kit/batch-items.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { batch, end, endItem, type Json, post, query, start, startItem } from 'weft-test-kit/server-http.js';
import { storeParts } from '../../../src/server/server-store.js';

/** Rows, refs and answers, generated ids named by first appearance. */
function snapshot(store: Store, answers: unknown[]): string {
  const db = storeParts(store).sqlite!;
  return namedIds({
    calls: db.prepare('SELECT * FROM calls ORDER BY project_id, id').all(),
    refs: db.prepare('SELECT * FROM call_refs ORDER BY project_id, call_id, kind, ref').all(),
    answers,
  });
}

describe('upsertBatch', () => {
  it('stores what the same items store one at a time, in order (rows, refs, answers)', () => {
    fc.assert(
      fc.property(batchItems, batchItems, (before, items) => {
        const together = openStore(':memory:');
        const apart = openStore(':memory:');
        // the SQLite call store writes synchronously
        const write = (store: Store, batch: readonly UpsertItem[]) => storeParts(store).calls.upsertBatch(batch) as unknown[];
        try {
          write(together, before);
          write(apart, before);
          const a = write(together, items);
          const b = items.map((item) => write(apart, [item])[0]);
          expect(snapshot(together, a)).toBe(snapshot(apart, b));
        } finally {
          void together.close();
          void apart.close();
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('display_name of a call with a start and an end', () => {
  const server = useTestServer();
  let n = 0;

  /** Sends `steps` (each a batch of items, or a rename) for a fresh call and answers its stored display_name. */
  async function nameAfter(...steps: ((id: string) => Json[] | { rename: string | null })[]): Promise<unknown> {
    const id = `dn-${n++}`;
    for (const step of steps) {
      const s = step(id);
      if (Array.isArray(s)) await batch(server(), s);
      else expect((await post(server(), '/call/update', { project_id: start()['project_id'], call_id: id, display_name: s.rename })).status).toBe(200);
    }
    const [record] = await query(server(), { filter: { call_ids: [id] } });
    expect(record, 'the call is stored').toMatchObject({ id });
    return record!['display_name'];
  }
  const named = (name?: string) => (id: string): Json => startItem(start({ id, ...(name === undefined ? {} : { display_name: name }) }));
  const ended = (name?: string) => (id: string): Json => endItem(end(id, name === undefined ? {} : { display_name: name }));
  const items = (...fs: ((id: string) => Json)[]) => (id: string): Json[] => fs.map((f) => f(id));
  const rename = (name: string | null) => (): { rename: string | null } => ({ rename: name });

  it('an end named "renamed" then its start without a name: "renamed", in one batch and in two requests (the counterexample)', async () => {
    expect(await nameAfter(items(ended('renamed'), named()))).toBe('renamed');
    expect(await nameAfter(items(ended('renamed')), items(named()))).toBe('renamed');
  });

  it("an end's name wins over its start's, whichever arrives first, batched or not", async () => {
    expect(await nameAfter(items(named('shown'), ended('renamed')))).toBe('renamed');
    expect(await nameAfter(items(ended('renamed'), named('shown')))).toBe('renamed');
    expect(await nameAfter(items(named('shown')), items(ended('renamed')))).toBe('renamed');
    expect(await nameAfter(items(ended('renamed')), items(named('shown')))).toBe('renamed');
  });

  it('an end without a name keeps the start\'s; a repeated start without a name, or with another, keeps the name', async () => {
    expect(await nameAfter(items(ended()), items(named('shown')))).toBe('shown');
    expect(await nameAfter(items(named('shown')), items(ended()), items(named()))).toBe('shown');
    expect(await nameAfter(items(named('shown')), items(named('other')))).toBe('shown');
    expect(await nameAfter(items(named(), named('other')))).toBe('other');
    expect(await nameAfter(items(named()), items(ended()))).toBeNull();
  });

  it('the last named end wins; a rename replaces the name and a later start does not undo it', async () => {
    expect(await nameAfter(items(ended('first')), items(named('shown')), items(ended('renamed')))).toBe('renamed');
    expect(await nameAfter(items(named('shown'), ended('renamed')), rename('edited'), items(named('shown')))).toBe('edited');
    expect(await nameAfter(items(named('shown')), rename(null), items(ended()))).toBeNull();
    // a rename that arrives before its start waits for it, and wins over the start's and an earlier end's name
    expect(await nameAfter(items(ended('renamed')), rename('edited'), items(named('shown')))).toBe('edited');
  });
});
