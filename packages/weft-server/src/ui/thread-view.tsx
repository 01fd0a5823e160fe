/**
 * One thread: its turns (root calls with this thread id) in start order, each with its turn id, root op and
 * output, linked to its trace.
 * @module
 */
import { useEffect, useState } from 'preact/hooks';
import type { CallRecord } from './api';
import { callName, duration, statusOf } from './format';
import { time } from './time';
import { JsonView } from './json-view';
import { href } from './route';
import { DONE, LOADING, type LoadState, LoadStatus, reportFailure } from './load-status';
import { streamWithProgress } from './stream-progress';

/** What a turn draws: its name, status, turn id, start, latency and output (no inputs, no attributes). */
const THREAD_COLUMNS = ['id', 'trace_id', 'op_name', 'display_name', 'started_at', 'ended_at', 'turn_id', 'output', 'exception', 'summary'];

export function ThreadView({ project, threadId, onError }: { project: string; threadId: string; onError: (e: unknown) => void }) {
  const [turns, setTurns] = useState<CallRecord[] | null>(null);
  const [status, setStatus] = useState<LoadState>(LOADING);
  useEffect(() => {
    streamWithProgress({
      project_id: project,
      filter: { thread_ids: [threadId], trace_roots_only: true },
      sort_by: [{ field: 'started_at', direction: 'asc' }],
      columns: THREAD_COLUMNS,
      include_costs: true,
    }, (found, done) => {
      setTurns(found.slice());
      setStatus(done ? DONE : { phase: 'loading', count: found.length });
    }).catch((e: unknown) => reportFailure(e, setStatus, onError));
  }, [project, threadId, onError]);
  return (
    <div class="page thread">
      <div class="tracehead">
        <a href={href({ view: 'traces', project })}>← traces</a>
        <span>thread <code>{threadId}</code></span>
        {turns ? <span>{turns.length} turns</span> : null}
      </div>
      <LoadStatus state={status} what="turns" />
      <ol class="turns">
        {(turns ?? []).map((t) => (
          <li key={t.id} class="turn">
            <div>
              <a href={href({ view: 'trace', project, traceId: t.trace_id })}>{callName(t)}</a>{' '}
              <span class={`s-${t.summary.status}`}>{statusOf(t.summary.status).icon}</span>{' '}
              <span class="muted">turn {t.turn_id ?? '—'} · {time(t.started_at)} · {duration(t.summary.latency_ms)}</span>
            </div>
            <JsonView value={t.output} />
          </li>
        ))}
      </ol>
    </div>
  );
}
