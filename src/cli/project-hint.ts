/**
 * What the CLI adds when a project holds no matching calls: the projects the server holds, and "did you mean" when one is a near miss.
 * @module
 */
import type { Connection } from './connection.js';

/** Edits (insert, delete, substitute) from `a` to `b`: Levenshtein's distance, one row at a time. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The closest of `names` to `given`, when it is near enough to be a typo: at most 2 edits, and fewer than a third of
 * its length. `undefined` when none is.
 */
export function closest(given: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of names) {
    const d = editDistance(given, name);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return best !== undefined && bestDistance <= 2 && bestDistance * 3 < given.length ? best : undefined;
}

/** The projects holding calls, from `GET /weft/projects` (a weft serve extension); `undefined` from another server or on any failure. */
async function serverProjects(conn: Connection): Promise<string[] | undefined> {
  try {
    const headers: Record<string, string> = conn.apiKey ? { authorization: `Basic ${Buffer.from(`api:${conn.apiKey}`).toString('base64')}` } : {};
    const res = await fetch(`${conn.baseUrl.replace(/\/+$/, '')}/weft/projects`, { headers, signal: AbortSignal.timeout(5000) });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { projects?: unknown };
    return Array.isArray(body.projects) ? body.projects.filter((p): p is string => typeof p === 'string') : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The sentence to add after "no calls ... match" when `project` holds no calls at all on the server: the projects it
 * holds (at most 10 named), with "did you mean" for a near miss. Empty when the project exists, or the server does not
 * list its projects (a service without weft's `GET /weft/projects`).
 *
 * @param conn - the command's connection (base URL and API key).
 * @param project - the project the command was given.
 */
export async function projectHint(conn: Connection, project: string): Promise<string> {
  const projects = await serverProjects(conn);
  if (projects === undefined || projects.includes(project)) return '';
  if (projects.length === 0) return `; the server holds no projects yet`;
  const near = closest(project, projects);
  const named = projects.slice(0, 10).join(', ') + (projects.length > 10 ? `, … (${projects.length} in all)` : '');
  return `${near ? `; did you mean ${near}?` : ''}; project ${project} does not exist on this server, which holds: ${named}`;
}
