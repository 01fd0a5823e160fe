/**
 * Whether a database setting names PostgreSQL (a module of its own, so that telling needs no pg driver).
 * @module
 */
/** True for a `postgres://` or `postgresql://` URL (what `--db` / `WEFT_DB_URL` take). */
export function isPostgresUrl(value: string | undefined): value is string {
  return value !== undefined && /^postgres(ql)?:\/\//i.test(value);
}
