/**
 * The monitor pass's view of `weft serve`'s own store: the same stream queries and feedback writes the routes run,
 * without HTTP, so the server scores its monitors itself.
 * @module
 */
import { CallsQueryReq } from 'weft-trace/wire';
import { FeedbackCreateReq } from 'weft-trace/wire';
import type { EndedCall, MonitorPort } from 'weft-trace/eval';
import type { StoreParts } from './server-store.js';

/** A {@link MonitorPort} over a store's parts (every project's monitors). */
export function storePort(store: Pick<StoreParts, 'calls' | 'feedback' | 'monitors'>): MonitorPort {
  return {
    monitors: async () => store.monitors.list(),
    query: async (body) => {
      const cursor = await store.calls.queryCalls(CallsQueryReq.parse(body));
      try {
        return (await cursor.next(Number(body['limit']))) as unknown as EndedCall[];
      } finally {
        await cursor.close();
      }
    },
    writeFeedback: async (items) => void (await store.feedback.createBatch(items.map((i) => FeedbackCreateReq.parse(i)))),
    saveProgress: async (m, endedAt, callId) => store.monitors.saveProgress(m.project_id, m.id, endedAt, callId),
  };
}
