/**
 * The models that have logged trajectories, the most recently logged first, each linking to its page.
 * @module
 */
import { useEffect, useState } from 'preact/hooks';
import { href } from '../route';
import { listModels, type ModelInfo } from './models-api';
import './models.css';
import { LOADING, type LoadState, LoadStatus, reportFailure } from '../load-status';

export function ModelsList({ onError }: { onError: (e: unknown) => void }) {
  const [models, setModels] = useState<ModelInfo[] | null>(null);
  const [status, setStatus] = useState<LoadState>(LOADING);
  useEffect(() => {
    const abort = new AbortController();
    listModels(abort.signal).then(setModels, (e: unknown) => reportFailure(e, setStatus, onError));
    return () => abort.abort();
  }, [onError]);
  if (models === null) return <div class="page"><LoadStatus state={status} what="models" /></div>;
  if (models.length === 0) return <div class="page"><p>No trajectories logged yet (client.trajectories.log, or npx tsx examples/rl-rollouts.ts).</p></div>;
  return (
    <div class="page modelpage">
      <table class="batches">
        <thead><tr><th>model</th><th class="num">trajectories</th><th class="num">groups</th><th>first logged</th><th>last logged</th></tr></thead>
        <tbody>{models.map((m) => <tr><td><a href={href({ view: 'model', modelId: m.model_id })}>{m.model_id}</a></td><td class="num">{m.trajectory_count}</td><td class="num">{m.group_count}</td><td>{m.first_logged_at}</td><td>{m.last_logged_at}</td></tr>)}</tbody>
      </table>
    </div>
  );
}
