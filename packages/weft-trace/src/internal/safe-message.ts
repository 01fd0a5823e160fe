/**
 * safeMessage(): the message of anything thrown, without ever throwing itself (getters may throw).
 * @module
 */

/** `err.message` for errors, `String(err)` otherwise; a fixed text when even that throws. */
export function safeMessage(err: unknown): string {
  try {
    return err instanceof Error ? String(err.message) : String(err);
  } catch {
    return 'unreadable error';
  }
}
