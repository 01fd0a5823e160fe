/**
 * Helpers of the feedback suites: a real server whose clock the test sets, a typed client, and feedback
 * created at chosen instants (the server stamps `created_at` from its clock, one reading per item).
 * @module
 */
import { afterAll, beforeAll } from 'vitest';
import { Client } from 'weft-trace';
import type { FeedbackCreateReq, FeedbackStatsReq, FeedbackStatsRes } from 'weft-trace';
import type { RunningServer } from 'weft-server';
import { useTestServer } from './server.js';

/** One feedback to create: when (`at`, ISO 8601) and what (payload, optional type and trigger). */
export interface At {
  at: string;
  payload?: Record<string, unknown>;
  feedback_type?: string;
  trigger_ref?: string;
}

/** What {@link useFeedbackServer} gives a suite. */
export interface FeedbackServer {
  server(): RunningServer;
  client(): Client;
  /** Sets what the server clock reads when no queued instant is pending. */
  setNow(iso: string): void;
  /** Creates one feedback per entry in `project`, each stamped with its `at`; returns the `res` items. */
  createAt(project: string, entries: readonly At[]): Promise<{ id: string; created_at: string }[]>;
  /** Runs stats in `project` through the typed client. */
  stats(project: string, body: Omit<FeedbackStatsReq, 'project_id'>): Promise<FeedbackStatsRes>;
}

/** Registers a server (clock under the test's control) and a client for the file. */
export function useFeedbackServer(): FeedbackServer {
  const queue: number[] = [];
  let now = Date.parse('2026-01-01T00:00:00.000Z');
  const server = useTestServer({ now: () => new Date(queue.shift() ?? now) });
  let client: Client | undefined;
  beforeAll(() => {
    client = new Client({ baseUrl: server().url, maxRetries: 0 });
  });
  afterAll(() => client?.close());
  const getClient = (): Client => {
    if (!client) throw new Error('the client is created in beforeAll');
    return client;
  };
  return {
    server,
    client: getClient,
    setNow: (iso) => void (now = Date.parse(iso)),
    async createAt(project, entries) {
      queue.push(...entries.map((e) => Date.parse(e.at)));
      const batch: FeedbackCreateReq[] = entries.map((e, i) => ({
        project_id: project,
        svc_ref: `svc:///${project}/call/call-${i}`,
        feedback_type: e.feedback_type ?? 'score',
        payload: e.payload ?? {},
        trigger_ref: e.trigger_ref,
      }));
      return (await getClient().feedback.create({ batch })).res;
    },
    stats: (project, body) => getClient().feedback.stats({ project_id: project, ...body }),
  };
}
