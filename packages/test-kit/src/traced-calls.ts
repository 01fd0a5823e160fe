// Test helper for instrument tests: init against the file's server, run a workload, flush, read the calls back.
import { expect } from 'vitest';
import { flush, init, type InitOptions } from 'weft-trace';
import type { CallRecord } from 'weft-trace';
import type { RunningServer } from 'weft-server';
import { readCalls, uniqueProject } from './calls.js';

/** Inits weft for a fresh project on `server`, runs `run`, flushes, and returns the project's calls. */
export async function traced(server: RunningServer, label: string, run: () => unknown, options: InitOptions = {}): Promise<CallRecord[]> {
  const project = uniqueProject(label);
  init({ project, baseUrl: server.url, flushIntervalMs: 50, ...options });
  await run();
  const report = await flush();
  expect(report.dropped).toBe(0);
  return readCalls(server.url, project);
}

/** The one call named `name` (fails the test if there are none or several). */
export function one(calls: CallRecord[], name: string): CallRecord {
  const found = calls.filter((c) => c.op_name === name);
  expect(found, `exactly one call of ${name}`).toHaveLength(1);
  return found[0] as CallRecord;
}
