/**
 * The spool courier's lock: a file `courier.pid` in the spool directory naming the one courier process that sends it, so there is never more than one per spool at a time.
 *
 * The exiting app creates the file exclusively (`wx`) with its courier's pid right after spawning it; a
 * lock whose pid is dead is taken over. The courier starts sending only once the file names it, and removes
 * it when it ends. Two apps taking over the same dead lock at the same instant could each start one; the
 * spool's segment claims (`spool.ts`) still keep them from sending any event twice.
 * @module
 */
import type * as Fs from 'node:fs';
import type * as Path from 'node:path';
import { nodeBuiltin } from '../internal/runtime.js';
import { isAlive } from './spool.js';

const fs = nodeBuiltin('node:fs') as typeof Fs | undefined;
const path = nodeBuiltin('node:path') as typeof Path | undefined;

/** The lock file's name in the spool directory. */
export const COURIER_LOCK = 'courier.pid';

/** The lock of the spool directory `dir`. */
export class CourierLock {
  readonly file: string;

  constructor(dir: string) {
    this.file = path ? path.join(dir, COURIER_LOCK) : COURIER_LOCK;
  }

  /** The pid the lock names, when that process is alive; else `undefined` (no lock, or a dead courier's). */
  holder(): number | undefined {
    const pid = this.readPid();
    return pid !== undefined && isAlive(pid) ? pid : undefined;
  }

  /**
   * Makes the lock name `pid`, unless a live process holds it.
   * @returns `true` when the lock now names `pid`; `false` when another live courier holds it, or it cannot be written.
   */
  take(pid: number): boolean {
    if (!fs) return false;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.writeFileSync(this.file, `${pid}\n`, { flag: 'wx', mode: 0o600 });
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || this.holder() !== undefined) return false;
        this.remove(); // a dead courier's: taken over
      }
    }
    return false;
  }

  /** Whether the lock names `pid`. */
  names(pid: number): boolean {
    return this.readPid() === pid;
  }

  /** Removes the lock when it names `pid` (a courier ending); failures are ignored. */
  release(pid: number): void {
    if (this.names(pid)) this.remove();
  }

  private readPid(): number | undefined {
    try {
      const pid = Number((fs as typeof Fs).readFileSync(this.file, 'utf8').trim());
      return Number.isInteger(pid) && pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  }

  private remove(): void {
    try {
      (fs as typeof Fs).rmSync(this.file, { force: true });
    } catch {
      // a lock left behind names a dead pid: the next courier takes it over
    }
  }
}
