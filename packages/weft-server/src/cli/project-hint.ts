/**
 * What the CLI adds when a project holds no matching calls: the projects the server holds, and "did you mean" when one is a near miss.
 * @module
 */
import { clientFor, type Connection } from './connection.js';
import { closestChoice } from './did-you-mean.js';
import { WEFT_PROJECTS_PATH as PROJECTS_PATH } from 'weft-trace/wire';

/** The projects holding calls, from `GET /weft/projects` (a weft serve extension); `undefined` from another server or on any failure. */
async function serverProjects(conn: Connection): Promise<string[] | undefined> {
  const client = clientFor(conn); // its transport's base URL and auth header, as every other request of the command
  try {
    const res = await fetch(`${client.baseUrl}${PROJECTS_PATH}`, { headers: client.transport.authHeader(PROJECTS_PATH), signal: AbortSignal.timeout(5000) });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { projects?: unknown };
    return Array.isArray(body.projects) ? body.projects.filter((p): p is string => typeof p === 'string') : undefined;
  } catch {
    return undefined;
  } finally {
    await client.close();
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
  const near = closestChoice(project, projects);
  const named = projects.slice(0, 10).join(', ') + (projects.length > 10 ? `, … (${projects.length} in all)` : '');
  return `${near ? `; did you mean ${near}?` : ''}; project ${project} does not exist on this server, which holds: ${named}`;
}
