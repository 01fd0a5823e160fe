/**
 * Test helper: what a spool directory holds, read from its files: segment names (not the answered-marker beside them) and the call ids they carry.
 * @module
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The names of the spool segments in `dir` (none when it does not exist), without the service's `answered-*` marker. */
export function segmentsIn(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((n) => !n.startsWith('answered-')) : [];
}

/**
 * Ids of the calls whose start event is in a complete line of a spool segment in `dir`. With `whileWritten`, a
 * segment that moves or goes between the listing and the read (a process is still spooling and retrying) is skipped.
 */
export function callIdsInSpool(dir: string, { whileWritten = false } = {}): Set<string> {
  const ids = new Set<string>();
  for (const name of segmentsIn(dir)) {
    let text: string;
    try {
      text = readFileSync(path.join(dir, name), 'utf8');
    } catch (err) {
      if (whileWritten && (err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    for (const line of text.slice(0, text.lastIndexOf('\n') + 1).split('\n')) {
      if (!line) continue;
      const item = JSON.parse(line) as { mode: string; req: { start?: { id: string } } };
      if (item.mode === 'start' && item.req.start) ids.add(item.req.start.id);
    }
  }
  return ids;
}
