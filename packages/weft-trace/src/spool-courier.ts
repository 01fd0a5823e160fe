/**
 * The spool courier (`dist/spool-courier.js`): a short-lived process an exiting app starts (`export/courier-launch.ts`) when it gave up on a server that never answered; it sends that spool until it is empty or the exit's deadline, then exits, leaving the rest to the next run or `weft spool flush`.
 *
 * Internal command line: `--dir <spool> --base-url <url> --marker-dir <dir> --deadline <epoch ms> --after <app pid>`;
 * the API key comes in `WEFT_API_KEY`. Its stdio is ignored and it never throws.
 * @module
 */
import { parseArgs } from 'node:util';
import { AnsweredMarker } from './export/answered-marker.js';
import { CourierLock } from './export/courier-lock.js';
import { flushSpoolDir } from './export/spool-flush.js';
import { isAlive } from './export/spool.js';

/** How often the courier looks at the lock and at the app, in ms. */
const POLL_MS = 50;
/** Longest wait for the app to write the lock naming this process, in ms (it does so right after spawning it). */
const LOCK_WAIT_MS = 2_000;

/** Retries in short steps, so a server back in 3 s is reached soon after; the deadline ends them. */
const RETRIES = { maxRetries: 1_000, retryInitialDelayMs: 100, retryMaxDelayMs: 500 };

/** Resolves `true` once `ready()` holds, `false` when `untilMs` (epoch ms) comes first. */
async function waitFor(ready: () => boolean, untilMs: number): Promise<boolean> {
  while (!ready()) {
    if (Date.now() >= untilMs) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return true;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string' },
      'base-url': { type: 'string' },
      'marker-dir': { type: 'string' },
      deadline: { type: 'string' },
      after: { type: 'string' },
    },
  });
  const { dir, 'base-url': baseUrl, 'marker-dir': markerDir } = values;
  const deadlineAt = Number(values.deadline);
  const app = Number(values.after);
  if (!dir || !baseUrl || !markerDir || !Number.isFinite(deadlineAt)) return;
  const lock = new CourierLock(dir);
  // never two couriers for one spool: this one works only once the lock names it
  if (!(await waitFor(() => lock.names(process.pid), Math.min(deadlineAt, Date.now() + LOCK_WAIT_MS)))) return;
  try {
    // the app's open segment is ready for replay once the app is gone (its exit hook closes it)
    if (Number.isInteger(app) && app > 0) await waitFor(() => !isAlive(app), deadlineAt);
    const apiKey = process.env['WEFT_API_KEY'] || undefined;
    const retries = { ...RETRIES, retryBudgetMs: Math.max(0, deadlineAt - Date.now()) };
    const { answered } = await flushSpoolDir({ dir, baseUrl, apiKey, deadlineAt, retries });
    if (answered) await new AnsweredMarker(markerDir, baseUrl).write(); // the next run treats the server as known
  } finally {
    lock.release(process.pid);
  }
}

main().then(
  () => process.exit(0),
  () => process.exit(1),
);
