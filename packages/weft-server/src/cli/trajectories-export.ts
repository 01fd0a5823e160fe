/**
 * `weft trajectories export`: a model's stored trajectory groups as JSONL, in the interface's group shape or as
 * OpenAI chat fine-tuning examples of the best trajectories per group.
 * @module
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { Command, Option } from 'commander';
import { Split } from 'weft-trace/wire';
import { EXPORT_FORMATS, groupLines, openAiSftLines, type ExportFormat } from 'weft-trace/wire';
import { clientFor, connectionOf, withConnection } from './connection.js';
import { CliError, EXIT } from './exit.js';

interface TrajectoryExportOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  split?: Split;
  format: ExportFormat;
  topK: string;
  out?: string;
}

function topKOf(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`--top-k must be an integer >= 1, got ${JSON.stringify(text)}`, EXIT.usage);
  return n;
}

/** The `trajectories export` command. */
export function trajectoriesExportCommand(): Command {
  return withConnection(new Command('export'))
    .description("write a model's trajectory groups as JSONL: the interface's groups, or OpenAI chat fine-tuning examples")
    .requiredOption('--model <id>', 'the model id the trajectories were logged for')
    .addOption(new Option('--split <split>', 'one split only (default: all)').choices(Split.options))
    .addOption(new Option('--format <format>', 'groups: one TrajectoryGroup a line; openai-sft: {"messages","tools"} lines').choices([...EXPORT_FORMATS]).default('groups'))
    .option('--top-k <n>', 'openai-sft: trajectories kept per group, highest reward first', '1')
    .option('-o, --out <file>', 'file to write (default: stdout)')
    .action(async (opts: TrajectoryExportOptions) => {
      const topK = topKOf(opts.topK);
      const client = clientFor(connectionOf(opts));
      let lines: string[];
      try {
        const { groups } = await client.trajectories.query(opts.model, opts.split ? { split: opts.split } : {});
        lines = opts.format === 'groups' ? groupLines(groups) : openAiSftLines(groups, topK);
      } finally {
        await client.close();
      }
      const out: Writable = opts.out ? createWriteStream(opts.out) : process.stdout;
      for (const line of lines) if (!out.write(`${line}\n`)) await once(out, 'drain');
      if (opts.out) await new Promise<void>((resolve) => out.end(resolve));
      process.stderr.write(`exported ${lines.length} ${opts.format === 'groups' ? 'groups' : 'examples'} of model ${opts.model} to ${opts.out ?? 'stdout'}\n`);
    });
}
