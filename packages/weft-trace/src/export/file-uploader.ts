/**
 * The media file uploader: takes the bytes of media values as their calls are serialized, and sends each digest once per project to `POST /file/create` in the background, within a memory bound.
 * @module
 */
import PQueue from 'p-queue';
import type { Client } from '../api/client.js';
import { APIError } from '../api/core/api-errors.js';
import { createFileRaw } from '../api/core/raw-file.js';
import { diag } from '../internal/diag.js';
import { nodeBuiltin } from '../internal/runtime.js';
import { safeMessage } from '../internal/safe-message.js';
import type { MediaSink } from '../instrument/media-value.js';
import type { MediaOptions } from '../init-media-option.js';
import type { ExportOptions } from './export-options.js';
import { warnRateLimited } from './export-stats.js';
import { fileStats } from './file-stats.js';

/** Digests remembered (sent, on their way, or refused), oldest forgotten first: a digest forgotten is sent again once. */
const KNOWN_DIGESTS = 10_000;

/** Requests of one uploader in flight at once. */
const FILE_REQUESTS = 2;

type RetryOptions = Pick<ExportOptions, 'maxRetries' | 'retryInitialDelayMs' | 'retryMaxDelayMs' | 'retryBudgetMs'>;

/**
 * The digest `POST /file/create` answers for `bytes`: sha256 as base64url with `-`→`X`, `_`→`Y`, no `=` padding (the
 * Weave server's and weft's, `digestBytes` of weft-server's tables/digest.ts).
 * @throws Error where the runtime has no `node:crypto` (Vercel Edge): the value's reference then says so.
 */
export function fileDigest(bytes: Uint8Array): string {
  const crypto = nodeBuiltin('node:crypto');
  if (!crypto) throw new Error('this runtime has no node:crypto to compute the file digest');
  const b64 = typeof crypto.hash === 'function' ? crypto.hash('sha256', bytes, 'base64url') : crypto.createHash('sha256').update(bytes).digest('base64url');
  return b64.replaceAll('-', 'X').replaceAll('_', 'Y');
}

/**
 * Sends media files of one project: each digest once (a digest already sent or on its way answers at once), at most
 * `maxPendingBytes` of files waiting in memory, each at most `maxFileBytes`. A file the server refuses (a status it
 * does not retry, e.g. 413) is logged and counted, and later values with the same bytes say so in their reference.
 * Never throws.
 */
export class FileUploader implements MediaSink {
  readonly maxFileBytes: number;
  private readonly maxPendingBytes: number;
  private pendingBytes = 0;
  /** Digest → `true` (sent or on its way) or why the server refused it. */
  private readonly known = new Map<string, true | string>();
  private readonly slots = new PQueue({ concurrency: FILE_REQUESTS });
  private readonly abort = new AbortController();

  constructor(
    private readonly client: Client,
    private readonly projectId: string,
    media: MediaOptions,
    private readonly retry: RetryOptions,
  ) {
    this.maxFileBytes = media.maxFileBytes;
    this.maxPendingBytes = media.maxPendingBytes;
  }

  /** Whether files are waiting or being sent. */
  get busy(): boolean {
    return this.slots.size + this.slots.pending > 0;
  }

  /** Resolves once every file taken so far was sent or given up on (at once when none wait); never rejects. */
  idle(): Promise<void> {
    return this.slots.onIdle();
  }

  /** Aborts the files being sent (at an exit past its deadline). */
  abandon(reason?: string): void {
    this.abort.abort(reason);
  }

  take(bytes: Uint8Array, mimeType: string): { digest: string } | { dropped: string } {
    let digest: string;
    try {
      digest = fileDigest(bytes);
    } catch (err) {
      return this.dropped(safeMessage(err));
    }
    const seen = this.known.get(digest);
    if (seen === true) {
      fileStats.deduplicated++;
      return { digest };
    }
    if (seen !== undefined) return this.dropped(seen);
    const n = bytes.byteLength;
    if (this.pendingBytes + n > this.maxPendingBytes) return this.dropped(`memory bound for files waiting reached (maxPendingBytes ${this.maxPendingBytes})`);
    this.remember(digest, true);
    this.pendingBytes += n;
    fileStats.pending++;
    fileStats.pendingBytes += n;
    void this.slots.add(() => this.send(digest, bytes, mimeType));
    return { digest };
  }

  private async send(digest: string, bytes: Uint8Array, mimeType: string): Promise<void> {
    const { maxRetries, retryInitialDelayMs, retryMaxDelayMs, retryBudgetMs } = this.retry;
    const opts = { maxRetries, retry: { initialDelayMs: retryInitialDelayMs, maxDelayMs: retryMaxDelayMs, budgetMs: retryBudgetMs }, unrefRetryWait: true, signal: this.abort.signal };
    try {
      const res = await createFileRaw(this.client, this.projectId, bytes, mimeType, opts);
      if (res.digest !== digest) diag.once('file-digest', 'warn', `the server stored a media file under digest ${res.digest}, weft computed ${digest}: the call's reference will not find it`);
      fileStats.sent++;
      fileStats.sentBytes += bytes.byteLength;
    } catch (err) {
      fileStats.dropped++;
      const refused = err instanceof APIError && err.status !== undefined;
      // a refusal is remembered (the same bytes will be refused again); an unreachable server is tried again next time
      if (refused) this.remember(digest, `server refused: ${safeMessage(err)}`);
      else this.known.delete(digest);
      warnRateLimited('file', () => `a media file (${mimeType}, ${bytes.byteLength} bytes) was not stored: ${safeMessage(err)}; its call's reference points at a file that is missing`);
    } finally {
      this.pendingBytes -= bytes.byteLength;
      fileStats.pending--;
      fileStats.pendingBytes -= bytes.byteLength;
    }
  }

  private remember(digest: string, state: true | string): void {
    this.known.delete(digest);
    this.known.set(digest, state);
    if (this.known.size > KNOWN_DIGESTS) this.known.delete(this.known.keys().next().value as string);
  }

  private dropped(why: string): { dropped: string } {
    fileStats.dropped++;
    return { dropped: why };
  }
}
