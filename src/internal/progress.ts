/**
 * Progress of a long job on stderr (a CLI export, an evaluation, a batch of rollouts): a bar with count, rate and
 * ETA on a terminal (cli-progress), plain count lines when stderr is piped (so logs stay readable), or nothing.
 * @module
 */
import type cliProgressModule from 'cli-progress';
import { nodeBuiltin } from './runtime.js';

type CliProgress = typeof cliProgressModule;

/**
 * cli-progress, loaded at the first bar (it needs `readline`, which Vercel Edge lacks: a static import would break the
 * SDK there); `undefined` where the runtime cannot load it.
 */
function loadCliProgress(): CliProgress | undefined {
  try {
    const load = typeof require === 'function' ? require : nodeBuiltin('node:module')?.createRequire(import.meta.url);
    return load?.('cli-progress') as CliProgress | undefined;
  } catch {
    return undefined;
  }
}

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

/** The bar on a terminal. */
class BarProgress implements Progress {
  private readonly bar: cliProgressModule.SingleBar;
  constructor(cliProgress: CliProgress, verb: string, total: number | undefined, unit: string) {
    const format = total === undefined
      ? `${verb} {value} ${unit} | {rate}/s`
      : `${verb} [{bar}] {percentage}% | {value}/{total} ${unit} | {rate}/s | ETA {eta_formatted}`;
    this.bar = new cliProgress.SingleBar({ format, stream: process.stderr, hideCursor: true, etaBuffer: 50, fps: 10 }, cliProgress.Presets.shades_classic);
    this.started = Date.now();
    this.bar.start(total ?? 0, 0, { rate: '0' });
  }
  private readonly started: number;
  update(done: number): void {
    const s = (Date.now() - this.started) / 1000;
    this.bar.update(done, { rate: s > 0 ? Math.round(done / s).toLocaleString('en-US') : '0' });
  }
  stop(summary: string): void {
    this.bar.stop();
    process.stderr.write(`${summary}\n`);
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
}

/** A progress report on stderr: a bar on a TTY, plain lines (or nothing) otherwise. */
export function startProgress(verb: string, total?: number, options: ProgressOptions = {}): Progress {
  const unit = options.unit ?? 'calls';
  if (options.enabled === false) return SILENT;
  const stderr = (globalThis as { process?: { stderr?: { isTTY?: boolean } } }).process?.stderr;
  if (stderr === undefined) return SILENT; // no process.stderr (Vercel Edge)
  const bars = stderr.isTTY ? loadCliProgress() : undefined;
  if (bars) return new BarProgress(bars, verb, total, unit);
  return options.piped === 'silent' ? SILENT : new PlainProgress(verb, total, unit);
}

/** `1,234 calls in 2.1 s (588/s)`. */
export function rateSummary(count: number, startedMs: number): string {
  const s = (Date.now() - startedMs) / 1000;
  return `${count.toLocaleString('en-US')} calls in ${s.toFixed(1)} s (${Math.round(count / Math.max(s, 0.001)).toLocaleString('en-US')}/s)`;
}
