/**
 * Dotted field paths into JSON (call records, table rows): parsing (with `"quoted"` segments), resolution in JS
 * values, and SQLite JSON paths.
 * @module
 */
import { QueryError } from './query-error.js';

/** A parsed path: its segments, and whether any was written in quotes (then dots are never re-joined). */
export interface FieldPath {
  readonly segments: string[];
  readonly quoted: boolean;
}

/**
 * Splits a dotted path. Segments are separated by `.`; a segment written in double quotes may hold dots
 * (`summary.usage."gpt-4.1".total_tokens`); inside quotes, `\"` and `\\` stand for `"` and `\`.
 *
 * @param path - the path as sent.
 * @param loc - location of the path in the request, for errors.
 * @returns the segments (at least one, none empty).
 * @throws QueryError for an empty segment or an unterminated quote.
 */
export function parseFieldPath(path: string, loc: string[]): FieldPath {
  const segments: string[] = [];
  let quoted = false;
  let i = 0;
  const fail = (why: string): never => {
    throw new QueryError(loc, `invalid field path ${JSON.stringify(path)}: ${why}`);
  };
  while (i <= path.length) {
    let segment = '';
    if (path[i] === '"') {
      quoted = true;
      i++;
      while (i < path.length && path[i] !== '"') {
        if (path[i] === '\\' && i + 1 < path.length) i++;
        segment += path[i++];
      }
      if (path[i] !== '"') fail('unterminated quote');
      i++;
      if (i < path.length && path[i] !== '.') fail(`expected "." after a quoted segment at ${i}`);
    } else {
      const dot = path.indexOf('.', i);
      segment = path.slice(i, dot < 0 ? path.length : dot);
      i = dot < 0 ? path.length : dot;
    }
    if (segment === '') fail('empty segment');
    segments.push(segment);
    i++;
  }
  return { segments, quoted };
}

/** Builds a SQLite JSON path (`$."a"[0]."b"`) from segments; numeric segments index arrays. */
export function jsonPath(parts: string[], loc: string[]): string {
  return '$' + parts.map((p) => {
    if (p.includes('"')) throw new QueryError(loc, `a path segment cannot contain a double quote: ${JSON.stringify(p)}`);
    return /^\d+$/.test(p) ? `[${p}]` : `."${p}"`;
  }).join('');
}

/** The value found at a path and the keys actually taken (a key may contain dots). */
export interface Resolved {
  value: unknown;
  keys: (string | number)[];
}

/**
 * Finds a path in a JSON value. At each object the next segment is tried as a key first; when that
 * leads nowhere, the next two, three, ... segments joined by `.` are tried as one key (so
 * `usage.gpt-4.1.total_tokens` reaches the key `"gpt-4.1"`). A numeric segment indexes an array.
 *
 * @param root - a parsed JSON value.
 * @param segments - path segments (e.g. from {@link parseFieldPath}).
 * @param exact - when true, segments are never joined (the path was quoted).
 * @returns the value and the keys leading to it, or undefined when the path does not exist.
 */
export function resolvePath(root: unknown, segments: readonly string[], exact = false): Resolved | undefined {
  if (segments.length === 0) return { value: root, keys: [] };
  if (Array.isArray(root)) {
    const first = segments[0]!;
    if (!/^\d+$/.test(first) || Number(first) >= root.length) return undefined;
    const rest = resolvePath(root[Number(first)], segments.slice(1), exact);
    return rest && { value: rest.value, keys: [Number(first), ...rest.keys] };
  }
  if (root === null || typeof root !== 'object') return undefined;
  const obj = root as Record<string, unknown>;
  const widest = exact ? 1 : segments.length;
  for (let n = 1; n <= widest; n++) {
    const key = segments.slice(0, n).join('.');
    if (!Object.hasOwn(obj, key)) continue;
    const rest = resolvePath(obj[key], segments.slice(n), exact);
    if (rest) return { value: rest.value, keys: [key, ...rest.keys] };
  }
  return undefined;
}
