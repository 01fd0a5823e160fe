/**
 * How a `weft` command ends: its exit codes and the error it reports as one line. Imports nothing, so `cli.ts`
 * reads them without loading any command.
 * @module
 */

/** Exit codes of the `weft` command (docs/cli.md). */
export const EXIT = {
  /** The command did what was asked. */
  ok: 0,
  /** The server refused or could not be reached, a file could not be read or written, or an evaluation gate failed. */
  failed: 1,
  /** The command line itself was wrong (an unknown option, a missing argument, a malformed value). */
  usage: 2,
} as const;

/** An error the command reports as one line (`weft: <message>`) and exits with `exitCode`. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode: number = EXIT.failed) {
    super(message);
    this.name = 'CliError';
  }
}
