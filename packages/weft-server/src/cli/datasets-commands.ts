/**
 * `weft datasets ls | show | export | import | add`: datasets as the Weave SDKs and evaluate() publish them (a table of rows plus a `Dataset` object), to and from JSONL and CSV, and traced calls added to one.
 * @module
 */
import { readFile, writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import { Dataset } from 'weft-trace/eval';
import { datasetRefOf, expectedFromText, objectRef } from 'weft-trace/wire';
import { withConnection } from './connection.js';
import { CliError } from './exit.js';
import { withProjectClient } from './project-client.js';
import { formatOf, readRows, writeRows } from './dataset-files.js';
import { colorsFor, localTime, makeTable } from './output.js';
import { parsePositiveInt } from './time-options.js';

interface DatasetOptions {
  baseUrl: string;
  apiKey?: string;
  project?: string;
  json?: boolean;
  limit?: number;
  format?: string;
  output?: string;
  name?: string;
  description?: string;
  expected?: string;
}

function lsCommand(): Command {
  return withConnection(new Command('ls'))
    .description('list the datasets of a project (latest versions)')
    .option('--json', 'print the objects as JSON', false)
    .action((opts: DatasetOptions) => withProjectClient(opts, async (client, project) => {
      const { objs } = await client.objects.query({ project_id: project, filter: { base_object_classes: ['Dataset'], latest_only: true }, sort_by: [{ field: 'created_at', direction: 'desc' }] });
      if (opts.json) return void process.stdout.write(`${JSON.stringify(objs, null, 2)}\n`);
      if (objs.length === 0) return void process.stdout.write(`no datasets in ${project}\n`);
      const c = colorsFor(process.stdout);
      const table = makeTable(['name', 'versions', 'updated', 'ref'], c, ['left', 'right']);
      for (const o of objs) table.push([o.object_id, String(o.version_index + 1), localTime(o.created_at), objectRef(project, o.object_id, o.digest)]);
      process.stdout.write(`${table.toString()}\n`);
    }));
}

function showCommand(): Command {
  return withConnection(new Command('show'))
    .description('print a dataset\'s rows (JSONL)')
    .argument('<dataset>', 'name, name:<digest|vN>, or a weave:/// ref')
    .option('-n, --limit <n>', 'how many rows', parsePositiveInt, 20)
    .action((nameOrRef: string, opts: DatasetOptions) => withProjectClient(opts, async (client, project) => {
      const ds = await Dataset.load(client, datasetRefOf(project, nameOrRef));
      process.stderr.write(`${ds.published!.ref}  ${ds.length} rows\n`);
      process.stdout.write(writeRows(ds.rows.slice(0, opts.limit), 'jsonl'));
    }));
}

function exportCommand(): Command {
  return withConnection(new Command('export'))
    .description('write a dataset\'s rows as JSONL or CSV')
    .argument('<dataset>', 'name, name:<digest|vN>, or a weave:/// ref')
    .option('-o, --output <file>', 'file to write (default: stdout)')
    .option('--format <format>', 'jsonl or csv (default: from the file extension, else jsonl)')
    .action((nameOrRef: string, opts: DatasetOptions) => withProjectClient(opts, async (client, project) => {
      const ds = await Dataset.load(client, datasetRefOf(project, nameOrRef));
      const text = writeRows(ds.rows, formatOf(opts.format, opts.output));
      if (opts.output) {
        await writeFile(opts.output, text);
        process.stderr.write(`${ds.length} rows written to ${opts.output}\n`);
      } else process.stdout.write(text);
    }));
}

function importCommand(): Command {
  return withConnection(new Command('import'))
    .description('publish rows from a JSONL or CSV file as a dataset (a new version when the rows differ)')
    .argument('<file>', 'the rows: JSONL (one object a line) or CSV (a header row)')
    .requiredOption('--name <name>', 'the dataset name')
    .option('--format <format>', 'jsonl or csv (default: from the file extension, else jsonl)')
    .option('--description <text>', 'a line saying what the rows are')
    .action((file: string, opts: DatasetOptions) => withProjectClient(opts, async (client, project) => {
      const rows = readRows(await readFile(file, 'utf8'), formatOf(opts.format, file), file);
      const ds = new Dataset({ name: opts.name!, rows, ...(opts.description ? { description: opts.description } : {}) });
      const { ref } = await ds.publish(client, project);
      process.stdout.write(`${ref}\n`);
      process.stderr.write(`${rows.length} rows published as ${opts.name}\n`);
    }));
}

function addCommand(): Command {
  return withConnection(new Command('add'))
    .description('add traced calls to a dataset as rows {input, expected, source_call}: one new version (POST /weft/datasets/add_calls)')
    .argument('<dataset>', 'the dataset name (created by its first addition)')
    .argument('<call-ids...>', 'the calls to add, in order (a call already in the dataset has its row replaced)')
    .option('--expected <value>', 'the corrected expected output (JSON, else text) instead of the call\'s output; one call only')
    .option('--description <text>', 'a line saying what the rows are (default: the previous version\'s)')
    .action((dataset: string, ids: string[], opts: DatasetOptions) => withProjectClient(opts, async (client, project) => {
      if (opts.expected !== undefined && ids.length !== 1) throw new CliError(`--expected corrects one call; ${ids.length} call ids were given`, 2);
      const calls = ids.map((id) => (opts.expected === undefined ? { id } : { id, expected: expectedFromText(opts.expected) }));
      const res = await client.datasets.addCalls({ project_id: project, dataset, calls, ...(opts.description ? { description: opts.description } : {}) });
      process.stdout.write(`${res.ref}\n`);
      process.stderr.write(`${dataset} v${res.version_index}: ${res.rows} rows (${res.added} added, ${res.replaced} replaced${res.created ? '' : '; no new version'})\n`);
    }));
}

/** The `datasets` command group. */
export function datasetsCommand(): Command {
  return new Command('datasets').description('datasets: list, show, export and import (JSONL, CSV); add traced calls')
    .addCommand(lsCommand()).addCommand(showCommand()).addCommand(exportCommand()).addCommand(importCommand()).addCommand(addCommand());
}
