/**
 * Starts the spool courier: a short-lived detached process (`spool-courier.js`, beside the SDK's own module in `dist/`) that keeps sending a spool an exit gave up on at once, until it is empty or the exit's deadline.
 * @module
 */
import type * as ChildProcess from 'node:child_process';
import type * as Fs from 'node:fs';
import type * as Path from 'node:path';
import type * as Url from 'node:url';
import { diag } from '../internal/diag.js';
import { nodeBuiltin } from '../internal/runtime.js';
import { safeMessage } from '../internal/safe-message.js';
import { CourierLock } from './courier-lock.js';

const cp = nodeBuiltin('node:child_process') as typeof ChildProcess | undefined;
const fs = nodeBuiltin('node:fs') as typeof Fs | undefined;
const path = nodeBuiltin('node:path') as typeof Path | undefined;
const url = nodeBuiltin('node:url') as typeof Url | undefined;

/** The courier's file name in `dist/` (its own tsup entry). */
export const COURIER_FILE = 'spool-courier.js';

/** What a courier sends, where, and until when. */
export interface CourierJob {
  /** The spool directory. */
  dir: string;
  baseUrl: string;
  /** Handed over in the courier's environment (`WEFT_API_KEY`), never on its command line. */
  apiKey: string | undefined;
  /** Where the service's answered-marker goes (`answered-marker.ts`), written when the courier gets an answer. */
  markerDir: string;
  /** When the courier gives up (epoch ms): the exit's moment plus `exitTimeoutMs`. */
  deadlineAt: number;
}

/**
 * Spawns the courier for `job` (detached, no stdio, unref'd: the app exits as before) unless one already
 * sends that spool (`courier-lock.ts`). None where the courier's file is not beside the SDK (the SDK was
 * bundled into the app), where there is no `node:child_process` (Workers, Edge), or on Deno; said at debug level.
 * @returns the courier's pid (a new one, or the one already at work), or `undefined` when none sends the spool.
 */
export function startCourier(job: CourierJob): number | undefined {
  const file = courierFile();
  if (!cp || !file || 'Deno' in globalThis) {
    diag.debug(`no spool courier (${!cp ? 'no node:child_process' : !file ? `no ${COURIER_FILE} beside the SDK: bundled into the app?` : 'Deno'}): ${job.dir} waits for the next run or \`weft spool flush\``);
    return undefined;
  }
  const lock = new CourierLock(job.dir);
  const busy = lock.holder();
  if (busy !== undefined) {
    diag.debug(`the spool courier (pid ${busy}) already sends ${job.dir}`);
    return busy;
  }
  const env: Record<string, string | undefined> = { ...process.env };
  if (job.apiKey !== undefined) env['WEFT_API_KEY'] = job.apiKey;
  const args = [file, '--dir', job.dir, '--base-url', job.baseUrl, '--marker-dir', job.markerDir, '--deadline', String(job.deadlineAt), '--after', String(process.pid)];
  try {
    const child = cp.spawn(process.execPath, args, { detached: true, stdio: 'ignore', env, windowsHide: true });
    child.on('error', (err) => diag.debug(`the spool courier did not start: ${safeMessage(err)}`));
    child.unref();
    if (child.pid === undefined) return undefined;
    if (!lock.take(child.pid)) {
      child.kill(); // another exit started one meanwhile; this one has not sent anything yet
      return lock.holder();
    }
    diag.debug(`the spool courier (pid ${child.pid}) sends ${job.dir} until ${new Date(job.deadlineAt).toISOString()}`);
    return child.pid;
  } catch (err) {
    diag.debug(`the spool courier did not start: ${safeMessage(err)}`);
    return undefined;
  }
}

/**
 * The courier's file beside this module (`__filename` in the CommonJS build, `import.meta.url` in ESM; both
 * builds sit in `dist/`), when it is there.
 */
function courierFile(): string | undefined {
  if (!fs || !path || !url) return undefined;
  try {
    const from = typeof __filename === 'string' ? __filename : import.meta.url;
    const self = from.startsWith('file:') ? url.fileURLToPath(from) : from;
    const file = path.join(path.dirname(self), COURIER_FILE);
    return fs.existsSync(file) ? file : undefined;
  } catch {
    return undefined; // no module URL (an app's bundle that defines neither)
  }
}
