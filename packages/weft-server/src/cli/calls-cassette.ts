/**
 * `weft calls cassette <id> --out <file>`: the model calls under a call (or in a trace) written as `WEFT_LLM_CACHE`
 * cassette lines, so the same code on the same input replays the recorded answers with the network closed.
 * @module
 */
import { Command } from 'commander';
import { addToCassette, cassetteOfCalls, type SkippedCall } from 'weft-trace/eval';
import { clientFor, connectionOf, requireProject, withConnection } from './connection.js';
import { CliError } from './exit.js';
import { readTrace } from './calls-show.js';

interface CassetteOptions {
  baseUrl: string;
  apiKey?: string;
  project?: string;
  out: string;
  json: boolean;
}

/** One line per model call left out: which call and why. */
function skippedLines(skipped: readonly SkippedCall[]): string {
  return skipped.map((s) => `weft: call ${s.call_id} (${s.op_name}) not written: ${s.reason}\n`).join('');
}

/** The `calls cassette` command. */
export function cassetteCommand(): Command {
  return withConnection(new Command('cassette'))
    .description('write the model calls under a call (or in a trace) as WEFT_LLM_CACHE cassette lines, to replay them in a test')
    .argument('<id>', 'a call id (its model calls and those under it) or a trace id (all of the trace\'s)')
    .requiredOption('-o, --out <file>', 'the cassette to add the lines to (created if missing; a line of the same request replaced), e.g. __llm_cache__/<test file>.jsonl')
    .option('--json', 'print {file, written, keys, skipped} as JSON', false)
    .addHelpText(
      'after',
      '\nA test replays the file with WEFT_LLM_CACHE=replay when it is __llm_cache__/<test file name>.jsonl beside the test\n' +
        '(or in WEFT_LLM_CACHE_DIR). Exit 1 when a model call could not be written (each is named on stderr with the reason);\n' +
        'the others are written.',
    )
    .action(async (id: string, opts: CassetteOptions) => {
      const conn = connectionOf(opts);
      const client = clientFor(conn);
      let result;
      try {
        const project = requireProject(conn);
        result = cassetteOfCalls(await readTrace(client, project, id, conn), id);
      } finally {
        await client.close();
      }
      const { entries, skipped } = result;
      if (entries.length === 0 && skipped.length === 0) {
        throw new CliError(`no model calls under ${id} (weft reads those of wrapOpenAI, wrapAnthropic and wrapAISDK)`);
      }
      if (entries.length > 0) {
        try {
          addToCassette(opts.out, entries);
        } catch (err) {
          throw new CliError(`cannot write ${opts.out}: ${(err as Error).message}`);
        }
      }
      process.stdout.write(
        opts.json
          ? `${JSON.stringify({ file: opts.out, written: entries.length, keys: entries.map((e) => e.key), skipped }, null, 2)}\n`
          : `wrote ${entries.length} model call${entries.length === 1 ? '' : 's'} to ${opts.out}\n`,
      );
      if (skipped.length > 0) {
        process.stderr.write(skippedLines(skipped));
        throw new CliError(`${skipped.length} model call${skipped.length === 1 ? '' : 's'} not written (above): a replay misses ${skipped.length === 1 ? 'it' : 'them'}`);
      }
    });
}
