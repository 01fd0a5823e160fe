/**
 * The disk spool: events that cannot be sent yet, appended to JSONL segment files and claimed (by rename) for replay.
 *
 * Files in the spool directory, named `<ms>-<pid>-<n>` so they sort oldest first:
 * - `*.open`: the segment this process is writing. Lines are buffered for at most 50 ms (or 256 KiB)
 *   and then written with one `write()`; the file is fsync'd when it is closed, on `sync()` (flush,
 *   shutdown) and at process exit. A process killed with SIGKILL loses only the buffered lines; an OS
 *   crash may also lose what was written since the last fsync.
 * - `*.jsonl`: a closed segment, ready to be replayed (a segment is closed at 4 MiB, when the
 *   replayer wants it, and at shutdown or exit). An `.open` file of a dead process counts as one.
 * - `*.<pid>.replaying`: claimed by process `<pid>` with an atomic rename, so two processes never
 *   replay the same file; deleted once every line was acknowledged, renamed back on failure, and
 *   claimable again when `<pid>` is dead. A torn last line (killed mid-write) is skipped.
 * @module
 */
import type * as Fs from 'node:fs';
import type * as Path from 'node:path';
import { nodeBuiltin } from '../internal/runtime.js';
import { safeMessage } from '../internal/safe-message.js';
import { countDrop } from './export-stats.js';
import { unrefTimeout } from '../internal/timers.js';

// read at load without a static `node:` import, so the SDK loads where there is no file system (Vercel Edge)
const fs = nodeBuiltin('node:fs') as typeof Fs;
const path = nodeBuiltin('node:path') as typeof Path;

/** Whether this runtime has the file system the spool writes to. */
export const SPOOL_AVAILABLE = fs !== undefined && path !== undefined;

const SEGMENT_BYTES = 4 * 1024 * 1024;
const WRITE_DELAY_MS = 50;
const WRITE_CHUNK_BYTES = 256 * 1024;
const NAME = /^(\d+)-(\d+)-(\d+)\.(open|jsonl|(\d+)\.replaying)$/;

/** Files this process is writing or replaying (all spools): never taken for a dead process's, even under a reused pid. */
const busy = new Set<string>();
let instances = 0;
/** Spools of this process with an open segment, closed (written, fsync'd) at process exit. */
const live = new Set<Spool>();
let exitHookInstalled = false;

function closeLiveSpools(): void {
  for (const spool of live) spool.close();
}

/** A segment claimed for replay: its complete lines, oldest first. */
export interface ClaimedSegment {
  readonly file: string;
  readonly lines: string[];
  /** Whether this spool wrote it (its lines count in {@link Spool.backlog}). */
  readonly own: boolean;
  readonly bytes: number;
}

/**
 * One spool directory, as seen from this process (its size cap counts what was there at construction
 * plus this process's writes). The directory is created (mode 0700: events hold user data) when the first
 * segment is written, not before. The constructor throws when the directory exists but cannot be read;
 * methods never throw (failures show in return values and drop counters).
 */
export class Spool {
  private readonly prefix: string;
  private buffer: string[] = [];
  private bufferBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private fd: number | undefined;
  private file: string | undefined;
  private fileBytes = 0;
  private fileLines = 0;
  private seq = 0;
  private totalBytes = 0;
  private readonly ownLines = new Map<string, number>();
  /** Events this spool wrote (or buffered) that were not yet replayed by it. */
  backlog = 0;

  constructor(readonly dir: string, private readonly maxBytes: number) {
    this.prefix = `${process.pid}-${String(instances++).padStart(4, '0')}`;
    for (const name of listDir(dir)) if (NAME.test(name)) this.totalBytes += sizeOf(path.join(dir, name));
  }

  /** Bytes in the directory's segments, as far as this process knows. */
  get bytes(): number {
    return this.totalBytes + this.bufferBytes;
  }

  /** Whether lines of this spool are buffered or in its open segment. */
  get hasUnclosed(): boolean {
    return this.buffer.length > 0 || this.fileLines > 0;
  }

  /** Appends one event (a JSON text without newline); `false` when the spool is at its size cap. */
  append(json: string): boolean {
    const bytes = Buffer.byteLength(json) + 1;
    if (this.bytes + bytes > this.maxBytes) return false;
    this.buffer.push(json);
    this.bufferBytes += bytes;
    this.backlog++;
    if (this.bufferBytes >= WRITE_CHUNK_BYTES) this.write();
    else if (this.timer === undefined) {
      this.timer = unrefTimeout(() => this.write(), WRITE_DELAY_MS);
    }
    return true;
  }

  /** Writes buffered lines and fsyncs the open segment. */
  sync(): void {
    this.write();
    if (this.fd !== undefined) attempt(() => fs.fsyncSync(this.fd as number));
  }

  /** Writes, fsyncs and closes the open segment, making it ready for replay (by any process). */
  close(): void {
    this.sync();
    if (this.fd === undefined || this.file === undefined) return;
    attempt(() => fs.closeSync(this.fd as number));
    const ready = this.file.replace(/\.open$/, '.jsonl');
    attempt(() => fs.renameSync(this.file as string, ready));
    busy.delete(this.file);
    this.ownLines.set(path.basename(ready, '.jsonl'), this.fileLines);
    live.delete(this);
    this.fd = undefined;
    this.file = undefined;
    this.fileBytes = 0;
    this.fileLines = 0;
  }

  /**
   * Claims the oldest ready segment (closing this spool's open one first when nothing else is ready).
   * @returns `undefined` when there is nothing to replay.
   */
  claim(): ClaimedSegment | undefined {
    const found = this.claimReady();
    if (found || !this.hasUnclosed) return found;
    this.close();
    return this.claimReady();
  }

  /** Deletes a fully replayed segment. */
  finish(seg: ClaimedSegment): void {
    attempt(() => fs.unlinkSync(seg.file));
    busy.delete(seg.file);
    this.totalBytes = Math.max(0, this.totalBytes - seg.bytes);
    const base = baseName(seg.file);
    if (seg.own) this.backlog -= this.ownLines.get(base) ?? 0;
    this.ownLines.delete(base);
  }

  /** Gives a claimed segment back, to be replayed later (by this or another process). */
  release(seg: ClaimedSegment): void {
    attempt(() => fs.renameSync(seg.file, path.join(this.dir, `${baseName(seg.file)}.jsonl`)));
    busy.delete(seg.file);
  }

  private claimReady(): ClaimedSegment | undefined {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir).filter((n) => NAME.test(n)).sort();
    } catch {
      return undefined;
    }
    for (const name of names) {
      if (!this.claimable(name)) continue;
      const base = baseName(name);
      const claimed = path.join(this.dir, `${base}.${process.pid}.replaying`);
      if (!attempt(() => fs.renameSync(path.join(this.dir, name), claimed))) continue; // another process was first
      busy.add(claimed);
      const text = readText(claimed);
      return { file: claimed, lines: completeLines(text), own: this.ownLines.has(base), bytes: Buffer.byteLength(text) };
    }
    return undefined;
  }

  private claimable(name: string): boolean {
    const m = NAME.exec(name) as RegExpExecArray;
    if (m[4] === 'jsonl') return true;
    if (busy.has(path.join(this.dir, name))) return false;
    const pid = Number(m[4] === 'open' ? m[2] : m[5]);
    return pid === process.pid || !isAlive(pid);
  }

  private write(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer.length === 0) return;
    const chunk = `${this.buffer.join('\n')}\n`;
    const lines = this.buffer.length;
    this.buffer = [];
    this.bufferBytes = 0;
    const fd = this.openFd();
    const failure = fd === undefined ? 'cannot open a segment file' : tryWrite(fd, chunk);
    if (failure !== undefined) {
      this.backlog -= lines;
      countDrop('abandoned', lines, `writing to the spool in ${this.dir} failed: ${failure}`);
      return;
    }
    const bytes = Buffer.byteLength(chunk);
    this.fileBytes += bytes;
    this.fileLines += lines;
    this.totalBytes += bytes;
    if (this.fileBytes >= SEGMENT_BYTES) this.close();
  }

  private openFd(): number | undefined {
    if (this.fd !== undefined) return this.fd;
    const file = path.join(this.dir, `${String(Date.now()).padStart(15, '0')}-${this.prefix}${String(this.seq++).padStart(8, '0')}.open`);
    try {
      fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      this.fd = fs.openSync(file, 'a');
    } catch {
      return undefined;
    }
    this.file = file;
    busy.add(file);
    live.add(this);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on('exit', closeLiveSpools);
    }
    return this.fd;
  }
}

/** The name of a segment that stays the same while it is claimed and released (its file name changes). */
export function baseName(file: string): string {
  return (NAME.exec(path.basename(file)) as RegExpExecArray).slice(1, 4).join('-');
}

/** The lines of `text` that end with a newline; a torn last line is left out. */
function completeLines(text: string): string[] {
  const end = text.lastIndexOf('\n');
  return end < 0 ? [] : text.slice(0, end).split('\n').filter((l) => l.length > 0);
}

/**
 * Whether a process with this id runs (one of another user counts: signalling it is refused with EPERM). A zombie
 * (exited, not yet reaped: a container's init may never reap a detached process) does not, where `/proc` says so.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return !/^\d+ \(.*\) Z /s.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (macOS, Windows)
  }
}

/** The names in `dir`; none when it does not exist yet. */
function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** Writes `text` whole; returns why it failed, or `undefined`. */
function tryWrite(fd: number, text: string): string | undefined {
  try {
    fs.writeSync(fd, text);
    return undefined;
  } catch (err) {
    return safeMessage(err);
  }
}

function attempt(fn: () => unknown): boolean {
  try {
    fn();
    return true;
  } catch {
    return false;
  }
}
