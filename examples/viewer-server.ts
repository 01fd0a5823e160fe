// Where `npm run demo` stores its traces so `weft serve` shows them: a `weft serve` already running on the
// default address, else the default database file that `weft serve` opens (weft.db in the current folder).
import path from 'node:path';
import { DEFAULT_HOST, DEFAULT_PORT, startServer } from '../packages/weft-server/src/server/index.js';
import type { DemoServer } from './local-server.js';

/** The trace viewer's address when `weft serve` runs with its defaults. */
export const DEFAULT_VIEWER_URL = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;

/** Whether a weft server answers on `url` (its projects route, within 500 ms). */
async function weftServerAt(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/weft/projects`, { signal: AbortSignal.timeout(500) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/** A demo server plus the viewer URL its traces will be visible at, and where they are stored. */
export interface ViewerServer extends DemoServer {
  viewerUrl: string;
  where: string;
  /** The database file written when no server was running, else null. */
  dbPath: string | null;
}

/**
 * `WEFT_BASE_URL` when set; else a `weft serve` on the default address; else an in-process server on a free
 * port over the default database file (`WEFT_DEMO_DB`, default `weft.db`, resolved like `weft serve --db`).
 */
export async function connectViewerServer(): Promise<ViewerServer> {
  const external = process.env['WEFT_BASE_URL'];
  if (external) return { url: external, viewerUrl: external, where: 'WEFT_BASE_URL', dbPath: null, startedHere: false, close: async () => {} };
  if (await weftServerAt(DEFAULT_VIEWER_URL)) {
    return { url: DEFAULT_VIEWER_URL, viewerUrl: DEFAULT_VIEWER_URL, where: 'the running weft serve', dbPath: null, startedHere: false, close: async () => {} };
  }
  const dbPath = path.resolve(process.env['WEFT_DEMO_DB'] ?? 'weft.db');
  const server = await startServer({ port: 0, dbPath });
  return { url: server.url, viewerUrl: DEFAULT_VIEWER_URL, where: `in-process server over ${dbPath}`, dbPath, startedHere: true, close: async () => server.close() };
}
