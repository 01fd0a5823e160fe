/**
 * The viewer link of the first trace, printed once per process when the SDK sends to a `weft serve` (its
 * `GET /server_info` answers `server: "weft"`), so a newcomer finds the trace they just made. Off with
 * `init({ printViewerLink: false })`.
 * @module
 */
import { diag } from '../internal/diag.js';
import { untraced } from '../internal/otel-global.js';
import { viewerLink } from '../internal/viewer-link.js';
import type { StartedCallSchemaForInsert } from '../schema/calls.js';


/** Once per process, whatever the number of `init()` calls (a module flag of the copy that prints). */
let claimed = false;

/** Watches call starts; the first root start asks the server what it is and prints the link when it is weft serve. */
export class ViewerLinkNotice {
  /**
   * @param baseUrl - where events are sent.
   * @param project - `<entity>/<project>`.
   * @param authHeader - the headers of the server's auth (the transport's), for a server started with `--api-key`.
   * @param write - where the line goes. @defaultValue standard error
   */
  constructor(
    private readonly baseUrl: string,
    private readonly project: string,
    private readonly authHeader: Record<string, string>,
    private readonly write: (line: string) => void = (line) => void (globalThis as { process?: { stderr?: { write(s: string): unknown } } }).process?.stderr?.write(line),
  ) {}

  /**
   * Called with each call start; never throws, never delays the caller (the check runs in the background).
   * @returns the background check of the first root start (it never rejects), else undefined.
   */
  seen(start: StartedCallSchemaForInsert): Promise<void> | undefined {
    if (claimed || start.parent_id) return undefined;
    claimed = true;
    const traceId = start.trace_id;
    if (!traceId) return undefined;
    return this.check(traceId).catch((err: unknown) => diag.debug(`viewer link: ${String(err)}`));
  }

  private async check(traceId: string): Promise<void> {
    // the runtime's fetch (on every runtime; undici is not loadable on Workers and Edge), 5 s at most
    const res = await untraced(() => fetch(`${this.baseUrl.replace(/\/+$/, '')}/server_info`, { headers: this.authHeader, signal: AbortSignal.timeout(5000) }));
    const body = (await res.json().catch(() => undefined)) as { server?: unknown } | undefined;
    if (res.status !== 200 || body?.server !== 'weft') return;
    this.write(`weft: trace viewer: ${viewerLink(this.baseUrl, this.project, traceId)} (init({ printViewerLink: false }) turns this line off)\n`);
  }
}

/** Lets the next process-wide first trace print again (tests). */
export function resetViewerLinkNotice(): void {
  claimed = false;
}
