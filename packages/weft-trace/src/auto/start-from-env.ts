/**
 * The no-code start shared by both builds of `weft-trace/register`: `init()` from the `WEFT_*` environment, then
 * `instrument()` with `WEFT_INSTRUMENT_ONLY` / `WEFT_INSTRUMENT_EXCEPT` (comma-separated package names).
 * @module
 */
import { isMainThread } from 'node:worker_threads';
import { init } from '../init.js';
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import { instrument } from './instrument.js';

const list = (v: string | undefined): string[] | undefined =>
  v === undefined || v.trim() === '' ? undefined : v.split(',').map((s) => s.trim()).filter((s) => s !== '');

/**
 * Sets weft up from the environment and instruments the libraries; never throws (a bad setting is logged, tracing
 * stays off). Only on the main thread: worker threads inherit `-r` / `--import`, the module loader's own thread too.
 */
export async function startFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (!isMainThread) return;
  try {
    init();
  } catch (err) {
    diag.once('register-init', 'warn', `weft-trace/register: ${safeMessage(err)}; nothing is recorded until init() is called`);
  }
  try {
    await instrument({ only: list(env['WEFT_INSTRUMENT_ONLY']), except: list(env['WEFT_INSTRUMENT_EXCEPT']) });
  } catch (err) {
    diag.warn(`weft-trace/register: ${safeMessage(err)}; no library is instrumented`);
  }
}
