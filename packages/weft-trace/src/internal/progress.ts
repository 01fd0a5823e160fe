/**
 * Progress of a long job on stderr (a CLI export, an evaluation, a batch of rollouts): on a terminal a count line
 * rewritten in place (or the CLI's bar), plain count lines when stderr is piped (so logs stay readable), or nothing.
 * @module
 */
/** Reports progress of a job of `total` items (unknown total: no bar percentage, no ETA). */
export interface Progress {
  /** Sets the number of items done. */
  update(done: number): void;
  /** Ends the report with a summary line. */
  stop(summary: string): void;
}

/** Plain lines at most every `everyMs` (default 2000 ms) when piped. */
class PlainProgress implements Progress {
  private last = Date.now();
  constructor(private readonly verb: string, private readonly total: number | undefined, private readonly unit: string, private readonly everyMs = 2000) {}
  update(done: number): void {
    const now = Date.now();
    if (now - this.last < this.everyMs) return;
    this.last = now;
    process.stderr.write(`${this.verb} ${done}${this.total === undefined ? '' : `/${this.total}`} ${this.unit}\n`);
  }
  stop(summary: string): void {
    process.stderr.write(`${summary}\n`);
  }
}

/** One line on a terminal, rewritten in place at most 10 times a second (no dependency: the SDK runs on runtimes
 *  where a terminal library cannot load; the CLI draws a full bar with cli-progress, `src/cli/progress-bar.ts`). */
class LineProgress implements Progress {
  private last = 0;
  constructor(private readonly verb: string, private readonly total: number | undefined, private readonly unit: string) {}
  update(done: number): void {
    const now = Date.now();
    if (now - this.last < 100 && done !== this.total) return;
    this.last = now;
    const share = this.total ? ` (${Math.floor((100 * done) / this.total)}%)` : '';
    process.stderr.write(`\r${this.verb} ${done}${this.total === undefined ? '' : `/${this.total}`} ${this.unit}${share}`);
  }
  stop(summary: string): void {
    process.stderr.write(`\r\x1b[2K${summary}\n`);
  }
}

/** Reports nothing (progress turned off). */
const SILENT: Progress = { update() {}, stop() {} };

/** Options of {@link startProgress}. */
export interface ProgressOptions {
  /** What the items are, in the plural (default `calls`). */
  unit?: string;
  /** When stderr is not a terminal: `lines` (default) prints a count line every 2 s and the summary; `silent`
   *  prints nothing (library code run in a log-collecting process). */
  piped?: 'lines' | 'silent';
  /** `false` turns the report off everywhere. Default `true`. */
  enabled?: boolean;
  /** Draws the report on a terminal (the CLI's cli-progress bar); default one line rewritten in place. */
  bar?: (verb: string, total: number | undefined, unit: string) => Progress;
}

/** A progress report on stderr: a bar (or one line) on a TTY, plain lines (or nothing) otherwise; nothing where the
 *  runtime has no `process.stderr` (Vercel Edge). */
export function startProgress(verb: string, total?: number, options: ProgressOptions = {}): Progress {
  const unit = options.unit ?? 'calls';
  if (options.enabled === false) return SILENT;
  const stderr = (globalThis as { process?: { stderr?: { isTTY?: boolean } } }).process?.stderr;
  if (stderr === undefined) return SILENT; // no process.stderr (Vercel Edge)
  if (stderr.isTTY) return options.bar?.(verb, total, unit) ?? new LineProgress(verb, total, unit);
  return options.piped === 'silent' ? SILENT : new PlainProgress(verb, total, unit);
}

/** `1,234 calls in 2.1 s (588/s)`. */
export function rateSummary(count: number, startedMs: number): string {
  const s = (Date.now() - startedMs) / 1000;
  return `${count.toLocaleString('en-US')} calls in ${s.toFixed(1)} s (${Math.round(count / Math.max(s, 0.001)).toLocaleString('en-US')}/s)`;
}
