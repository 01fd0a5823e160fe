/**
 * The monitor pass's view of any server over HTTP (`weft monitors run`): stream queries and feedback through the
 * typed client, the monitors and their progress through weft's `/weft/monitors/*` routes.
 * @module
 */
import type { Client } from 'weft-trace/client';
import type { EndedCall, MonitorPort } from 'weft-trace/eval';
import { MONITOR_PATHS, MonitorListRes, MonitorProgressRes } from 'weft-trace/wire';

/** A {@link MonitorPort} over a client: the monitors of `project`, or of every project when it is undefined. */
export function httpPort(client: Client, project: string | undefined): MonitorPort {
  return {
    monitors: async () => (await client.transport.post(MONITOR_PATHS.list, { project_id: project ?? null }, MonitorListRes)).monitors,
    query: async (body) => {
      const out: EndedCall[] = [];
      for await (const record of client.calls.streamQuery(body as Parameters<Client['calls']['streamQuery']>[0])) out.push(record as EndedCall);
      return out;
    },
    writeFeedback: async (batch) => void (await client.feedback.create({ batch })),
    saveProgress: async (m, endedAt, callId) => {
      const body = { project_id: m.project_id, id: m.id, cursor_ended_at: endedAt, cursor_call_id: callId };
      try {
        return (await client.transport.post(MONITOR_PATHS.progress, body, MonitorProgressRes)).saved;
      } catch (e) {
        if ((e as { status?: number }).status === 404) return false;
        throw e;
      }
    },
  };
}
