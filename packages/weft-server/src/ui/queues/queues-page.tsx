/**
 * The Queues page: a project's review queues with their progress (reviewed / total, pending, per reviewer), each a
 * link to its review screen; the reviewer name this browser answers as.
 * @module
 */
import { useEffect, useState } from 'preact/hooks';
import { setViewerName, viewerName } from '../feedback/feedback-api';
import { LOADING, type LoadState, LoadStatus, reportFailure } from '../load-status';
import { time } from '../time';
import { listQueues, type QueueWithProgress } from './queues-api';
import './queues.css';

export function QueuesPage({ project, onError }: { project: string; onError: (e: unknown) => void }) {
  const [queues, setQueues] = useState<QueueWithProgress[] | null>(null);
  const [status, setStatus] = useState<LoadState>(LOADING);
  const [name, setName] = useState(viewerName());
  useEffect(() => {
    listQueues(project).then(setQueues, (e: unknown) => reportFailure(e, setStatus, onError));
  }, [project, onError]);
  if (queues === null) return <div class="page"><LoadStatus state={status} what="the queues" /></div>;
  return (
    <div class="page queues">
      <h2>Review queues</h2>
      <label>reviewing as <input aria-label="reviewer name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} onBlur={() => setViewerName(name || 'viewer')} /></label>
      {queues.length === 0 ? <p class="muted">No queues yet: create one with <code>weft queues create &lt;name&gt; --field &lt;field&gt;</code> (see docs/review.md).</p> : (
        <table class="queues-table">
          <thead><tr><th>queue</th><th>reviewed</th><th>pending</th><th>fill</th><th>reviewers</th><th>created</th></tr></thead>
          <tbody>
            {queues.map((q) => (
              <tr data-queue={q.name}>
                <td><a href={`#/p/${encodeURIComponent(project)}/queues/${encodeURIComponent(q.name)}`}>{q.name}</a></td>
                <td>{q.progress.done + q.progress.skipped}/{q.progress.total}</td>
                <td>{q.progress.pending}</td>
                <td>{[q.dynamic ? `new calls (${q.dynamic.sample_rate})` : '', q.monitor ? `monitor < ${q.monitor.threshold}` : ''].filter(Boolean).join(', ') || 'by hand'}</td>
                <td>{Object.entries(q.progress.reviewers).map(([r, n]) => `${r} ${n.done}`).join(', ')}</td>
                <td>{time(q.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
