/**
 * `weft calls import <file.jsonl>`: stores calls exported by `weft calls export` (or any stream_query
 * records) into a server, as upsert batches of starts and ends keyed by call id, and their feedback
 * (`summary.feedback`) keyed by feedback id, so an import run again after an interruption stores nothing twice; the
 * export's media files (`weft.file` lines, call-files.ts) are stored, by content, before the calls after them.
 * @module
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Command } from 'commander';
import type { Client } from 'weft-trace/client';
import { jsonlLines } from 'weft-trace/client';
import type { CallRecord, UpsertBatchItem } from 'weft-trace/wire';
import type { FeedbackCreateReq } from 'weft-trace/wire';
import { clientFor, connectionOf, withConnection } from './connection.js';
import { CliError } from './exit.js';
import { feedbackItems } from './import-feedback.js';
import { rateSummary, startProgress } from 'weft-trace/client';
import { cliBar } from './progress-bar.js';
import { isFileLine, storeFileLine } from './call-files.js';

interface ImportOptions {
  baseUrl: string;
  apiKey?: string;
  project?: string;
}

/** Calls per request (two items each, within the server's batch limits). */
const CALLS_PER_BATCH = 400;
/** A batch is also sent once it carries this much feedback (items of one feedback create request). */
const FEEDBACK_PER_BATCH = 500;
/** A batch is also sent once its JSON passes this size (bytes). */
const BATCH_BYTES = 2 * 1024 * 1024;
/** `summary` keys the server derives on read; they are not sent back. */
const DERIVED_SUMMARY = new Set(['status', 'latency_ms', 'costs', 'feedback']);

/** The start item and, for an ended call, the end item that store `record` again (in `project`). */
export function recordToItems(record: CallRecord, project: string): UpsertBatchItem[] {
  const start: UpsertBatchItem = {
    mode: 'start',
    req: {
      start: {
        project_id: project, id: record.id, op_name: record.op_name, display_name: record.display_name ?? null,
        trace_id: record.trace_id, parent_id: record.parent_id ?? null, thread_id: record.thread_id ?? null,
        turn_id: record.turn_id ?? null, started_at: record.started_at, attributes: record.attributes ?? {},
        inputs: record.inputs ?? {}, svc_run_id: record.svc_run_id ?? null, svc_run_step: record.svc_run_step ?? null,
        svc_user_id: record.svc_user_id ?? null,
      },
    },
  };
  if (!record.ended_at) return [start];
  const summary = Object.fromEntries(Object.entries(record.summary ?? {}).filter(([k]) => !DERIVED_SUMMARY.has(k)));
  const end: UpsertBatchItem = {
    mode: 'end',
    req: {
      end: {
        project_id: project, id: record.id, ended_at: record.ended_at, output: record.output, exception: record.exception ?? null, summary,
        svc_run_step_end: record.svc_run_step_end ?? null,
      },
    },
  };
  return [start, end];
}

/** Lines in a file (for the progress total), counted in bytes read. */
async function countLines(file: string): Promise<number> {
  let n = 0;
  for await (const chunk of createReadStream(file)) for (const b of chunk as Buffer) if (b === 10) n++;
  return n;
}

/** Reads the file line by line and sends its calls; returns how many were stored. */
export async function importCalls(client: Client, file: string, project: string | undefined): Promise<number> {
  const started = Date.now();
  await stat(file).catch((err: NodeJS.ErrnoException) => {
    throw new CliError(`cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  });
  const progress = startProgress('importing', process.stderr.isTTY ? await countLines(file) : undefined, { bar: cliBar });
  let batch: UpsertBatchItem[] = [];
  let feedback: FeedbackCreateReq[] = [];
  let feedbackStored = 0;
  let bytes = 0;
  let firstLine = 0;
  let lineNo = 0;
  let stored = 0;
  let files = 0;
  const send = async (): Promise<void> => {
    if (batch.length === 0) return;
    try {
      await client.calls.upsertBatch({ batch });
      // after their calls, in one request (a batch is cut at FEEDBACK_PER_BATCH items, a call's feedback all in one)
      if (feedback.length > 0) await client.feedback.create({ batch: feedback });
    } catch (err) {
      throw new CliError(`lines ${firstLine}-${lineNo} were not stored: ${err instanceof Error ? err.message : String(err)}`);
    }
    stored += batch.filter((item) => item.mode === 'start').length;
    progress.update(stored);
    feedbackStored += feedback.length;
    feedback = [];
    batch = [];
    bytes = 0;
  };
  for await (const line of jsonlLines(createReadStream(file))) {
    lineNo++;
    if (line.trim() === '') continue;
    let record: CallRecord;
    try {
      record = JSON.parse(line) as CallRecord;
    } catch (err) {
      throw new CliError(`${file}:${lineNo}: not JSON (${(err as Error).message}); ${stored} calls before it were stored`);
    }
    if (isFileLine(record)) {
      try {
        await storeFileLine(client, project ?? record.project_id, record);
      } catch (err) {
        throw new CliError(`${file}:${lineNo}: the file ${record.digest} was not stored: ${err instanceof Error ? err.message : String(err)}; ${stored} calls before it were stored`);
      }
      files++;
      continue;
    }
    if (!record || typeof record !== 'object' || typeof record.id !== 'string' || typeof record.project_id !== 'string') {
      throw new CliError(`${file}:${lineNo}: not a call record (expected an object with id, project_id, op_name, started_at); ${stored} calls before it were stored`);
    }
    if (batch.length === 0) firstLine = lineNo;
    batch.push(...recordToItems(record, project ?? record.project_id));
    feedback.push(...feedbackItems(record, project ?? record.project_id));
    bytes += line.length;
    if (batch.length >= CALLS_PER_BATCH * 2 || feedback.length >= FEEDBACK_PER_BATCH || bytes >= BATCH_BYTES) await send();
  }
  await send();
  const withFiles = files > 0 ? `, with ${files} file${files === 1 ? '' : 's'}` : '';
  progress.stop(`imported ${rateSummary(stored, started)} from ${file}${feedbackStored > 0 ? `, with ${feedbackStored} feedback records` : ''}${withFiles}`);
  return stored;
}

/** The `calls import` command. */
export function importCommand(): Command {
  return withConnection(new Command('import'))
    .description('store the calls of a JSONL file (from `weft calls export`); running it again stores nothing twice')
    .argument('<file>', 'JSONL file, one call record a line')
    .action(async (file: string, opts: ImportOptions) => {
      const conn = connectionOf(opts);
      const client = clientFor(conn);
      try {
        await importCalls(client, file, conn.project);
      } finally {
        await client.close();
      }
    });
}
