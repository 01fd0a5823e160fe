/**
 * A media reference drawn where the call held it (issue 51): an image as a thumbnail that opens full size, audio and
 * video with a player, a PDF or other document as a link that opens it; "file not arrived yet" while the server has
 * not got it, the reason for a file that was dropped, and a plain label on a page without a project.
 * @module
 */
import { useContext } from 'preact/hooks';
import { isStoredMediaRef, type MediaRef, type StoredMediaRef } from '../../media-ref';
import { bytesText } from '../format';
import { useFileUrl } from './file-url';
import { MediaProject } from './media-project';

/** `image`, `audio`, `video` or `file`, from a MIME type's top level. */
export function mediaKindOf(mime: string): 'image' | 'audio' | 'video' | 'file' {
  const top = mime.split('/')[0];
  return top === 'image' || top === 'audio' || top === 'video' ? top : 'file';
}

/** `[image image/png, 3.4 KB]`: what the media is, before it is drawn. */
function label(ref: MediaRef): string {
  return `[${mediaKindOf(ref.mime_type)} ${ref.mime_type}, ${bytesText(ref.size_bytes)}]`;
}

function StoredMedia({ project, mediaRef }: { project: string; mediaRef: StoredMediaRef }) {
  const state = useFileUrl(project, mediaRef);
  const kind = mediaKindOf(mediaRef.mime_type);
  if (state.phase === 'loading') return <span class="media-note muted">{label(mediaRef)} loading…</span>;
  if (state.phase === 'missing') return <span class="media-note media-missing" data-media="missing">{label(mediaRef)} file not arrived yet</span>;
  if (state.phase === 'failed') return <span class="media-note media-failed">{label(mediaRef)} could not load: {state.why}</span>;
  const { url } = state;
  const open = (text: string) => <a class="media-open" href={url} target="_blank" rel="noopener noreferrer">{text}</a>;
  switch (kind) {
    case 'image':
      return (
        <a class="media-thumb-link" href={url} target="_blank" rel="noopener noreferrer" title={`${label(mediaRef)} open full size`}>
          <img class="media-thumb" src={url} alt={mediaRef.where ?? 'image'} data-media="image" />
        </a>
      );
    case 'audio':
      return <span class="media-player"><audio controls preload="metadata" src={url} data-media="audio" /> <span class="muted">{bytesText(mediaRef.size_bytes)}</span></span>;
    case 'video':
      return <span class="media-player"><video class="media-video" controls preload="metadata" src={url} data-media="video" /></span>;
    default:
      return <span class="media-doc" data-media="file">{open(`open ${mediaRef.mime_type}`)} <span class="muted">{bytesText(mediaRef.size_bytes)}</span></span>;
  }
}

/** A media reference drawn for the page's project (the {@link MediaProject} context). */
export function MediaRefView({ mediaRef }: { mediaRef: MediaRef }) {
  const project = useContext(MediaProject);
  if (!isStoredMediaRef(mediaRef)) {
    const why = mediaRef.dropped ?? 'no file was stored';
    return <span class="media-note media-dropped" data-media="dropped">{label(mediaRef)} dropped: {why}</span>;
  }
  if (project === null) return <span class="media-note muted">{label(mediaRef)}</span>;
  return <StoredMedia project={project} mediaRef={mediaRef} />;
}
