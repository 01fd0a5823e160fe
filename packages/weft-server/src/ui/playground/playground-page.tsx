/**
 * The playground: a model call (from a call in the viewer, a prompt version, or blank) edited and run against a
 * provider the server configures, two to four variants side by side; the dataset runs of the variants compared on
 * the Evaluations page.
 * @module
 */
import { useEffect, useState } from 'preact/hooks';
import { DONE, LOADING, type LoadState, LoadStatus, reportFailure } from '../load-status';
import { href } from '../route';
import { providers as readProviders, type ProviderStatus, type Variant, variantOfCall, variantOfPrompt } from './playground-api';
import './playground.css';
import { VariantColumn } from './variant-column';

const MAX_VARIANTS = 4;
const NAMES = ['A', 'B', 'C', 'D'];
const BLANK: Variant = { provider: 'openai', model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'You are a helpful assistant.' }, { role: 'user', content: '' }], params: {}, values: {} };

async function opening(project: string, call?: string, prompt?: string): Promise<{ variant: Variant; promptName: string }> {
  if (call) return { variant: await variantOfCall(project, call), promptName: '' };
  if (prompt) {
    const { variant, name } = await variantOfPrompt(project, prompt);
    return { variant, promptName: name };
  }
  return { variant: BLANK, promptName: '' };
}

/** The page; `call` (a call id) or `prompt` (`<name>:<digest>`) from the URL is what the first variant opens as. */
export function PlaygroundPage({ project, call, prompt, onError }: { project: string; call?: string; prompt?: string; onError: (e: unknown) => void }) {
  const [variants, setVariants] = useState<Variant[] | null>(null);
  const [providers, setProviders] = useState<ProviderStatus[]>([]);
  const [promptName, setPromptName] = useState('');
  const [status, setStatus] = useState<LoadState>(LOADING);
  const [runs, setRuns] = useState<string[]>([]);
  useEffect(() => {
    Promise.all([readProviders(), opening(project, call, prompt)]).then(([p, o]) => {
      setProviders(p);
      setVariants([o.variant]);
      setPromptName(o.promptName);
      setStatus(DONE);
    }, (e: unknown) => reportFailure(e, setStatus, onError));
  }, [project, call, prompt, onError]);
  if (variants === null) return <div class="page"><LoadStatus state={status} what="the playground" /></div>;
  const set = (i: number, v: Variant): void => setVariants(variants.map((x, j) => (j === i ? v : x)));
  const from = call ? `call ${call}` : prompt ? `prompt ${prompt.replace(/:(.{8}).*$/, ':$1')}` : 'a blank call';
  return (
    <div class="page playground">
      <div class="listhead">
        <span>Opened from {from}. Runs go through the server's provider keys and are recorded as calls in {project} (attribute <code>weft.playground</code>).</span>
        <span>
          {runs.length >= 2 ? <a class="button pg-compare" href={href({ view: 'evaluations', project, runIds: runs.slice(-MAX_VARIANTS) })}>Compare {Math.min(runs.length, MAX_VARIANTS)} dataset runs</a> : null}{' '}
          <button disabled={variants.length >= MAX_VARIANTS} onClick={() => setVariants([...variants, structuredClone(variants[variants.length - 1]!)])}>+ variant</button>
        </span>
      </div>
      <div class="pg-variants" style={{ gridTemplateColumns: `repeat(${variants.length}, minmax(280px, 1fr))` }}>
        {variants.map((v, i) => (
          <VariantColumn key={i} project={project} name={NAMES[i]!} variant={v} providers={providers} promptName={promptName}
            onChange={(nv) => set(i, nv)} onRemove={variants.length > 1 ? () => setVariants(variants.filter((_, j) => j !== i)) : undefined}
            onEvaluated={(id) => setRuns((r) => [...r, id])} />
        ))}
      </div>
    </div>
  );
}
