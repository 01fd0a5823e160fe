/**
 * The `strictOrder` testing aid: finds the ends in a batch whose call has no start, stored or earlier in the same batch.
 * @module
 */
import type { DetailItem } from 'weft-trace/wire';
import type { UpsertItem } from './call-fields.js';
import { keyOf } from './batch-staging.js';

/**
 * One validation item (`loc` `["body", "batch", i, "req", "end", "id"]`, type `value_error.end_before_start`)
 * per end of `items` whose call was not started: no stored start (`stored`) and no start earlier in `items`.
 */
export function endsBeforeStart(stored: (projectId: string, id: string) => boolean, items: readonly UpsertItem[]): DetailItem[] {
  const started = new Set<string>();
  const out: DetailItem[] = [];
  items.forEach((item, i) => {
    if (item.mode === 'start') {
      if (item.req.start.id) started.add(keyOf(item.req.start.project_id, item.req.start.id));
      return;
    }
    const { project_id, id } = item.req.end;
    if (started.has(keyOf(project_id, id)) || stored(project_id, id)) return;
    out.push({
      loc: ['body', 'batch', String(i), 'req', 'end', 'id'],
      msg: `end before start: call ${id} has no stored start (the server runs with strictOrder)`,
      type: 'value_error.end_before_start',
    });
  });
  return out;
}
