/**
 * Test helper: Chromium (`WEFT_CHROMIUM`, chosen by packages/test-kit/src/chromium.ts) driven by playwright-core (headless, no network beyond loopback), and a
 * `weft serve` child that prints its trace viewer URL.
 * @module
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { killGroup, spawnCli } from 'weft-test-kit/child-processes.js';
import { chromiumLaunchOptions } from 'weft-test-kit/chromium.js';
import { type FreshDatabase, freshPgDatabase } from 'weft-test-kit/pg.js';
import { testStore } from 'weft-test-kit/test-store.js';

/** Launches the run's Chromium (set by the global setup; resolved here when a file runs outside it). */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch(await chromiumLaunchOptions());
}

/** A `weft serve` child: its process, its output so far, and the viewer URL it printed. */
export interface ServeChild {
  proc: ChildProcess;
  output: () => string;
  viewerUrl: Promise<string>;
}

/** Spawns `node dist/cli.js serve ...args` and resolves `viewerUrl` from its `trace viewer: <url>/` line. */
export function serveChild(args: readonly string[]): ServeChild {
  const proc = spawnCli(['serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const viewerUrl = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const m = /trace viewer: (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (m) resolve(m[1]!);
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`weft serve exited with ${code} before printing its URL:\n${out}`)));
  });
  return { proc, output: () => out, viewerUrl };
}

/** Kills the server's process group and waits until it has exited (so the suite's teardown finds nothing left). */
export async function stopServe(server: ServeChild): Promise<void> {
  const { proc } = server;
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  killGroup(proc);
  await exited;
}

/**
 * A page (1400 x 850, or `viewport`) that records script errors and requests leaving `origin` in `problems` (a test
 * expects it empty); `data:` URLs and `blob:` URLs of `origin` stay on it.
 */
export async function openCheckedPage(browser: Browser, origin: string, viewport = { width: 1400, height: 850 }): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('request', (req) => {
    // blob: URLs of the page's own origin hold bytes it read from the server (media on a server with API keys)
    const url = req.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith(`blob:${origin}/`)) problems.push(`request off the server: ${url}`);
  });
  return { page, problems };
}

/** What {@link useViewerServer} started: the viewer's URL, the browser, and a temp folder removed after the file. */
export interface ViewerRun {
  url: string;
  browser: Browser;
  dir: string;
  /** Where screenshots go: `WEFT_UI_SHOTS` (how docs/*.png are made), else {@link dir}. */
  shots: string;
}

/**
 * Registers hooks that start, for the file, Chromium and a `weft serve` child on the run's store (a SQLite file in a
 * temp folder, or a fresh PostgreSQL database named after `label` in the postgres project), and stop them after.
 * @returns a getter for the run (throws before `beforeAll` ran).
 */
export function useViewerServer(label: string): () => ViewerRun {
  let run: ViewerRun | undefined;
  let pgDb: FreshDatabase | undefined;
  let server: ServeChild | undefined;
  let browser: Browser | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), `weft-ui-${label}-`));
    pgDb = testStore() === 'postgres' ? await freshPgDatabase(label.replace(/\W/g, '_')) : undefined;
    let url: string;
    [browser, url] = await Promise.all([launchChromium(), (server = serveChild(['--port', '0', '--db', pgDb?.url ?? path.join(dir, 'weft.db')])).viewerUrl]);
    run = { url, browser, dir, shots: process.env['WEFT_UI_SHOTS'] ?? dir };
  });
  afterAll(async () => {
    await browser?.close();
    if (server) await stopServe(server);
    await pgDb?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (!run) throw new Error('useViewerServer(): the server starts in beforeAll; read it inside a test');
    return run;
  };
}
