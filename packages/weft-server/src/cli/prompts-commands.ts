/**
 * `weft prompts pull | diff | push | bundle | label | labels`: a project's prompts as files in a folder of the repository
 * (prompts-files.ts), and their labels moved and listed.
 * @module
 */
import { Command } from 'commander';
import { readPromptLabels, setPromptLabel } from 'weft-trace/client';
import { withConnection } from './connection.js';
import { withProjectClient } from './project-client.js';
import { localTime } from './output.js';
import { writeFile } from 'node:fs/promises';
import { bundlePrompts, type PlannedPrompt, planPush, pullPrompts, pushPrompts } from './prompts-sync.js';

interface PromptsOptions { baseUrl: string; apiKey?: string; project?: string; dir: string; json?: boolean; by?: string }

/** The folder option, `prompts` by default. */
const withDir = (c: Command): Command => withConnection(c).option('--dir <folder>', 'the folder of prompt files', 'prompts');

/** A line on stderr per file that is an earlier version (push leaves it; a label deploys it). */
function earlierNotes(plan: PlannedPrompt[]): void {
  for (const p of plan) {
    if (p.status === 'earlier') process.stderr.write(`${p.file} is version v${p.earlier} of ${p.name} (${p.digest}), not published again: weft prompts label ${p.name} <label> ${p.digest}\n`);
  }
}

function pullCommand(): Command {
  return withDir(new Command('pull'))
    .description('write the latest version of each prompt as <dir>/<name>.prompt.md')
    .action((opts: PromptsOptions) => withProjectClient(opts, async (client, project) => {
      const pulled = await pullPrompts(client, project, opts.dir);
      for (const p of pulled) process.stdout.write(`${p.file}  ${p.digest}\n`);
      if (pulled.length === 0) process.stderr.write(`no prompts in ${project}\n`);
    }));
}

function diffCommand(): Command {
  return withDir(new Command('diff'))
    .description('show what push would publish: each changed or new prompt file as a diff against the server')
    .option('--json', 'print the plan as JSON', false)
    .action((opts: PromptsOptions) => withProjectClient(opts, async (client, project) => {
      const plan = await planPush(client, project, opts.dir);
      if (opts.json) return void process.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
      for (const p of plan) if (p.status !== 'same') process.stdout.write(p.patch);
      const changed = plan.filter((p) => p.status !== 'same').length;
      earlierNotes(plan);
      process.stderr.write(`${changed} of ${plan.length} prompt files differ from ${project}\n`);
    }));
}

function pushCommand(): Command {
  return withDir(new Command('push'))
    .description('publish each changed or new prompt file as a new version')
    .action((opts: PromptsOptions) => withProjectClient(opts, async (client, project) => {
      const plan = await planPush(client, project, opts.dir);
      earlierNotes(plan);
      const pushed = await pushPrompts(client, project, plan);
      for (const [name, digest] of pushed) process.stdout.write(`${name}  ${digest}\n`);
      process.stderr.write(`${pushed.size} prompt versions published to ${project}\n`);
    }));
}

function bundleCommand(): Command {
  return new Command('bundle')
    .description('write the prompt files of a folder as one JSON file (name → definition), for getPrompt\'s fallback')
    .option('--dir <folder>', 'the folder of prompt files', 'prompts')
    .requiredOption('-o, --output <file>', 'the JSON file to write')
    .action(async (opts: { dir: string; output: string }) => {
      const bundle = await bundlePrompts(opts.dir);
      await writeFile(opts.output, `${JSON.stringify(bundle, null, 2)}\n`);
      process.stderr.write(`${Object.keys(bundle).length} prompts written to ${opts.output}\n`);
    });
}

function labelCommand(): Command {
  return withConnection(new Command('label'))
    .description('point a label (production, staging, any name) of a prompt at a version; the move is recorded')
    .argument('<prompt>', 'the prompt name')
    .argument('<label>', 'the label')
    .argument('[version]', 'a digest, v<N> or latest', 'latest')
    .option('--by <who>', 'who moves it (default: $WEFT_USER, else $USER)')
    .action((name: string, label: string, version: string, opts: PromptsOptions) => withProjectClient(opts, async (client, project) => {
      const after = await setPromptLabel(name, label, version, { client, project, ...(opts.by ? { by: opts.by } : {}) });
      process.stdout.write(`${name} ${label} → ${after.labels[label]}\n`);
    }));
}

function labelsCommand(): Command {
  return withConnection(new Command('labels'))
    .description('list a prompt\'s labels and every move (who, when, from, to)')
    .argument('<prompt>', 'the prompt name')
    .option('--json', 'print labels and moves as JSON', false)
    .action((name: string, opts: PromptsOptions) => withProjectClient(opts, async (client, project) => {
      const labels = await readPromptLabels(client, project, name);
      if (opts.json) return void process.stdout.write(`${JSON.stringify(labels, null, 2)}\n`);
      for (const [label, digest] of Object.entries(labels.labels)) process.stdout.write(`${label}\t${digest}\n`);
      for (const m of labels.moves) process.stdout.write(`${localTime(m.at)}  ${m.by}  ${m.label}: ${m.from ?? '(new)'} → ${m.to}\n`);
    }));
}

/** `weft prompts`. */
export function promptsCommand(): Command {
  return new Command('prompts')
    .description('prompts as files (pull, diff, push) and their labels')
    .addCommand(pullCommand())
    .addCommand(diffCommand())
    .addCommand(pushCommand())
    .addCommand(bundleCommand())
    .addCommand(labelCommand())
    .addCommand(labelsCommand());
}
