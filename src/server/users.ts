/**
 * The server's `users` table (migration 5): user id → user name, read by stream_query `include_usernames`.
 * @module
 */
import type Database from 'better-sqlite3';

/**
 * Stores (or renames) users. Ids are what calls carry in `svc_user_id`.
 *
 * @param db - a read-write connection.
 * @param users - user id → user name; an empty name is refused.
 * @throws TypeError naming the user id when a name is empty.
 */
export function upsertUsers(db: Database.Database, users: Readonly<Record<string, string>>): void {
  const insert = db.prepare('INSERT INTO users (id, username) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET username = excluded.username');
  db.transaction(() => {
    for (const [id, name] of Object.entries(users)) {
      if (!id || typeof name !== 'string' || name === '') {
        throw new TypeError(`users: expected a non-empty user id and name, got ${JSON.stringify(id)} → ${JSON.stringify(name)}`);
      }
      insert.run(id, name);
    }
  })();
}

/**
 * Looks up the names of some user ids.
 *
 * @param db - a connection.
 * @param ids - user ids; duplicates are fine.
 * @returns id → name for the ids the table knows.
 */
export function usernamesFor(db: Database.Database, ids: readonly string[]): Map<string, string> {
  if (ids.length === 0) return new Map();
  const rows = db
    .prepare('SELECT id, username FROM users WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify([...new Set(ids)])) as { id: string; username: string }[];
  return new Map(rows.map((r) => [r.id, r.username]));
}

/**
 * Parses `id=name` pairs (as given to `weft serve --user`).
 *
 * @param pairs - e.g. `["u-1=Ada Lovelace"]`.
 * @returns id → name.
 * @throws TypeError for a pair without `=`, or with an empty id or name.
 */
export function parseUserPairs(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1) throw new TypeError(`expected id=name, got ${JSON.stringify(pair)}`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}
