/**
 * What the server, the CLI and the viewer share about monitors, zod-free (the viewer imports it): the routes' paths,
 * the `trigger_ref` that marks a monitor's feedback, and the metric its scores are charted by.
 * @module
 */

/** Paths of the monitor routes (POST, JSON bodies). */
export const MONITOR_PATHS = {
  create: '/weft/monitors/create',
  list: '/weft/monitors/list',
  delete: '/weft/monitors/delete',
  progress: '/weft/monitors/progress',
} as const;

/**
 * The `trigger_ref` of a monitor's feedback: `svc:///<project>/object/weft_monitor:<monitor id>`;
 * `svc:///<project>/object/weft_monitor:*` selects every monitor's in `/feedback/stats`.
 */
export function monitorTriggerRef(projectId: string, monitorId: string | '*'): string {
  return `svc:///${projectId}/object/weft_monitor:${monitorId}`;
}

/**
 * The `/feedback/stats` metric a monitor's scores are charted by: `output.score` (numeric) for the LLM judge,
 * `output` as a boolean for `json_valid` (its `avg` is the fraction valid), else `output` as a number.
 */
export function monitorMetric(scorer: string): { json_path: string; value_type: 'numeric' | 'boolean' } {
  if (scorer === 'llm_judge') return { json_path: 'output.score', value_type: 'numeric' };
  return { json_path: 'output', value_type: scorer === 'json_valid' ? 'boolean' : 'numeric' };
}
