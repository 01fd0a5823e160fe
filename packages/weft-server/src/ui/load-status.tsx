/**
 * The line a page shows while it waits or after its read failed, drawn with the page's first frame: "loading 2,300
 * calls…" as the answer streams in, or the error in place of the data (never a blank page).
 * @module
 */
import { NeedsKeyError } from './api';

/** Where a page's read stands: loading (with the records counted so far, when it streams), failed, or done. */
export type LoadState =
  | { phase: 'loading'; count?: number }
  | { phase: 'error'; message: string }
  | { phase: 'done' };

export const LOADING: LoadState = { phase: 'loading' };
export const DONE: LoadState = { phase: 'done' };

/** The state after a failed read, null for an abort (not a failure: the page went away). */
function failed(e: unknown): LoadState | null {
  if (e instanceof DOMException && e.name === 'AbortError') return null;
  return { phase: 'error', message: e instanceof Error ? e.message : String(e) };
}

/**
 * The status line of `state` for a read of `what` (a plural noun: `calls`, `traces`): `loading traces…`,
 * `loading 2,300 calls…`, or `could not load calls: <why>`; nothing once done.
 */
export function LoadStatus({ state, what }: { state: LoadState; what: string }) {
  if (state.phase === 'done') return null;
  if (state.phase === 'error') return <p class="load-error" role="alert" data-load="error">could not load {what}: {state.message}</p>;
  return (
    <p class="loading" role="status" data-load="loading">
      loading {state.count === undefined ? '' : `${state.count.toLocaleString('en-US')} `}{what}…
    </p>
  );
}

/**
 * Routes a failed read: an API key asked for goes to the shell (`onError`, which prompts for it); an abort is
 * dropped; anything else becomes the page's error line through `setLoad`.
 */
export function reportFailure(e: unknown, setLoad: (s: LoadState) => void, onError: (e: unknown) => void): void {
  if (e instanceof NeedsKeyError) {
    onError(e);
    return;
  }
  const state = failed(e);
  if (state) setLoad(state);
}
