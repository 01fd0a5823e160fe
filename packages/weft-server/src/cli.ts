/**
 * The `weft` command line: `weft serve` runs the local reference server; `weft calls ...` and
 * `weft feedback stats` read and move data on any server; `weft spool flush` sends a traced program's disk spool. Errors print as one line (the stack with
 * `--verbose`); exit codes in `cli/exit.ts` (`EXIT`). A run loads only the command it runs (`cli/command-tree.ts`).
 * @module
 */
import { createRequire } from 'node:module';
import { Command, CommanderError } from 'commander';
import { commandsFor } from './cli/command-tree.js';
import { CliError, EXIT } from './cli/exit.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Builds the `weft` program for the command line `words`: its commands (only those it runs, `cli/command-tree.ts`), options and help. */
async function buildProgram(words: readonly string[]): Promise<Command> {
  const program = new Command('weft')
    .description('Tracing for TypeScript LLM apps, agents and RL pipelines')
    .version(version);
  for (const command of await commandsFor(words)) program.addCommand(command);
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

/**
 * The one line an error is reported with. The client's errors are those of `weft-trace/client` as the command loaded
 * it (one module instance), imported here only on this path: `weft --version` or `--help` never loads the client.
 */
async function describe(err: unknown): Promise<string> {
  if (!(err instanceof Error)) return String(err);
  if (err instanceof CliError) return err.message;
  const { APIConnectionError, APIError, UnexpectedResponseError } = await import('weft-trace/client');
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
  return err.message;
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
  const program = await buildProgram(process.argv.slice(2));
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
  console.error(`weft: ${await describe(err)}`);
  if (process.argv.includes('--verbose') && err instanceof Error && err.stack) console.error(err.stack);
  process.exit(err instanceof CliError ? err.exitCode : EXIT.failed);
}
