/**
 * The spool directory's memory of a service: a marker file saying that `baseUrl` answered a process, so a later one that finds it refusing at exit waits for a restart instead of giving up at once.
 *
 * The file is `answered-<hash of the base URL>`, beside the default spool directories (`<tmpdir>/weft-spool-<uid>`:
 * one per service, whatever the project) or in a `spoolDir` given; written (its directory created, mode 0700) once
 * the service first answered a process that had not seen it. It is removed when an exit waited
 * `exitTimeoutMs` for the service and every connection was refused: it was not restarting, so the next run
 * does not wait either.
 * @module
 */
import type * as Fs from 'node:fs';
import type * as Path from 'node:path';
import { nodeBuiltin } from '../internal/runtime.js';
import { serviceKey, shortHash } from './spool-location.js';

const fs = nodeBuiltin('node:fs') as typeof Fs | undefined;
const path = nodeBuiltin('node:path') as typeof Path | undefined;

/** The marker of `baseUrl` in the spool directory `dir`. */
export class AnsweredMarker {
  private readonly file: string | undefined;

  constructor(private readonly dir: string, baseUrl: string) {
    this.file = path?.join(dir, `answered-${shortHash(serviceKey(baseUrl))}`);
  }

  /** Whether an earlier process got an answer from the service (one `stat`). */
  exists(): boolean {
    return this.file !== undefined && fs !== undefined && fs.existsSync(this.file);
  }

  /** Writes the marker (and its directory) in the background; failures are ignored (the marker is a hint). Never rejects. */
  write(): Promise<void> {
    const { file } = this;
    if (file === undefined || fs === undefined) return Promise.resolve();
    return fs.promises
      .mkdir(this.dir, { recursive: true, mode: 0o700 })
      .then(() => fs.promises.writeFile(file, `${new Date().toISOString()}\n`))
      .catch(() => undefined);
  }

  /** Removes the marker (at exit, synchronously); failures are ignored. */
  remove(): void {
    if (this.file === undefined || fs === undefined) return;
    try {
      fs.rmSync(this.file, { force: true });
    } catch {
      // the marker is a hint
    }
  }
}
