/**
 * The header's "open an id" box: a trace id or a call id, with or without dashes, opens its trace (a call id with
 * that call selected; the trace view resolves both, see trace-ids.ts).
 * @module
 */
import { useState } from 'preact/hooks';
import { href } from './route';

export function OpenId({ project }: { project: string }) {
  const [id, setId] = useState('');
  return (
    <form class="open-id" onSubmit={(e) => {
      e.preventDefault();
      const clean = id.trim();
      if (clean) location.hash = href({ view: 'trace', project, traceId: clean });
      setId('');
    }}>
      <input aria-label="open id" placeholder="trace or call id" value={id} onInput={(e) => setId((e.target as HTMLInputElement).value)} />
    </form>
  );
}
