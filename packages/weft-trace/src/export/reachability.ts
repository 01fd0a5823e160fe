/**
 * What the exporter has seen of its service: the one warning at the first failed send (URL, cause, hint), whether it ever answered (here or, by the spool's marker, in an earlier process), and whether every connection so far was refused.
 * @module
 */
import { APIConnectionError, APIError, APIUserAbortError } from '../api/core/api-errors.js';
import { isRetryableError } from '../api/core/retry.js';
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';

/** Why the exporter gives up at exit without waiting: the URL that refused every connection (and never answered an earlier process), and the error it gave. */
export interface Refusal {
  /** The service's base URL. */
  readonly url: string;
  /** The last refusal's message, e.g. `Connection error (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:6345`. */
  readonly cause: string;
}

/** The hint the CLI gives too: what to do when nothing answers at the base URL. */
export const NO_SERVER_HINT = 'is weft serve running? Start it with `npx weft serve`, or point WEFT_BASE_URL (init({ baseUrl })) at your service';

/**
 * Tracks the attempts of one exporter's senders (calls, feedback, spool replay). The first failed send
 * that will be retried logs one warning at once (per base URL and process), naming the URL, the cause,
 * {@link NO_SERVER_HINT} for a connection error, and what happens after the retry budget. Never throws.
 */
export class Reachability {
  /** Some request got an HTTP answer (any status): the service exists, even if it failed. */
  private answered = false;
  private refusal: Refusal | undefined;
  private readonly waiters: Array<(r: Refusal) => void> = [];

  /**
   * @param url - the service's base URL.
   * @param after - what becomes of events the retry budget gave up on, for the warning (e.g. `dropped`).
   * @param known - the service answered an earlier process (the spool's marker): refusals are a restart, so
   *   {@link whenRefused} never resolves and the exit waits for it.
   * @param onFirstAnswer - runs once, at the first HTTP answer of this process (writes the marker).
   */
  constructor(
    readonly url: string,
    private readonly after: string,
    readonly known = false,
    private readonly onFirstAnswer?: () => void,
  ) {}

  /** An attempt got a 2xx answer. */
  succeeded(): void {
    if (!this.answered) this.answer();
  }

  /** An attempt failed with `err` (a retry may follow). A user abort (exit deadline) tells nothing. */
  failed(err: unknown): void {
    if (err instanceof APIUserAbortError) return;
    if (err instanceof APIError && err.status !== undefined && !this.answered) this.answer();
    if (isRefused(err) && !this.answered && !this.known) {
      this.refusal = { url: this.url, cause: safeMessage(err) };
      for (const resolve of this.waiters.splice(0)) resolve(this.refusal);
    }
    if (isRetryableError(err)) this.warnOnce(err);
  }

  /**
   * The refusal, when every attempt so far was refused (no HTTP answer ever, here or in an earlier process;
   * at least one `ECONNREFUSED`); else `undefined`.
   */
  get refused(): Refusal | undefined {
    return this.answered ? undefined : this.refusal;
  }

  /** Whether the service ever answered this process. */
  get everAnswered(): boolean {
    return this.answered;
  }

  /** Resolves once every attempt so far was refused and no earlier process got an answer (at once if already so); never rejects. */
  whenRefused(): Promise<Refusal> {
    const now = this.refused;
    return now ? Promise.resolve(now) : new Promise((resolve) => this.waiters.push(resolve));
  }

  private answer(): void {
    this.answered = true;
    this.onFirstAnswer?.();
  }

  private warnOnce(err: unknown): void {
    const connection = err instanceof APIConnectionError;
    const what = connection ? `cannot reach ${this.url}` : `the server at ${this.url} failed a request`;
    const hint = connection ? `; ${NO_SERVER_HINT}` : '';
    diag.once(`unreachable ${this.url}`, 'warn', `${what} (${safeMessage(err)})${hint}. Retrying within retryBudgetMs; then the events are ${this.after}`);
  }
}

/** True for a connection the service refused (nothing listens at the address). */
export function isRefused(err: unknown): boolean {
  if (!(err instanceof APIConnectionError)) return false;
  const cause = err.cause as { code?: unknown; errors?: Array<{ code?: unknown }> } | undefined;
  // a host name with several addresses fails with an AggregateError of refusals
  return cause?.code === 'ECONNREFUSED' || (Array.isArray(cause?.errors) && cause.errors.length > 0 && cause.errors.every((e) => e?.code === 'ECONNREFUSED'));
}
