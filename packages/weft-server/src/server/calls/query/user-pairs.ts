/**
 * `id=name` user pairs as given to `weft serve --user`, for the users table behind stream_query `include_usernames`.
 * @module
 */

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
