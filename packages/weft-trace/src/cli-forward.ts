/**
 * The `weft` bin of weft-trace (the SDK): the command line ships in weft-server, so this runs weft-server's CLI when
 * it is installed beside the SDK (`npx weft serve` keeps working in a project that has both), and otherwise says in
 * one line how to get it. Imports nothing else: the SDK's install stays free of server dependencies.
 * @module
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** What to run when weft-server is missing: the one-line quick start, or the install. */
export const MISSING_SERVER =
  'weft: the weft command ships in the weft-server package. Start a local server with `npx weft-server serve`, or `npm install -D weft-server` and run `npx weft ...` again.';

/** The file of weft-server's CLI as resolved from this package, or undefined when weft-server is not installed. */
function serverCli(): string | undefined {
  try {
    return createRequire(import.meta.url).resolve('weft-server/cli');
  } catch {
    return undefined;
  }
}

const cli = serverCli();
if (cli === undefined) {
  process.stderr.write(`${MISSING_SERVER}\n`);
  process.exitCode = 1;
} else {
  await import(pathToFileURL(cli).href);
}
