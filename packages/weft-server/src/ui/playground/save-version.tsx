/**
 * A variant saved as a new version of a prompt (the prompt it came from, or any name), linked to the Prompts page.
 * @module
 */
import { useState } from 'preact/hooks';
import { href } from '../route';
import { saveVariant, type Variant } from './playground-api';

export function SaveVersion({ project, label, variant, initialName }: { project: string; label: string; variant: Variant; initialName: string }) {
  const [name, setName] = useState(initialName);
  const [saved, setSaved] = useState<{ name: string; digest: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const save = async (): Promise<void> => {
    setProblem(null);
    try {
      const { digest } = await saveVariant(project, name.trim(), variant);
      setSaved({ name: name.trim(), digest });
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <div class="pg-save">
      <input aria-label={`${label} prompt name`} placeholder="prompt name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      <button disabled={name.trim() === ''} onClick={() => void save()}>Save as prompt version</button>
      {saved ? <a class="pg-saved" href={href({ view: 'prompts', project, name: saved.name, digest: saved.digest })}>saved {saved.name}:{saved.digest.slice(0, 8)}</a> : null}
      {problem ? <span class="load-error" role="alert">{problem}</span> : null}
    </div>
  );
}
