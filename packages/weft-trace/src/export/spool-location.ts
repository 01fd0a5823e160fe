/**
 * Where the disk spool lives: by default a directory under the OS temp directory keyed by base URL and project (`spoolDir: false` or `WEFT_SPOOL_DIR=off`: none), and the command that sends it now.
 * @module
 */
import type * as Os from 'node:os';
import type * as Path from 'node:path';
import { diag } from '../internal/diag.js';
import { nodeBuiltin } from '../internal/runtime.js';

const os = nodeBuiltin('node:os') as typeof Os | undefined;
const path = nodeBuiltin('node:path') as typeof Path | undefined;

/** `http://host:port/path` without a trailing slash: the same service however its URL was written. */
export function serviceKey(baseUrl: string): string {
  const u = new URL(baseUrl);
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
}

/** FNV-1a (32 bit) of `text`, 8 hex digits: tells apart URLs and projects whose readable names collide. */
export function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/**
 * The default spool directory of `project` at `baseUrl`:
 * `<tmpdir>/weft-spool-<uid>/<host>_<port>-<entity>_<project>-<hash>` (the uid keeps users of one machine
 * apart). `undefined` where the runtime has no file system, or only one that dies with the isolate (Cloudflare
 * Workers' `nodejs_compat`), said once at `info`; nothing is created here.
 */
export function defaultSpoolDir(baseUrl: string, project: string): string | undefined {
  if (!os || !path || nodeBuiltin('node:fs') === undefined || isWorker()) {
    diag.once('spool-off-default', 'info', 'this runtime has no lasting file system (node:fs): the disk spool is off, events that cannot be sent are dropped');
    return undefined;
  }
  const key = serviceKey(baseUrl);
  const readable = `${new URL(key).host}-${project}`.replace(/[^A-Za-z0-9.-]+/g, '_');
  const uid = typeof process.getuid === 'function' ? `-${process.getuid()}` : '';
  return path.join(os.tmpdir(), `weft-spool${uid}`, `${readable}-${shortHash(`${key} ${project}`)}`);
}

/** The spool directory `init()` uses: `spoolDir` as given, none for `false`, else the default one. */
export function resolveSpoolDir(spoolDir: string | false | undefined, baseUrl: string, project: string): string | undefined {
  if (spoolDir === false) return undefined;
  return spoolDir ?? defaultSpoolDir(baseUrl, project);
}

/**
 * Where the answered-marker of `baseUrl` goes (`answered-marker.ts`): beside the default spool directories
 * (one marker per service for all projects), or in a `spoolDir` given.
 */
export function markerDirOf(spoolDir: string, baseUrl: string, project: string): string {
  return path && spoolDir === defaultSpoolDir(baseUrl, project) ? path.dirname(spoolDir) : spoolDir;
}

/** The shell command that sends the spool `dir` of `project` to `baseUrl` now (`weft spool flush`). */
export function flushCommand(dir: string, baseUrl: string, project: string): string {
  const where = dir === defaultSpoolDir(baseUrl, project) ? `--project ${project}` : `--dir ${quote(dir)}`;
  return `npx weft spool flush --base-url ${baseUrl} ${where}`;
}

function quote(text: string): string {
  return /^[\w./:@-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Cloudflare Workers (its `navigator.userAgent`): `nodejs_compat`'s `node:fs` is in memory and ends with the isolate. */
function isWorker(): boolean {
  return (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers';
}
