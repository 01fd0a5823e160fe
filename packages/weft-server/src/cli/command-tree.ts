/**
 * The commands of `weft`, each module imported only when the command line needs it: `weft calls ls ...` loads
 * `calls-ls.ts` and what it imports (the client, the tables), not the other commands nor their libraries. What a
 * command line names is built alone; the whole tree is built when no known command is named (`weft`, `weft --help`,
 * `weft help ...`, an unknown command and its "did you mean"), so help and errors are those of the whole tree.
 * @module
 */
import { Command } from 'commander';

/** A command defined in a module of its own, imported by `load`. */
interface Lazy {
  /** The command's name, as its module names it (checked when loaded). */
  name: string;
  load: () => Promise<Command>;
}

/** A group of commands defined here (`weft calls ...`), each loaded as needed. */
interface Group {
  name: string;
  description: string;
  subcommands: Lazy[];
}

type Entry = Lazy | Group;

/** The commands of `weft`, in the order its help lists them. */
const COMMANDS: Entry[] = [
  { name: 'serve', load: async () => (await import('./serve-command.js')).serveCommand() },
  {
    name: 'calls',
    description: 'list, follow, show, export, import and delete calls, and write a trace\'s model calls as a cassette',
    subcommands: [
      { name: 'ls', load: async () => (await import('./calls-ls.js')).lsCommand() },
      { name: 'tail', load: async () => (await import('./calls-tail.js')).tailCommand() },
      { name: 'show', load: async () => (await import('./calls-show.js')).showCommand() },
      { name: 'export', load: async () => (await import('./calls-export.js')).exportCommand() },
      { name: 'import', load: async () => (await import('./calls-import.js')).importCommand() },
      { name: 'delete', load: async () => (await import('./calls-delete.js')).deleteCommand() },
      { name: 'cassette', load: async () => (await import('./calls-cassette.js')).cassetteCommand() },
    ],
  },
  { name: 'feedback', description: 'feedback of a project', subcommands: [{ name: 'stats', load: async () => (await import('./feedback-stats.js')).feedbackStatsCommand() }] },
  { name: 'spool', description: 'events traced programs could not send, kept on disk', subcommands: [{ name: 'flush', load: async () => (await import('./spool-flush.js')).spoolFlushCommand() }] },
  { name: 'trajectories', description: "a model's logged trajectories", subcommands: [{ name: 'export', load: async () => (await import('./trajectories-export.js')).trajectoriesExportCommand() }] },
  { name: 'eval', load: async () => (await import('./eval-commands.js')).evalCommand() },
  { name: 'datasets', load: async () => (await import('./datasets-commands.js')).datasetsCommand() },
  { name: 'prompts', load: async () => (await import('./prompts-commands.js')).promptsCommand() },
  { name: 'monitors', load: async () => (await import('./monitors-commands.js')).monitorsCommand() },
  { name: 'queues', load: async () => (await import('./queues-commands.js')).queuesCommand() },
];

/**
 * The top-level commands the command line `words` (`process.argv` after the script) runs: only the one its first word
 * names (and inside a group only the subcommand its second word names), else all of them. `-V`/`--version` first
 * needs none: commander prints the version before looking further.
 * @throws Error when a module's command is not named as listed here (a programming error).
 */
export function commandsFor(words: readonly string[]): Promise<Command[]> {
  if (words[0] === '-V' || words[0] === '--version') return Promise.resolve([]);
  return build(COMMANDS, words);
}

/** The entries `words` needs (the one named by its first word, else all), built in order. */
function build(entries: readonly Entry[], words: readonly string[]): Promise<Command[]> {
  const named = entries.find((e) => e.name === words[0]);
  return Promise.all(named ? [make(named, words.slice(1))] : entries.map((e) => make(e, [])));
}

async function make(entry: Entry, rest: readonly string[]): Promise<Command> {
  if ('load' in entry) {
    const command = await entry.load();
    if (command.name() !== entry.name) throw new Error(`command-tree.ts lists '${entry.name}', its module makes '${command.name()}'`);
    return command;
  }
  const group = new Command(entry.name).description(entry.description);
  for (const sub of await build(entry.subcommands, rest)) group.addCommand(sub);
  return group;
}
