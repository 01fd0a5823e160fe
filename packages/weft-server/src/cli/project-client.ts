/**
 * Runs a command's work with a client for its connection and its required project, closing the client after.
 * @module
 */
import type { Client } from 'weft-trace/client';
import { clientFor, connectionOf, requireProject } from './connection.js';

/** Calls `fn(client, project)` with a client for the shared options; closes the client after. */
export async function withProjectClient<T>(opts: { baseUrl: string; apiKey?: string; project?: string; verbose?: boolean }, fn: (client: Client, project: string) => Promise<T>): Promise<T> {
  const conn = connectionOf(opts);
  const client = clientFor(conn);
  try {
    return await fn(client, requireProject(conn));
  } finally {
    await client.close();
  }
}
