/**
 * A model's page: its training jobs, its trajectories per split and step (logged batch), the metrics over the
 * batches, the reward distribution of each group of a batch, and a trajectory opened as chat, linked to its trace.
 * @module
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { href } from '../route';
import { BatchChart } from './batch-chart';
import { batchesOf } from './batch-stats';
import { modelGroups, modelJobs, type StoredGroup, type TrainingJob } from './models-api';
import { RewardStrip } from './reward-strip';
import { TrajectoryPane } from './trajectory-pane';
import './models.css';
import { LOADING, type LoadState, LoadStatus, reportFailure } from '../load-status';

const SPLITS = ['all', 'train', 'val', 'test'] as const;
const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(3));

export function ModelPage({ modelId, groupId, index, onError }: { modelId: string; groupId?: string | undefined; index?: number | undefined; onError: (e: unknown) => void }) {
  const [groups, setGroups] = useState<StoredGroup[] | null>(null);
  const [status, setStatus] = useState<LoadState>(LOADING);
  const [jobs, setJobs] = useState<TrainingJob[]>([]);
  const [split, setSplit] = useState<(typeof SPLITS)[number]>('all');
  const [step, setStep] = useState<number | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    modelGroups(modelId, abort.signal).then(setGroups, (e: unknown) => reportFailure(e, setStatus, onError));
    modelJobs(modelId, abort.signal).then(setJobs, onError);
    return () => abort.abort();
  }, [modelId, onError]);

  const batches = useMemo(() => batchesOf((groups ?? []).filter((g) => split === 'all' || g.split === split)), [groups, split]);
  const shown = batches[step ?? batches.length - 1];
  const open = groupId !== undefined ? groups?.find((g) => g.group_id === groupId) : undefined;
  const link = (g: StoredGroup, i: number): string => `${href({ view: 'model', modelId })}/t/${encodeURIComponent(g.group_id)}/${i}`;

  if (groups === null) return <div class="page"><LoadStatus state={status} what="trajectories" /></div>;
  return (
    <div class="page modelpage">
      <div class="tracehead"><a href={href({ view: 'models' })}>← models</a><span>model <code>{modelId}</code>: {groups.reduce((n, g) => n + g.trajectories.length, 0)} trajectories in {groups.length} groups</span></div>
      {jobs.length > 0 ? (
        <table class="jobs">
          <thead><tr><th>training job</th><th>status</th><th class="num">groups</th><th class="num">trajectories</th><th>created</th></tr></thead>
          <tbody>{jobs.map((j) => <tr><td><code>{j.id}</code></td><td title={j.status_detail}>{j.status}</td><td class="num">{j.group_count}</td><td class="num">{j.trajectory_count}</td><td>{j.created_at}</td></tr>)}</tbody>
        </table>
      ) : null}
      <div class="filters" role="tablist">
        {SPLITS.map((s) => <button role="tab" aria-selected={s === split} class={s === split ? 'tab on' : 'tab'} onClick={() => { setSplit(s); setStep(null); }}>{s} ({groups.filter((g) => s === 'all' || g.split === s).reduce((n, g) => n + g.trajectories.length, 0)})</button>)}
      </div>
      <BatchChart batches={batches} />
      <table class="batches">
        <thead><tr><th class="num">step</th><th>split</th><th>logged at</th><th class="num">groups</th><th class="num">trajectories</th><th class="num">reward mean</th><th class="num">std</th><th class="num">group std</th><th>metrics</th></tr></thead>
        <tbody>
          {batches.map((b, i) => (
            <tr class={b === shown ? 'selected' : ''} onClick={() => setStep(i)}>
              <td class="num">{i + 1}</td><td>{b.split}</td><td>{b.loggedAt}</td><td class="num">{b.groups.length}</td><td class="num">{b.trajectoryCount}</td>
              <td class="num">{fmt(b.rewardMean)}</td><td class="num">{fmt(b.rewardStd)}</td><td class="num">{fmt(b.groupStdMean)}</td>
              <td>{Object.entries(b.metricMeans).map(([k, v]) => `${k}=${fmt(v)}`).join(' ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div class="modelsplit">
        {shown ? (
          <div class="groups">
            <h3>Step {batches.indexOf(shown) + 1}: rewards per group</h3>
            {shown.groups.map((g, gi) => (
              <div class="grouprow">
                <span class="muted">group {gi + 1}</span>
                <RewardStrip rewards={g.trajectories.map((t) => t.reward)} min={shown.rewardMin} max={shown.rewardMax} />
                <span class="trajlinks">{g.trajectories.map((t, i) => <a class={g.group_id === groupId && i === index ? 'on' : ''} href={link(g, i)}>{fmt(t.reward)}</a>)}</span>
              </div>
            ))}
          </div>
        ) : <p class="muted">No trajectories in this split.</p>}
        {open && index !== undefined && open.trajectories[index] ? <TrajectoryPane trajectory={open.trajectories[index]} title={`${open.split}, logged ${open.logged_at}, trajectory ${index + 1} of ${open.trajectories.length}`} /> : null}
      </div>
    </div>
  );
}
