/**
 * The CLI's progress bar on a terminal: count, rate and ETA, drawn by cli-progress (the SDK's reports draw one line
 * without it: `internal/progress.ts`).
 * @module
 */
import cliProgress from 'cli-progress';
import type { Progress } from 'weft-trace/client';

/** The bar on a terminal. */
class BarProgress implements Progress {
  private readonly bar: cliProgress.SingleBar;
  constructor(verb: string, total: number | undefined, unit: string) {
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

/** The `bar` option of `startProgress` for CLI commands. */
export const cliBar = (verb: string, total: number | undefined, unit: string): Progress => new BarProgress(verb, total, unit);
