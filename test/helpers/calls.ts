// Test helper: read back every call of a project from a real server, as records.
import { Client } from '../../src/api/client.js';
import type { CallRecord, CallsQueryReq } from '../../src/schema/calls.js';

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
