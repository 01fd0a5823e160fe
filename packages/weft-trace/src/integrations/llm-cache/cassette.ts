/**
 * Cassette files: one JSONL file per test file under `__llm_cache__/`, one recorded exchange per line, sorted by key.
 * @module
 */
import { diag } from '../../internal/diag.js';
import { nodeBuiltin, runtimeEnv } from '../../internal/runtime.js';
import { safeMessage } from '../../internal/safe-message.js';
import type { NormalizedRequest } from './key.js';
import { currentTestFile } from './scope.js';

/** A response as stored: status, the headers SDKs read, and the body (JSON parsed; an event stream as its events). */
export interface RecordedResponse {
  status: number;
  /** `content-type` and the provider's request id headers (`x-request-id`, `request-id`), lower-case names. */
  headers: Record<string, string>;
  /** A JSON body, parsed. */
  json?: unknown;
  /** A `text/event-stream` body: each event's lines (without the blank line ending it), in the order received. */
  events?: string[];
  /** Any other body, as text. */
  text?: string;
}

/** One line of a cassette. */
export interface CassetteEntry {
  key: string;
  request: NormalizedRequest;
  response: RecordedResponse;
}

/** Where a cassette lives (see `llmCacheFetch`'s options). */
export interface CassetteLocation {
  dir?: string | undefined;
  file?: string | undefined;
}

/**
 * The cassette file for a request made now: `file`; else `<dir>/<test file name>.jsonl`, where `dir` is the option,
 * else `WEFT_LLM_CACHE_DIR`, else `__llm_cache__/` beside the running test file, else `__llm_cache__/` in the
 * working directory (file `llm-cache.jsonl` outside a test).
 */
export function cassettePath(where: CassetteLocation): string {
  const path = nodeBuiltin('node:path');
  if (path === undefined) throw new Error('recorded model calls need a runtime with node:path and node:fs');
  if (where.file !== undefined) return path.resolve(where.file);
  const test = currentTestFile();
  const dir = where.dir ?? runtimeEnv()['WEFT_LLM_CACHE_DIR'] ?? (test ? path.join(path.dirname(test), '__llm_cache__') : '__llm_cache__');
  return path.resolve(dir, test ? `${path.basename(test)}.jsonl` : 'llm-cache.jsonl');
}

/** A cassette file's entries by key, read once; recording rewrites the file, sorted by key, after each new exchange. */
export class Cassette {
  private readonly entries = new Map<string, CassetteEntry>();

  constructor(readonly file: string) {
    const fs = nodeBuiltin('node:fs');
    let text = '';
    try {
      text = fs?.readFileSync(file, 'utf8') ?? '';
    } catch {
      return; // no file yet: empty
    }
    for (const [i, line] of text.split('\n').entries()) {
      if (line.trim() === '') continue;
      try {
        const e = JSON.parse(line) as CassetteEntry;
        if (typeof e.key === 'string' && e.response) this.entries.set(e.key, e);
      } catch (err) {
        diag.warn(`llm cache: ${file}:${i + 1} is not a JSON line, skipped (${safeMessage(err)})`);
      }
    }
  }

  get(key: string): CassetteEntry | undefined {
    return this.entries.get(key);
  }

  /** Stores `entry` (replacing one with its key) and writes the file. */
  put(entry: CassetteEntry): void {
    this.putAll([entry]);
  }

  /** Stores `entries` (each replacing the one with its key) and writes the file once. */
  putAll(entries: readonly CassetteEntry[]): void {
    for (const entry of entries) this.entries.set(entry.key, entry);
    const fs = nodeBuiltin('node:fs');
    const path = nodeBuiltin('node:path');
    if (!fs || !path) return;
    const keys = [...this.entries.keys()].sort();
    const lines = keys.map((k) => JSON.stringify(this.entries.get(k)));
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    fs.writeFileSync(this.file, `${lines.join('\n')}\n`);
  }
}

const open = new Map<string, Cassette>();

/** The cassette of `file`, read on first use in this process. */
export function cassetteAt(file: string): Cassette {
  let c = open.get(file);
  if (!c) open.set(file, (c = new Cassette(file)));
  return c;
}

/** Forgets the cassettes read so far (the next request reads its file again). For tests that edit cassette files. */
export function forgetCassettes(): void {
  open.clear();
}
