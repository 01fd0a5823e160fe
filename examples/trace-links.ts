// The demo's last lines: a stable trace-viewer link per trace (`<url>/#/p/<project>/trace/<trace_id>`).
import type { CallRecord } from '../packages/weft-trace/src/schema/index.js';
import { viewerLink as traceLink } from '../packages/weft-server/src/cli/viewer-link.js';

/** One line per root call (op, status, link), with how to open them when no server is running
 * (`storedIn`: the database file the traces went to, null when a server received them). */
export function traceLinks(calls: readonly CallRecord[], viewerUrl: string, project: string, storedIn: string | null): string {
  const roots = calls.filter((c) => c.parent_id === null || c.parent_id === undefined);
  const lines = roots.map((r) => {
    const failed = r.exception !== null && r.exception !== undefined;
    const below = ((r.summary as { status_counts?: { error?: number } } | null)?.status_counts?.error ?? 0) > 0;
    const mark = failed ? '✗' : below ? '⚠' : '✓';
    return `  ${mark} ${r.op_name.padEnd(16)} ${traceLink(viewerUrl, project, r.trace_id)}`;
  });
  const how = storedIn !== null ? `Stored in ${storedIn}. Run \`npx weft serve\` here and open ${viewerUrl}/ , or a trace:` : `Open the trace viewer at ${viewerUrl}/ , or a trace:`;
  return `${how}\n${lines.join('\n')}\n`;
}
