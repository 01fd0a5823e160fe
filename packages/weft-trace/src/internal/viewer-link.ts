/**
 * The trace viewer's link to a trace or a call (`<base>/#/p/<project>/trace/<trace_id>[/<call_id>]`, the shape packages/weft-server/src/ui/route.ts reads).
 * @module
 */

/**
 * A stable viewer link, as `weft serve` serves the viewer at its base URL.
 *
 * @param baseUrl - the server's base URL (a trailing `/` is dropped).
 * @param project - `<entity>/<project>`.
 * @param traceId - the trace to open.
 * @param callId - the call to select in it; none selects the root.
 */
export function viewerLink(baseUrl: string, project: string, traceId: string, callId?: string): string {
  const call = callId === undefined ? '' : `/${encodeURIComponent(callId)}`;
  return `${baseUrl.replace(/\/+$/, '')}/#/p/${encodeURIComponent(project)}/trace/${encodeURIComponent(traceId)}${call}`;
}
