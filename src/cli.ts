/**
 * The `weft` command line: `weft serve` runs the local reference server; `weft calls ...` and
 * `weft feedback stats` read and move data on any server. Errors print as one line (the stack with
 * `--verbose`); exit codes in `cli/connection.ts` (`EXIT`).
 * @module
 */
import { createRequire } from 'node:module';
import { Command, CommanderError } from 'commander';
import { APIConnectionError, APIError } from './api/core/api-errors.js';
import { lsCommand } from './cli/calls-ls.js';
import { showCommand } from './cli/calls-show.js';
import { tailCommand } from './cli/calls-tail.js';
import { exportCommand } from './cli/calls-export.js';
import { importCommand } from './cli/calls-import.js';
import { CliError, EXIT } from './cli/connection.js';
import { feedbackStatsCommand } from './cli/feedback-stats.js';
import { serveCommand } from './cli/serve-command.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Builds the `weft` program: its commands, options and help. */
function buildProgram(): Command {
  const program = new Command('weft')
    .description('Tracing for TypeScript LLM apps, agents and RL pipelines')
    .version(version)
    .addCommand(serveCommand())
    .addCommand(
      new Command('calls')
        .description('list, follow, show, export and import calls')
        .addCommand(lsCommand())
        .addCommand(tailCommand())
        .addCommand(showCommand())
        .addCommand(exportCommand())
        .addCommand(importCommand()),
    )
    .addCommand(new Command('feedback').description('feedback of a project').addCommand(feedbackStatsCommand()));
  configure(program);
  return program;
}

/** Every command throws instead of exiting (so usage errors exit 2) and shows help after an error. */
function configure(command: Command): void {
  command.exitOverride().showHelpAfterError('(add --help for usage)');
  for (const sub of command.commands) configure(sub);
}

/** The one line an error is reported with. */
function describe(err: unknown): string {
  if (err instanceof APIConnectionError) {
    const cause = (err.cause as { message?: string } | undefined)?.message;
    return `cannot reach the server: ${cause ?? err.message} (is weft serve running? see --base-url)`;
  }
  if (err instanceof APIError) return `the server answered ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // commander has printed the message (or the help / version, exit code 0)
    process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.usage);
  }
  console.error(`weft: ${describe(err)}`);
  if (process.argv.includes('--verbose') && err instanceof Error && err.stack) console.error(err.stack);
  process.exit(err instanceof CliError ? err.exitCode : EXIT.failed);
}
