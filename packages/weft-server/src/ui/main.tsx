/**
 * The trace viewer's shell: the project picker, the API key prompt (on 401), errors, and the routed view.
 * @module
 */
import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { apiKey, listProjects, NeedsKeyError, setApiKey } from './api';
import { FeedbackChart } from './feedback-chart';
import { ModelPage } from './models/model-page';
import { ModelsList } from './models/models-list';
import { href, useRoute } from './route';
import { MediaProject } from './media/media-project';
import './styles.css';
import { ThreadView } from './thread-view';
import { OverviewPage } from './overview/overview-page';
import { OpenId } from './open-id';
import { TraceView } from './trace-view';
import { TracesList } from './traces-list';
import { EvaluationsPage } from './evaluations/evaluations-page';
import { PromptsPage } from './prompts/prompts-page';
import { PlaygroundPage } from './playground/playground-page';
import { DatasetsPage } from './datasets/datasets-page';
import { QueuesPage } from './queues/queues-page';
import { ReviewScreen } from './queues/review-screen';

const LAST_PROJECT = 'weft.project';

function KeyPrompt({ onKey, refused }: { onKey: () => void; refused: boolean }) {
  const [key, setKey] = useState('');
  return (
    <form class="keyprompt" onSubmit={(e) => { e.preventDefault(); setApiKey(key); onKey(); }}>
      <p>This server requires an API key (it was started with <code>--api-key</code>). The key stays in this browser tab's session.</p>
 {refused ? <p class="error" role="alert">The server refused that key; try again.</p> : null}
      <input type="password" autocomplete="off" value={key} onInput={(e) => setKey((e.target as HTMLInputElement).value)} aria-label="API key" placeholder="API key" autofocus />
      <button type="submit">Open</button>
    </form>
  );
}

function App() {
  const route = useRoute();
  const [projects, setProjects] = useState<string[] | null>(null);
  const [needsKey, setNeedsKey] = useState(false);
  const [keyRefused, setKeyRefused] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  const onError = useCallback((e: unknown) => {
    if (e instanceof NeedsKeyError) {
      setKeyRefused(apiKey() !== null);
      setApiKey(null);
      setNeedsKey(true);
    } else if (!(e instanceof DOMException && e.name === 'AbortError')) setError(e instanceof Error ? e.message : String(e));
  }, []);

  useEffect(() => {
    listProjects().then((p) => { setProjects(p); setNeedsKey(false); }, onError);
  }, [attempt, onError]);

  const project = 'project' in route ? route.project : null;
  useEffect(() => {
    if (project !== null) localStorage.setItem(LAST_PROJECT, project);
  }, [project]);
  useEffect(() => {
    if (route.view !== 'home' || projects === null || projects.length === 0) return;
    const last = localStorage.getItem(LAST_PROJECT);
    location.replace(href({ view: 'traces', project: last !== null && projects.includes(last) ? last : projects[0]! }));
  }, [route.view, projects]);

  if (needsKey) return <KeyPrompt refused={keyRefused} onKey={() => { setNeedsKey(false); setAttempt(attempt + 1); }} />;
  const choices = [...new Set([...(projects ?? []), ...(project !== null ? [project] : [])])].sort();
  return (
    <div class="app">
      <header>
        <a class="brand" href="#/">weft</a>
        <label>project{' '}
          <select aria-label="project" value={project ?? ''} onChange={(e) => { location.hash = href({ view: 'traces', project: (e.target as HTMLSelectElement).value }); }}>
            {project === null ? <option value="">—</option> : null}
            {choices.map((p) => <option value={p}>{p}</option>)}
          </select>
        </label>
        {project !== null ? <><a href={href({ view: 'traces', project })}>traces</a><a href={href({ view: 'overview', project })}>overview</a><a href={href({ view: 'feedback', project })}>feedback</a><a href={href({ view: 'evaluations', project, runIds: [] })}>evaluations</a><a href={href({ view: 'queues', project })}>queues</a><a href={href({ view: 'datasets', project })}>datasets</a><a href={href({ view: 'prompts', project })}>prompts</a><a href={href({ view: 'playground', project })}>playground</a><OpenId project={project} /></> : null}
        <a href={href({ view: 'models' })}>models</a>
      </header>
      {error !== null ? <div class="error" role="alert">{error} <button class="link" onClick={() => setError(null)}>dismiss</button></div> : null}
      <MediaProject.Provider value={project}>
      {route.view === 'home' ? (
        <div class="page"><p>{projects === null ? 'Loading projects…' : 'No traces stored yet. Run a traced program against this server (for example `npm run demo`), and they appear here.'}</p></div>
      ) : route.view === 'traces' ? (
        <TracesList key={route.project} project={route.project} q={route.q} onError={onError} />
      ) : route.view === 'trace' ? (
        <TraceView key={`${route.project}/${route.traceId}`} project={route.project} traceId={route.traceId} callId={route.callId} onError={onError} />
      ) : route.view === 'evaluations' ? (
        <EvaluationsPage key={route.project} project={route.project} runIds={route.runIds} onError={onError} />
      ) : route.view === 'prompts' ? (
        <PromptsPage key={route.project} project={route.project} name={route.name} digest={route.digest} onError={onError} />
      ) : route.view === 'playground' ? (
        <PlaygroundPage key={`${route.project}/${route.call ?? ''}/${route.prompt ?? ''}`} project={route.project} call={route.call} prompt={route.prompt} onError={onError} />
      ) : route.view === 'datasets' ? (
        <DatasetsPage key={route.project} project={route.project} name={route.name} q={route.q} onError={onError} />
      ) : route.view === 'models' ? (
        <ModelsList onError={onError} />
      ) : route.view === 'model' ? (
        <ModelPage key={route.modelId} modelId={route.modelId} groupId={route.groupId} index={route.index} onError={onError} />
      ) : route.view === 'overview' ? (
        <OverviewPage project={route.project} q={route.q} onError={onError} />
      ) : route.view === 'queues' ? (
        route.queue ? <ReviewScreen key={`${route.project}/${route.queue}`} project={route.project} queue={route.queue} onError={onError} /> : <QueuesPage key={route.project} project={route.project} onError={onError} />
      ) : route.view === 'thread' ? (
        <ThreadView project={route.project} threadId={route.threadId} onError={onError} />
      ) : (
        <FeedbackChart project={route.project} onError={onError} />
      )}
      </MediaProject.Provider>
    </div>
  );
}

render(<App />, document.getElementById('app')!);
