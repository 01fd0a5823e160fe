/**
 * The options every data command shares (`--base-url`, `--api-key`, `--project` and their `WEFT_*`
 * variables) and the client they make; a missing project is a usage error (`exit.ts`).
 * @module
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { Client } from 'weft-trace/client';
import { DEFAULT_BASE_URL } from 'weft-trace/client';
import { isProjectId, projectIdMessage } from 'weft-trace/wire';
import { CliError, EXIT } from './exit.js';

/** What the shared options resolve to. */
export interface Connection {
  /** The server's base URL (`--base-url`, `$WEFT_BASE_URL`, default `http://127.0.0.1:6345`). */
  baseUrl: string;
  /** `--api-key` or `$WEFT_API_KEY`; none for a keyless local server. */
  apiKey?: string;
  /** `entity/project` (`--project` or `$WEFT_PROJECT`); undefined when neither was given. */
  project?: string;
  /** `--verbose`: print stacks with errors. */
  verbose: boolean;
}

/** Adds the shared options to a data command. */
export function withConnection(command: Command): Command {
  return command
    .addOption(new Option('--base-url <url>', 'server URL').env('WEFT_BASE_URL').default(DEFAULT_BASE_URL))
    .addOption(new Option('--api-key <key>', 'API key (none for a keyless local server)').env('WEFT_API_KEY'))
    .addOption(new Option('--project <entity/project>', 'project to read or write').env('WEFT_PROJECT').argParser(parseProject))
    .option('--verbose', 'print the stack with an error', false);
}

/**
 * Checks a `--project` (or `WEFT_PROJECT`) value; commander reports a bad one as a usage error (exit 2),
 * naming the option or the env var it came from.
 * @throws InvalidArgumentError with the expected shape and the value.
 */
function parseProject(value: string): string {
  if (!isProjectId(value)) throw new InvalidArgumentError(projectIdMessage(value));
  return value;
}

/** The shared options as given to a command's action. */
export function connectionOf(opts: { baseUrl: string; apiKey?: string; project?: string; verbose?: boolean }): Connection {
  return { baseUrl: opts.baseUrl, apiKey: opts.apiKey || undefined, project: opts.project || undefined, verbose: opts.verbose === true };
}

/** The project, or a usage error saying how to give one. */
export function requireProject(conn: Connection): string {
  if (!conn.project) throw new CliError('no project: pass --project entity/project or set WEFT_PROJECT', EXIT.usage);
  return conn.project;
}

/** A client for the connection; no retries beyond the client's defaults. */
export function clientFor(conn: Connection): Client {
  return new Client({ baseUrl: conn.baseUrl, apiKey: conn.apiKey });
}
