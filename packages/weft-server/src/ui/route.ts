/**
 * Hash routes, stable links people can paste: `#/p/<project>` (traces), `#/p/<project>/trace/<trace_id>[/<call_id>]`,
 * `#/p/<project>/thread/<thread_id>`, `#/p/<project>/feedback`, `#/p/<project>/overview`,
 * `#/p/<project>/evaluations[/<run_id>,<run_id>...]`, `#/p/<project>/queues[/<queue>]`, `#/p/<project>/datasets[/<name>]` (`?v=<version>&base=<version>`: the
 * version shown and the one it is compared with), `#/p/<project>/prompts[/<name>[/<digest>]]`,
 * `#/p/<project>/playground[?call=<call_id>|?prompt=<name>:<digest>]`; `#/models`, `#/models/<model_id>[/t/<group_id>/<index>]`; the
 * traces list's filters and the overview's window and split as a query after the path (`#/p/<project>?op=agent&status=error`).
 * @module
 */
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { view: 'home' }
  | { view: 'traces'; project: string; q?: Record<string, string> }
  | { view: 'overview'; project: string; q?: Record<string, string> }
  | { view: 'trace'; project: string; traceId: string; callId?: string }
  | { view: 'thread'; project: string; threadId: string }
  | { view: 'feedback'; project: string }
  | { view: 'queues'; project: string; queue?: string }
  | { view: 'evaluations'; project: string; runIds: string[] }
  | { view: 'prompts'; project: string; name?: string; digest?: string }
  | { view: 'playground'; project: string; call?: string; prompt?: string }
  | { view: 'datasets'; project: string; name?: string; q?: Record<string, string> }
  | { view: 'models' }
  | { view: 'model'; modelId: string; groupId?: string; index?: number };

export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  const parts = path.split('/').map(decodeURIComponent);
  const q = Object.fromEntries(new URLSearchParams(search));
  const query = Object.keys(q).length > 0 ? { q } : {};
  if (parts[0] === 'models') {
    if (!parts[1]) return { view: 'models' };
    return { view: 'model', modelId: parts[1], ...(parts[2] === 't' && parts[3] ? { groupId: parts[3], index: Number(parts[4] ?? 0) } : {}) };
  }
  if (parts[0] !== 'p' || !parts[1]) return { view: 'home' };
  const project = parts[1];
  if (parts[2] === 'trace' && parts[3]) return { view: 'trace', project, traceId: parts[3], ...(parts[4] ? { callId: parts[4] } : {}) };
  if (parts[2] === 'thread' && parts[3]) return { view: 'thread', project, threadId: parts[3] };
  if (parts[2] === 'feedback') return { view: 'feedback', project };
  if (parts[2] === 'queues') return { view: 'queues', project, ...(parts[3] ? { queue: parts[3] } : {}) };
  if (parts[2] === 'evaluations') return { view: 'evaluations', project, runIds: parts[3] ? parts[3].split(',').filter(Boolean) : [] };
  if (parts[2] === 'overview') return { view: 'overview', project, ...query };
  if (parts[2] === 'prompts') return { view: 'prompts', project, ...(parts[3] ? { name: parts[3] } : {}), ...(parts[4] ? { digest: parts[4] } : {}) };
  if (parts[2] === 'playground') return { view: 'playground', project, ...(q['call'] ? { call: q['call'] } : {}), ...(q['prompt'] ? { prompt: q['prompt'] } : {}) };
  if (parts[2] === 'datasets') return { view: 'datasets', project, ...(parts[3] ? { name: parts[3] } : {}), ...query };
  return { view: 'traces', project, ...query };
}

export function href(route: Route): string {
  if (route.view === 'home') return '#/';
  if (route.view === 'models') return '#/models';
  if (route.view === 'model') return `#/models/${encodeURIComponent(route.modelId)}${route.groupId ? `/t/${encodeURIComponent(route.groupId)}/${route.index ?? 0}` : ''}`;
  const p = `#/p/${encodeURIComponent(route.project)}`;
  const search = 'q' in route && route.q && Object.keys(route.q).length > 0 ? `?${new URLSearchParams(route.q).toString()}` : '';
  if (route.view === 'traces') return `${p}${search}`;
  if (route.view === 'overview') return `${p}/overview${search}`;
  if (route.view === 'datasets') return `${p}/datasets${route.name ? `/${encodeURIComponent(route.name)}` : ''}${search}`;
  if (route.view === 'trace') return `${p}/trace/${encodeURIComponent(route.traceId)}${route.callId ? `/${encodeURIComponent(route.callId)}` : ''}`;
  if (route.view === 'thread') return `${p}/thread/${encodeURIComponent(route.threadId)}`;
  if (route.view === 'prompts') return `${p}/prompts${route.name ? `/${encodeURIComponent(route.name)}${route.digest ? `/${encodeURIComponent(route.digest)}` : ''}` : ''}`;
  if (route.view === 'playground') {
    const pq = new URLSearchParams({ ...(route.call ? { call: route.call } : {}), ...(route.prompt ? { prompt: route.prompt } : {}) }).toString();
    return `${p}/playground${pq ? `?${pq}` : ''}`;
  }
  if (route.view === 'queues') return `${p}/queues${route.queue ? `/${encodeURIComponent(route.queue)}` : ''}`;
  if (route.view === 'evaluations') return `${p}/evaluations${route.runIds.length ? `/${route.runIds.map(encodeURIComponent).join(',')}` : ''}`;
  return `${p}/feedback`;
}

/** The current route, following `hashchange`. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = (): void => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}
