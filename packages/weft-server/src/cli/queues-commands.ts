/**
 * `weft queues field | create | add | ls | show | export`: review queues (issue 50). Fields are the questions
 * reviewers answer (thumbs, score, category, text), queues hold the calls to review; answers are feedback on the
 * calls, exported as JSONL. Reviewers work in the viewer's Queues page.
 * @module
 */
import { createWriteStream } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { z } from 'zod';
import type { Client } from 'weft-trace/client';
import { loadRun } from 'weft-trace/eval';
import { type AnnotationField, FIELD_TYPES, type Queue, type QueueProgress, REVIEW_PATHS } from 'weft-trace/wire';
import { withConnection } from './connection.js';
import { CliError } from './exit.js';
import { colorsFor, localTime, makeTable } from './output.js';
import { withProjectClient } from './project-client.js';
import { parsePositiveInt } from './time-options.js';

interface QueueOptions {
  baseUrl: string;
  apiKey?: string;
  project?: string;
  verbose?: boolean;
  json?: boolean;
}

/** POSTs to a review route; the server validated what it answers. */
const post = <T>(client: Client, path: string, body: unknown): Promise<T> => client.transport.post(path, body, z.unknown()) as Promise<T>;
const collect = (value: string, list: string[] = []): string[] => [...list, value];
const number = (value: string): number => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError(`expected a number, got ${JSON.stringify(value)}`);
  return n;
};
const json = (value: string): Record<string, unknown> => {
  try {
    return JSON.parse(value) as Record<string, unknown>;
  } catch {
    throw new InvalidArgumentError(`expected JSON, got ${JSON.stringify(value)}`);
  }
};
const print = (opts: QueueOptions, value: unknown, text: string): void => void process.stdout.write(opts.json ? `${JSON.stringify(value, null, 2)}\n` : text);

function fieldCommand(): Command {
  return withConnection(new Command('field'))
    .description('create an annotation field, or its next version (same spec: same version)')
    .argument('<name>', 'the field name (letters, digits, _ - .)')
    .requiredOption('--type <type>', FIELD_TYPES.join(' | '))
    .option('--description <text>', 'shown to reviewers beside the field', '')
    .option('--min <n>', 'score: lowest value', number)
    .option('--max <n>', 'score: highest value', number)
    .option('--step <n>', 'score: step between values', number)
    .option('--labels <a,b,c>', 'category: the labels, comma separated', (v: string) => v.split(',').map((l) => l.trim()).filter(Boolean))
    .option('--multiple', 'category: several labels may be chosen', false)
    .option('--json', 'print the field as JSON', false)
    .action((name: string, opts: QueueOptions & { type: string; description: string; min?: number; max?: number; step?: number; labels?: string[]; multiple: boolean }) =>
      withProjectClient(opts, async (client, project) => {
        const { type, description, min, max, step, labels, multiple } = opts;
        const body = { project_id: project, name, type, description, min, max, step, labels, ...(type === 'category' ? { multiple } : {}) };
        const f = await post<AnnotationField>(client, REVIEW_PATHS.fieldCreate, body);
        print(opts, f, `field ${f.name} (${f.type}), version ${f.version_index}: ${f.ref}\n`);
      }));
}

/** The refs of fields named by ref or by name (the latest version). */
async function fieldRefs(client: Client, project: string, names: readonly string[]): Promise<string[]> {
  const { fields } = await post<{ fields: AnnotationField[] }>(client, REVIEW_PATHS.fieldList, { project_id: project });
  return names.map((n) => {
    if (n.startsWith('svc:///')) return n;
    const f = fields.find((x) => x.name === n);
    if (!f) throw new CliError(`no annotation field ${JSON.stringify(n)} in ${project} (create it with weft queues field ${n} --type <type>)`);
    return f.ref;
  });
}

function createCommand(): Command {
  return withConnection(new Command('create'))
    .description('create a queue: its fields, instructions, and optionally a dynamic filter or a monitor that fills it')
    .argument('<name>', 'the queue name')
    .requiredOption('--field <name|ref>', 'a field reviewers answer (repeat for several, in order)', collect)
    .option('--instructions <text>', 'shown to reviewers', '')
    .option('--scope <scope>', 'call | trace | thread: what an item stands for', 'call')
    .option('--dynamic-op <name>', 'fill continuously with new calls of this op (repeat for several)', collect)
    .option('--dynamic-filter <json>', 'fill continuously with new calls matching this calls filter (JSON)', json)
    .option('--sample <fraction>', 'dynamic: the fraction of the matching calls added', number, 1)
    .option('--monitor <id>', "fill with the calls this monitor scores under --threshold")
    .option('--threshold <n>', 'monitor: the score under which a call is added', number)
    .option('--json', 'print the queue as JSON', false)
    .action((name: string, opts: QueueOptions & { field: string[]; instructions: string; scope: string; dynamicOp?: string[]; dynamicFilter?: Record<string, unknown>; sample: number; monitor?: string; threshold?: number }) =>
      withProjectClient(opts, async (client, project) => {
        if (opts.monitor && opts.threshold === undefined) throw new CliError('--monitor needs --threshold <n>', 2);
        const filter = opts.dynamicOp || opts.dynamicFilter ? { ...opts.dynamicFilter, ...(opts.dynamicOp ? { op_names: opts.dynamicOp } : {}) } : undefined;
        const q = await post<Queue>(client, REVIEW_PATHS.queueCreate, {
          project_id: project, name, instructions: opts.instructions, scope: opts.scope, fields: await fieldRefs(client, project, opts.field),
          ...(filter ? { dynamic: { filter, sample_rate: opts.sample } } : {}), ...(opts.monitor ? { monitor: { monitor_id: opts.monitor, threshold: opts.threshold } } : {}),
        });
        print(opts, q, `created queue ${q.name} (${q.id}) with ${q.fields.length} field(s)${q.dynamic ? ', filled from new calls' : ''}${q.monitor ? ', filled by a monitor' : ''}\n`);
      }));
}

function addCommand(): Command {
  return withConnection(new Command('add'))
    .description('add items to a queue: calls, traces, threads, pairs, or every call a filter matches now')
    .argument('<queue>', 'the queue name or id')
    .option('--call <id>', 'a call (repeat)', collect)
    .option('--trace <id>', "a trace (its root call's answers; repeat)", collect)
    .option('--thread <id>', 'a thread (repeat)', collect)
    .option('--pair <a,b>', 'two calls on the same input, compared (repeat)', collect)
    .option('--runs <a,b>', 'pairs: the same dataset rows of two evaluation runs (run ids, weft eval ls)')
    .option('--op <name>', 'every call of this op (repeat)', collect)
    .option('--filter <json>', 'every call matching this calls filter (JSON)', json)
    .option('--limit <n>', 'at most this many calls from --op / --filter', parsePositiveInt, 10_000)
    .action((queue: string, opts: QueueOptions & { call?: string[]; trace?: string[]; thread?: string[]; pair?: string[]; runs?: string; op?: string[]; filter?: Record<string, unknown>; limit: number }) =>
      withProjectClient(opts, async (client, project) => {
        const items = [
          ...(opts.runs ? await rowPairs(client, project, opts.runs) : []),
          ...(opts.call ?? []).map((call_id) => ({ call_id })), ...(opts.trace ?? []).map((trace_id) => ({ trace_id })),
          ...(opts.thread ?? []).map((thread_id) => ({ thread_id })), ...(opts.pair ?? []).map((p) => ({ call_ids: p.split(',').map((s) => s.trim()) })),
        ];
        const filter = opts.op || opts.filter ? { ...opts.filter, ...(opts.op ? { op_names: opts.op } : {}) } : undefined;
        if (items.length === 0 && !filter) throw new CliError(opts.runs ? `runs ${opts.runs} share no dataset row` : 'name what to add: --call, --trace, --thread, --pair, --runs, --op or --filter', 2);
        const { added } = await post<{ added: number }>(client, REVIEW_PATHS.queueAdd, {
          project_id: project, queue_id: queue, ...(items.length ? { items } : {}), ...(filter ? { filter, limit: opts.limit } : {}),
        });
        process.stdout.write(`added ${added} item(s) to ${queue}\n`);
      }));
}

/** The pairs of two evaluation runs: their `predict_and_score` calls of the same dataset row, in the first run's order. */
async function rowPairs(client: Client, project: string, runs: string): Promise<{ call_ids: string[] }[]> {
  const ids = runs.split(',').map((s) => s.trim());
  if (ids.length !== 2) throw new CliError(`--runs takes two run ids separated by a comma, got ${JSON.stringify(runs)}`, 2);
  const [a, b] = await Promise.all(ids.map((id) => loadRun(client, project, id)));
  if (!a || !b) throw new CliError(`no evaluation run ${ids[a ? 1 : 0]} in ${project} (weft eval ls lists them)`);
  const byKey = new Map(b.rows.map((r) => [r.key, r.id]));
  return a.rows.flatMap((r) => (byKey.has(r.key) ? [{ call_ids: [r.id, byKey.get(r.key)!] }] : []));
}

const progressText = (p: QueueProgress): string => `${p.done + p.skipped}/${p.total}`;

function lsCommand(): Command {
  return withConnection(new Command('ls'))
    .description("list a project's queues with their progress")
    .option('--json', 'print the queues as a JSON array', false)
    .action((opts: QueueOptions) => withProjectClient(opts, async (client, project) => {
      const { queues } = await post<{ queues: (Queue & { progress: QueueProgress })[] }>(client, REVIEW_PATHS.queueList, { project_id: project });
      if (opts.json) return void process.stdout.write(`${JSON.stringify(queues, null, 2)}\n`);
      if (queues.length === 0) return void process.stdout.write(`no queues in ${project} (create one with weft queues create <name> --field <name>)\n`);
      const table = makeTable(['name', 'reviewed', 'pending', 'taken', 'skipped', 'fill', 'created'], colorsFor(process.stdout));
      for (const q of queues) {
        const fill = [q.dynamic ? `new calls (${q.dynamic.sample_rate})` : '', q.monitor ? `monitor < ${q.monitor.threshold}` : ''].filter(Boolean).join(', ') || 'by hand';
        table.push([q.name, progressText(q.progress), String(q.progress.pending), String(q.progress.taken), String(q.progress.skipped), fill, localTime(q.created_at)]);
      }
      process.stdout.write(`${table.toString()}\n`);
    }));
}

function showCommand(): Command {
  return withConnection(new Command('show'))
    .description("a queue's fields, instructions and progress, per reviewer")
    .argument('<queue>', 'the queue name or id')
    .option('--json', 'print the queue, fields and progress as JSON', false)
    .action((queue: string, opts: QueueOptions) => withProjectClient(opts, async (client, project) => {
      const res = await post<{ queue: Queue; fields: AnnotationField[]; progress: QueueProgress }>(client, REVIEW_PATHS.queueRead, { project_id: project, queue_id: queue });
      const { queue: q, fields, progress: p } = res;
      const lines = [
        `queue ${q.name} (${q.id})`, `progress: ${progressText(p)} reviewed (${p.done} done, ${p.skipped} skipped), ${p.pending} pending, ${p.taken} taken`,
        `fields: ${fields.map((f) => `${f.name} (${f.type})`).join(', ')}`, ...(q.instructions ? [`instructions: ${q.instructions}`] : []),
        ...Object.entries(p.reviewers).map(([name, r]) => `  ${name}: ${r.done} done, ${r.skipped} skipped`),
      ];
      print(opts, res, `${lines.join('\n')}\n`);
    }));
}

function exportCommand(): Command {
  return withConnection(new Command('export'))
    .description("a queue's answers as JSONL, one answer a line: call_id, field, value, reviewer, created_at, annotation_ref, feedback_id")
    .argument('<queue>', 'the queue name or id')
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .action((queue: string, opts: QueueOptions & { output?: string }) => withProjectClient(opts, async (client, project) => {
      const { queue: q } = await post<{ queue: Queue }>(client, REVIEW_PATHS.queueRead, { project_id: project, queue_id: queue });
      const { answers } = await post<{ answers: { id: string; call_id: string | null; feedback_type: string; payload: { value?: unknown }; creator: string | null; created_at: string; annotation_ref: string | null }[] }>(
        client, REVIEW_PATHS.queueAnswers, { project_id: project, queue_id: q.id });
      const out = opts.output ? createWriteStream(opts.output) : process.stdout;
      for (const a of answers) {
        const line = { queue: q.name, call_id: a.call_id, field: a.feedback_type.replace(/^wandb\.annotation\./, ''), value: a.payload.value ?? null,
          reviewer: a.creator, created_at: a.created_at, annotation_ref: a.annotation_ref, feedback_id: a.id };
        out.write(`${JSON.stringify(line)}\n`);
      }
      if (out !== process.stdout) await new Promise<void>((resolve, reject) => (out as ReturnType<typeof createWriteStream>).end((err?: Error | null) => (err ? reject(err) : resolve())));
    }));
}

/** The `queues` command and its subcommands. */
export function queuesCommand(): Command {
  return new Command('queues')
    .description('review queues: fields reviewers answer, calls to review, progress, answers as JSONL')
    .addCommand(fieldCommand())
    .addCommand(createCommand())
    .addCommand(addCommand())
    .addCommand(lsCommand())
    .addCommand(showCommand())
    .addCommand(exportCommand());
}
