/**
 * Which store a test run uses (a module of its own: telling it needs no pg driver, which SQLite-only files then
 * never load).
 * @module
 */

/** The environment variable the `postgres` vitest project sets (vitest.config.ts). */
export const STORE_ENV = 'WEFT_TEST_STORE';

/** The store this test run uses. */
export function testStore(): 'sqlite' | 'postgres' {
  return process.env[STORE_ENV] === 'postgres' ? 'postgres' : 'sqlite';
}
