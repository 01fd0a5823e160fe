/**
 * The overview's read while the server's rollup job catches up (after a bulk import, an upgrade or a restart): an
 * answer that left hours out (`x-weft-overview-pending-hours`, docs/scale.md) has figures that are low, so the page
 * says so ({@link PendingNotice}) and asks again on its own, backing off, until nothing is left out or the page goes.
 * @module
 */
import { useEffect, useState } from 'preact/hooks';
import { DONE, LOADING, type LoadState, reportFailure } from '../load-status';
import { loadOverview, type Overview, type Split } from './overview-api';

/** The first wait (ms) before asking again while hours are left out; each next wait doubles, up to {@link ASK_MAX_MS}. */
export const ASK_FIRST_MS = 2_000;
/** The longest wait (ms) between two asks. */
export const ASK_MAX_MS = 30_000;

/** The page's overview: the latest answer (null until the first), how far the read stands, and the hours left out of it. */
export interface CaughtUpOverview {
  data: Overview | null;
  status: LoadState;
  pendingHours: number;
}

/**
 * Reads the overview of `project` over the last `window` with `split`, and while the answer leaves hours out asks
 * again after {@link ASK_FIRST_MS}, then twice as long each time (at most {@link ASK_MAX_MS}), keeping the figures shown
 * until the next answer replaces them. Stops when nothing is left out, when the arguments change, or when the page
 * goes (the read in flight is aborted). A failed first read is the page's error line; a failed later one is asked
 * again at the next wait (the server may be restarting), but an API key asked for goes to `onError` and stops it.
 */
export function useCaughtUpOverview(project: string, window: string, split: Split, onError: (e: unknown) => void): CaughtUpOverview {
  const [state, setState] = useState<CaughtUpOverview>({ data: null, status: LOADING, pendingHours: 0 });
  useEffect(() => {
    setState({ data: null, status: LOADING, pendingHours: 0 });
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let shown = false;
    const ask = (wait: number): void => {
      const again = (): void => {
        timer = setTimeout(() => ask(Math.min(wait * 2, ASK_MAX_MS)), wait);
      };
      loadOverview(project, window, split, Date.now(), abort.signal).then(
        ({ overview, pendingHours }) => {
          if (abort.signal.aborted) return;
          shown = true;
          setState({ data: overview, status: DONE, pendingHours });
          if (pendingHours > 0) again();
        },
        (e: unknown) => {
          if (abort.signal.aborted) return;
          if (!shown) reportFailure(e, (status) => setState((s) => ({ ...s, status })), onError);
          else reportFailure(e, () => again(), onError);
        },
      );
    };
    ask(ASK_FIRST_MS);
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [project, window, split, onError]);
  return state;
}

/**
 * The line above an overview whose answer left `hours` out ("3 hours are still being counted: these figures may be
 * low. Updating…"); nothing when none was.
 */
export function PendingNotice({ hours }: { hours: number }) {
  if (hours <= 0) return null;
  const what = hours === 1 ? '1 hour of this window is' : `${hours.toLocaleString('en-US')} hours of this window are`;
  return (
    <p class="ov-pending" role="status" data-pending-hours={hours}
      title="the server is still recomputing these hours (after an import, an upgrade or a restart); their traces are in no figure yet">
      {what} still being counted: these figures may be low. Updating…
    </p>
  );
}
