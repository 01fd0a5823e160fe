/**
 * The `weft` command line: `weft serve` runs the local reference server; `weft calls ...` and
 * `weft feedback stats` read and move data on any server; `weft spool flush` sends a traced program's disk spool. Errors print as one line (the stack with
 * `--verbose`); exit codes in `cli/connection.ts` (`EXIT`).
 * @module
 */
import { createRequire } from 'node:module';
import { Command, CommanderError } from 'commander';
import { APIConnectionError, APIError, UnexpectedResponseError } from 'weft-trace/client';
import { lsCommand } from './cli/calls-ls.js';
import { showCommand } from './cli/calls-show.js';
import { tailCommand } from './cli/calls-tail.js';
import { exportCommand } from './cli/calls-export.js';
import { importCommand } from './cli/calls-import.js';
import { deleteCommand } from './cli/calls-delete.js';
import { cassetteCommand } from './cli/calls-cassette.js';
import { CliError, EXIT } from './cli/connection.js';
import { feedbackStatsCommand } from './cli/feedback-stats.js';
import { serveCommand } from './cli/serve-command.js';
import { evalCommand } from './cli/eval-commands.js';
import { datasetsCommand } from './cli/datasets-commands.js';
import { promptsCommand } from './cli/prompts-commands.js';
import { trajectoriesExportCommand } from './cli/trajectories-export.js';
import { spoolFlushCommand } from './cli/spool-flush.js';
import { monitorsCommand } from './cli/monitors-commands.js';
import { queuesCommand } from './cli/queues-commands.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Builds the `weft` program: its commands, options and help. */
function buildProgram(): Command {
  const program = new Command('weft')
    .description('Tracing for TypeScript LLM apps, agents and RL pipelines')
    .version(version)
    .addCommand(serveCommand())
    .addCommand(
      new Command('calls')
        .description('list, follow, show, export, import and delete calls, and write a trace\'s model calls as a cassette')
        .addCommand(lsCommand())
        .addCommand(tailCommand())
        .addCommand(showCommand())
        .addCommand(exportCommand())
        .addCommand(importCommand())
        .addCommand(deleteCommand())
        .addCommand(cassetteCommand()),
    )
    .addCommand(new Command('feedback').description('feedback of a project').addCommand(feedbackStatsCommand()))
    .addCommand(new Command('spool').description('events traced programs could not send, kept on disk').addCommand(spoolFlushCommand()))
    .addCommand(new Command('trajectories').description("a model's logged trajectories").addCommand(trajectoriesExportCommand()))
    .addCommand(evalCommand())
    .addCommand(datasetsCommand())
    .addCommand(promptsCommand())
    .addCommand(monitorsCommand())
    .addCommand(queuesCommand());
  configure(program);
  return program;
}

/** The `--base-url` of the command being run (set before its action), for error messages. */
let baseUrl: string | undefined;

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
  // weft serve answers JSON, errors included: another answer means the URL is not a weft service
  const notJson = err instanceof APIError && err.status !== undefined && typeof err.body === 'string';
  if (err instanceof UnexpectedResponseError || notJson) {
    const what = notJson ? `it answered HTTP ${err.status} with a body that is not JSON` : 'its answer is not the records asked for';
    return `the server at ${baseUrl ?? 'the base URL'} does not answer as weft serve does (${what}); check --base-url or WEFT_BASE_URL (--verbose shows the answer)`;
  }
  if (err instanceof APIError) return `the server answered ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}

/** A write to a pipe whose reader has gone (`weft calls export | head -1`). */
function isClosedPipe(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === 'EPIPE';
}

// A closed pipe ends the command quietly, as it ends `cat`: nothing more can be written, nothing went wrong.
process.stdout.on('error', (err) => {
  if (isClosedPipe(err)) process.exit(EXIT.ok);
  console.error(`weft: cannot write to stdout: ${err.message}`);
  process.exit(EXIT.failed);
});

try {
  const program = buildProgram();
  program.hook('preAction', (_program, action) => {
    const url: unknown = action.opts().baseUrl;
    if (typeof url === 'string') baseUrl = url;
  });
  await program.parseAsync(process.argv);
} catch (err) {
  if (isClosedPipe(err)) process.exit(EXIT.ok);
  if (err instanceof CommanderError) {
    // commander has printed the message (or the help / version, exit code 0)
    process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.usage);
  }
  console.error(`weft: ${describe(err)}`);
  if (process.argv.includes('--verbose') && err instanceof Error && err.stack) console.error(err.stack);
  process.exit(err instanceof CliError ? err.exitCode : EXIT.failed);
}
