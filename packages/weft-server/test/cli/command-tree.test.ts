// Unit tests of the lazy command tree of `weft` (src/cli/command-tree.ts): a command line naming a command builds
// that one alone, anything else builds the whole tree, and a command's help is the same either way.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandsFor } from '../../src/cli/command-tree.js';

/** The `weft` program over the commands `words` needs (as cli.ts builds it, without version and hooks). */
async function program(words: string[]): Promise<Command> {
  const weft = new Command('weft');
  for (const command of await commandsFor(words)) weft.addCommand(command);
  return weft;
}

/** Each command as its name, a group as `{ name: [subcommands] }`. */
type Shape = string | Record<string, Shape[]>;
const shape = (command: Command): Shape => (command.commands.length === 0 ? command.name() : { [command.name()]: command.commands.map(shape) });

/** The path (names after `weft`) of every command of the tree under `command`. */
function paths(command: Command, prefix: string[] = []): string[][] {
  return command.commands.flatMap((sub) => [[...prefix, sub.name()], ...paths(sub, [...prefix, sub.name()])]);
}

const at = (root: Command, path: string[]): Command => path.reduce((c, name) => c.commands.find((s) => s.name() === name)!, root);

describe('commandsFor', () => {
  it('builds only the command a command line names, down to the subcommand of a group', async () => {
    expect((await program(['calls', 'ls', '--project', 'a/b'])).commands.map(shape)).toEqual([{ calls: ['ls'] }]);
    expect((await program(['serve', '--port', '0'])).commands.map(shape)).toEqual(['serve']);
    expect((await program(['feedback', 'stats'])).commands.map(shape)).toEqual([{ feedback: ['stats'] }]);
  });

  it('builds no command for --version, and the whole tree for help, a group alone or an unknown command', async () => {
    expect(await commandsFor(['--version'])).toEqual([]);
    expect(await commandsFor(['-V', 'calls'])).toEqual([]);
    const whole = ['serve', 'calls', 'feedback', 'spool', 'trajectories', 'eval', 'datasets', 'prompts', 'monitors', 'queues'];
    for (const words of [[], ['--help'], ['help', 'calls'], ['cals'], ['--bogus', 'calls']]) {
      expect((await program(words)).commands.map((c) => c.name())).toEqual(whole);
    }
    const calls = ['ls', 'tail', 'show', 'export', 'import', 'delete', 'cassette'];
    for (const words of [['calls'], ['calls', '--help'], ['calls', 'help', 'ls'], ['calls', 'lss']]) {
      expect((await program(words)).commands.map(shape)).toEqual([{ calls }]);
    }
  });

  it('gives every command the help it has in the whole tree, when built alone', async () => {
    const whole = await program([]);
    const all = paths(whole);
    expect(all.length).toBeGreaterThan(30);
    for (const path of all) {
      const alone = await program(path);
      expect(at(alone, path).helpInformation(), path.join(' ')).toBe(at(whole, path).helpInformation());
    }
  });
});
