// Test helpers: read back every call of a project from a real server, as records; wait for calls to arrive.
import { Client } from 'weft-trace';
import type { CallRecord, CallsQueryReq } from 'weft-trace';

/** All calls of `project` on the server at `baseUrl` (default order), optionally filtered. */
export async function readCalls(baseUrl: string, project: string, extra: Omit<CallsQueryReq, 'project_id'> = {}): Promise<CallRecord[]> {
  const client = new Client({ baseUrl });
  try {
    return await client.calls.streamQuery({ project_id: project, ...extra }).toArray();
  } finally {
    await client.close();
  }
}

/** A unique project id per test, so tests sharing a server never see each other's calls. */
export function uniqueProject(label: string): string {
  return `test/${label}-${Math.random().toString(36).slice(2, 10)}`;
}

/** Polls the server at `baseUrl` until `project` has `n` ended calls, or `ms` pass; returns how many it saw. */
export async function waitForEnded(baseUrl: string, project: string, n: number, ms: number): Promise<number> {
  const deadline = Date.now() + ms;
  let ended = 0;
  while (Date.now() < deadline) {
    ended = (await readCalls(baseUrl, project)).filter((c) => c.ended_at).length;
    if (ended >= n) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return ended;
}
