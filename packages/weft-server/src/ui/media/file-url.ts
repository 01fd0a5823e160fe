/**
 * A call's media file as a URL the page can put in `<img src>`, `<audio src>` or a link (`GET /weft/files/...`): the
 * route's own URL on a keyless server (the browser then streams audio and video by range), a `blob:` URL of the bytes
 * read with the API key otherwise (an element's own request cannot carry the key). A file not stored yet (the SDK sends
 * files after their calls) is asked for again every few seconds for a while.
 * @module
 */
import { useEffect, useState } from 'preact/hooks';
import { type StoredMediaRef, weftFilePath } from '../../media-ref';
import { apiKey } from '../api';

/** Where a file stands: being looked for, not on the server (yet), failed, or ready at `url`. */
export type FileState = { phase: 'loading' } | { phase: 'missing' } | { phase: 'failed'; why: string } | { phase: 'ready'; url: string };

/** How often a file not on the server yet is asked for again, and for how long. */
const RETRY_MS = 3_000;
const RETRY_FOR_MS = 120_000;

/**
 * One look for the file: keyless, one byte (`Range: bytes=0-0`) to learn whether it is there, then the route's URL;
 * with a key, the whole file into a `blob:` URL (revoked by the caller).
 */
async function lookUp(project: string, ref: StoredMediaRef): Promise<FileState> {
  const path = weftFilePath(project, ref.digest, ref.mime_type);
  const key = apiKey();
  const headers: Record<string, string> = key === null ? { range: 'bytes=0-0' } : { authorization: `Basic ${btoa(`api:${key}`)}` };
  const res = await fetch(path, { headers, credentials: 'omit' });
  if (res.status === 404) return { phase: 'missing' };
  if (res.status === 416 || (res.ok && key === null)) return { phase: 'ready', url: path };
  if (!res.ok) return { phase: 'failed', why: `${res.status} ${res.statusText}` };
  const blob = new Blob([await res.arrayBuffer()], { type: ref.mime_type });
  return { phase: 'ready', url: URL.createObjectURL(blob) };
}

/** The state of `ref`'s file in `project`, looked up on mount and again while it has not arrived. */
export function useFileUrl(project: string, ref: StoredMediaRef): FileState {
  const [state, setState] = useState<FileState>({ phase: 'loading' });
  useEffect(() => {
    let stopped = false;
    let blobUrl: string | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const since = Date.now();
    const attempt = (): void => {
      lookUp(project, ref).then((found) => {
        if (found.phase === 'ready' && found.url.startsWith('blob:')) {
          if (stopped) return URL.revokeObjectURL(found.url);
          blobUrl = found.url;
        }
        if (stopped) return;
        setState(found);
        if (found.phase === 'missing' && Date.now() - since < RETRY_FOR_MS) timer = setTimeout(attempt, RETRY_MS);
      }, (e: unknown) => { if (!stopped) setState({ phase: 'failed', why: e instanceof Error ? e.message : String(e) }); });
    };
    attempt();
    return () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      if (blobUrl !== undefined) URL.revokeObjectURL(blobUrl);
    };
  }, [project, ref.digest, ref.mime_type]);
  return state;
}
