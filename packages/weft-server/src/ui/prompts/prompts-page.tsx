/**
 * The Prompts page: the project's prompts; one prompt's versions side by side with their calls' figures, the diff of
 * a version from another (its previous by default), its labels (moved here too, each move logged) and the calls
 * made from the version picked.
 * @module
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { PromptLabels } from 'weft-trace/viewer';
import type { CallRecord } from '../api';
import { DONE, LOADING, type LoadState, LoadStatus, reportFailure } from '../load-status';
import { href } from '../route';
import { LabelPanel } from './label-panel';
import { PromptDiff } from './prompt-diff';
import { callsOfVersions, listPrompts, promptLabels, promptRefOfCall, promptVersions, type PromptVersion } from './prompts-api';
import './prompts.css';
import { VersionCalls } from './version-calls';
import { versionStats } from './version-stats';
import { VersionsTable } from './versions-table';

interface Loaded { versions: PromptVersion[]; labels: PromptLabels; calls: CallRecord[] }

function PromptView({ project, name, digest, onError }: { project: string; name: string; digest?: string; onError: (e: unknown) => void }) {
  const [data, setData] = useState<Loaded | null>(null);
  const [status, setStatus] = useState<LoadState>(LOADING);
  const [from, setFrom] = useState<string | null>(null);
  useEffect(() => {
    const ctl = new AbortController();
    setData(null);
    setStatus(LOADING);
    (async () => {
      const [versions, labels] = await Promise.all([promptVersions(project, name, ctl.signal), promptLabels(project, name, ctl.signal)]);
      setData({ versions, labels, calls: await callsOfVersions(project, versions, ctl.signal) });
      setStatus(DONE);
    })().catch((e: unknown) => reportFailure(e, setStatus, onError));
    return () => ctl.abort();
  }, [project, name, onError]);
  const byRef = useMemo(() => {
    const m = new Map<string, CallRecord[]>();
    for (const c of data?.calls ?? []) {
      const ref = promptRefOfCall(c);
      if (ref !== undefined) m.set(ref, [...(m.get(ref) ?? []), c]);
    }
    return m;
  }, [data]);
  const stats = useMemo(() => new Map([...byRef].map(([ref, calls]) => [ref, versionStats(calls)])), [byRef]);
  useEffect(() => setFrom(null), [digest]);
  if (data === null) return <LoadStatus state={status} what={`versions of ${name}`} />;
  if (data.versions.length === 0) return <p class="empty">No prompt named {name} in {project}.</p>;
  const picked = data.versions.find((v) => v.digest === digest) ?? data.versions[0]!;
  const previous = data.versions.find((v) => v.index < picked.index);
  const base = from === null ? previous : data.versions.find((v) => v.digest === from);
  const select = (d: string): void => { location.hash = href({ view: 'prompts', project, name, digest: d }); };
  return (
    <div class="pview">
      <h2>{name}{picked.val.description ? <span class="muted"> — {picked.val.description}</span> : null}</h2>
      <VersionsTable versions={data.versions} labels={data.labels} stats={stats} selected={picked.digest} onSelect={select} />
      <div class="pgrid">
        <section>
          <h3>v{picked.index}{' '}
            <label class="muted">diff from <select aria-label="diff from" value={base?.digest ?? ''} onChange={(e) => setFrom((e.target as HTMLSelectElement).value)}>
              <option value="">(none)</option>
              {data.versions.filter((v) => v.digest !== picked.digest).map((v) => <option value={v.digest}>v{v.index}</option>)}
            </select></label>{' '}
            <a class="button" href={href({ view: 'playground', project, prompt: `${name}:${picked.digest}` })}>Open in playground</a>
          </h3>
          <PromptDiff from={base?.val ?? null} to={picked.val} fromName={base ? `v${base.index}` : ''} toName={`v${picked.index}`} />
        </section>
        <LabelPanel project={project} name={name} versions={data.versions} labels={data.labels} selected={picked.digest} onMoved={(labels) => setData({ ...data, labels })} />
      </div>
      <h3>Calls made from v{picked.index}</h3>
      <VersionCalls project={project} calls={byRef.get(picked.ref) ?? []} version={`v${picked.index}`} />
    </div>
  );
}

/** The page; `name` and `digest` (from the URL) pick a prompt and one of its versions (default: the latest). */
export function PromptsPage({ project, name, digest, onError }: { project: string; name?: string; digest?: string; onError: (e: unknown) => void }) {
  const [prompts, setPrompts] = useState<PromptVersion[] | null>(null);
  const [status, setStatus] = useState<LoadState>(LOADING);
  useEffect(() => {
    const ctl = new AbortController();
    listPrompts(project, ctl.signal).then((p) => { setPrompts(p); setStatus(DONE); }, (e: unknown) => reportFailure(e, setStatus, onError));
    return () => ctl.abort();
  }, [project, onError]);
  return (
    <div class="page prompts">
      <nav class="plist">
        {prompts === null ? <LoadStatus state={status} what="prompts" /> : null}
        {prompts !== null && prompts.length === 0 ? <p class="empty">No prompts in {project}. Publish one with <code>publishPrompt()</code> or <code>weft prompts push</code>.</p> : null}
        {(prompts ?? []).map((p) => (
          <a class={p.name === name ? 'picked' : ''} data-prompt={p.name} href={href({ view: 'prompts', project, name: p.name })}>{p.name} <span class="muted">v{p.index}</span></a>
        ))}
      </nav>
      <div class="pmain">
        {name !== undefined ? <PromptView key={name} project={project} name={name} digest={digest} onError={onError} /> : <p class="muted">Pick a prompt.</p>}
      </div>
    </div>
  );
}
