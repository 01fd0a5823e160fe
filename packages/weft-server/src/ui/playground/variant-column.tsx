/**
 * One variant of the playground, a column: provider, model, parameters (JSON), messages and the values of their
 * `{{variables}}`; Run streams the reply in, then links the recorded call; below, the variant saved as a prompt
 * version and run over a dataset.
 * @module
 */
import { useState } from 'preact/hooks';
import { href } from '../route';
import { duration } from '../format';
import { DatasetRun } from './dataset-run';
import { MessagesEditor } from './messages-editor';
import { type ProviderStatus, runVariant, type Variant, variantVariables } from './playground-api';
import { SaveVersion } from './save-version';
import { foldLine, IDLE, type RunState } from './variant-run';

export interface VariantColumnProps {
  project: string;
  /** `A`, `B`, ...: how the column is named in labels. */
  name: string;
  variant: Variant;
  providers: readonly ProviderStatus[];
  /** The prompt the variant came from, offered as the name it is saved under. */
  promptName: string;
  onChange: (v: Variant) => void;
  onRemove?: () => void;
  /** Called with the evaluation run id when a dataset run is recorded. */
  onEvaluated: (runId: string) => void;
}

export function VariantColumn({ project, name, variant, providers, promptName, onChange, onRemove, onEvaluated }: VariantColumnProps) {
  const [params, setParams] = useState(JSON.stringify(variant.params));
  const [paramsError, setParamsError] = useState<string | null>(null);
  const [run, setRun] = useState<RunState>(IDLE);
  const status = providers.find((p) => p.provider === variant.provider);
  const vars = variantVariables(variant);
  const start = async (): Promise<void> => {
    let state: RunState = { ...IDLE, phase: 'running' };
    setRun(state);
    try {
      await runVariant(project, variant, (line) => setRun((state = foldLine(state, line))));
      if (state.phase === 'running') setRun({ ...state, phase: 'error', error: 'the run ended without an answer' });
    } catch (e) {
      setRun({ ...state, phase: 'error', error: e instanceof Error ? e.message : String(e) });
    }
  };
  const editParams = (text: string): void => {
    setParams(text);
    try {
      const parsed = JSON.parse(text || '{}') as unknown;
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('expected a JSON object');
      setParamsError(null);
      onChange({ ...variant, params: parsed as Record<string, unknown> });
    } catch (e) {
      setParamsError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <section class="pg-variant" data-variant={name}>
      <div class="pg-head">
        <b>Variant {name}</b>
        {onRemove ? <button class="link" onClick={onRemove}>remove</button> : null}
      </div>
      <div class="pg-row">
        <select aria-label={`${name} provider`} value={variant.provider} onChange={(e) => onChange({ ...variant, provider: (e.target as HTMLSelectElement).value as Variant['provider'] })}>
          {providers.map((p) => <option value={p.provider}>{p.provider}{p.configured ? '' : ' (no key)'}</option>)}
        </select>
        <input aria-label={`${name} model`} value={variant.model} placeholder="model" onInput={(e) => onChange({ ...variant, model: (e.target as HTMLInputElement).value })} />
      </div>
      {status && !status.configured ? <p class="pg-hint" data-missing-key={status.key_env}>Set {status.key_env} in the server's environment to run {status.provider}.</p> : null}
      <label class="pg-params">parameters <input aria-label={`${name} parameters`} value={params} onInput={(e) => editParams((e.target as HTMLInputElement).value)} /></label>
      {paramsError ? <span class="load-error">{paramsError}</span> : null}
      <MessagesEditor label={name} messages={variant.messages} onChange={(messages) => onChange({ ...variant, messages })} />
      {vars.length > 0 ? (
        <div class="pg-vars">{vars.map((v) => (
          <label>{v} <input aria-label={`${name} variable ${v}`} value={variant.values[v] ?? ''} onInput={(e) => onChange({ ...variant, values: { ...variant.values, [v]: (e.target as HTMLInputElement).value } })} /></label>
        ))}</div>
      ) : null}
      <button class="pg-run" disabled={run.phase === 'running' || paramsError !== null} onClick={() => void start()}>{run.phase === 'running' ? 'Running…' : `Run ${name}`}</button>
      <div class="pg-output" data-phase={run.phase} aria-label={`${name} output`}>
        {run.text ? <pre class="chat-text">{run.text}</pre> : null}
        {run.phase === 'error' ? <p class="load-error" role="alert">{run.error}</p> : null}
        {run.phase === 'done' && run.traceId ? (
          <p class="muted">{duration(run.latencyMs ?? null)} · <a class="pg-trace" href={href({ view: 'trace', project, traceId: run.traceId, ...(run.callId ? { callId: run.callId } : {}) })}>recorded call</a></p>
        ) : null}
      </div>
      <SaveVersion project={project} label={name} variant={variant} initialName={promptName} />
      <DatasetRun project={project} label={name} variant={variant} onEvaluated={onEvaluated} />
    </section>
  );
}
